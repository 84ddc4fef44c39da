// The MDS simulation (src/stats/mds.hpp) on synthetic data whose variance components are known:
// instance offsets with a 3% log-sd, iteration noise with 5%.
#include "stats/mds.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/simulate.hpp"
#include "stats/verdict.hpp"
#include "support/test_support.hpp"

namespace benchguard::stats {
namespace {

Hierarchical pool(std::size_t instances, std::size_t iterations, uint64_t seed = 11) {
  SimulationOptions sim;
  sim.instances = instances;
  sim.iterations = iterations;
  sim.instance_sd = 0.03;
  sim.iteration_sd = 0.05;
  return simulate(sim, seed);
}

MdsOptions small_grid() {
  MdsOptions o;
  o.instances = {5, 10};
  o.iterations = {5, 10};
  o.experiments = 100;
  o.resamples = 400;
  o.seed = 5;
  return o;
}

using testing::three_se;

TEST(MdsResampling, OneNormalPerResampleMatchesTheTwoStageBootstrap) {
  // Few, noisy iterations per instance: where replacing the inner draws by one normal variate
  // is least exact.
  SimulationOptions sim;
  sim.instances = 10;
  sim.iterations = 5;
  sim.instance_sd = 0.02;
  sim.iteration_sd = 0.10;
  const Hierarchical data = simulate(sim, 3);
  std::vector<InstanceMoments> moments;
  for (std::size_t i = 0; i < data.instances(); ++i)
    moments.push_back(moments_of(data.instance(i)));
  const int resamples = 20000;
  std::vector<double> fast(resamples);
  Rng rng(9, 0);
  mean_replicates(moments, rng, fast);
  const auto exact = hierarchical_replicates(data, Statistic::kMean, resamples, 9);
  const double sd = stdev(exact);
  // Monte Carlo error at 20,000 resamples: 0.5% on a standard deviation, 0.03 sd on a 2.5%
  // quantile difference; the bounds are about three of those.
  EXPECT_NEAR(stdev(fast) / sd, 1.0, 0.02);
  EXPECT_NEAR(mean(fast), mean(exact), 0.03 * sd);
  for (const double p : {0.025, 0.5, 0.975})
    EXPECT_NEAR(quantile(fast, p), quantile(exact, p), 0.1 * sd) << p;
}

TEST(Mds, FeasibilityFollowsTheSelection) {
  const Hierarchical data = pool(9, 12);
  EXPECT_FALSE(feasible(data, {Selection::kInstance, 5, 5}));  // 10 instances needed
  EXPECT_TRUE(feasible(data, {Selection::kInstance, 4, 12}));
  EXPECT_TRUE(feasible(data, {Selection::kTrial, 5, 6}));  // 12 iterations each
  EXPECT_FALSE(feasible(data, {Selection::kTrial, 5, 7}));
  EXPECT_FALSE(feasible(data, {Selection::kTrial, 10, 5}));

  MdsOptions o = small_grid();
  o.experiments = 4;
  const auto grid = simulate_mds(data, o);
  ASSERT_EQ(grid.size(), 8u);
  EXPECT_EQ(grid[0].config.selection, Selection::kInstance);
  EXPECT_FALSE(grid[0].feasible);
  EXPECT_TRUE(grid[4].feasible);  // trial 5 x 5
  EXPECT_EQ(grid[4][Decision::kRatio].upper.size(), 4u);
  EXPECT_TRUE(grid[4 + 2].config.instances == 10 && !grid[6].feasible);
}

TEST(Mds, FalsePositiveRateStaysWithinAlpha) {
  // 200 instances: the experiments' draws are close to independent samples of the population.
  const Hierarchical data = pool(200, 20);
  MdsOptions o = small_grid();
  o.experiments = 400;
  const double alpha = 1.0 - o.confidence;
  const double bound = alpha + three_se(alpha, o.experiments);  // 0.083
  for (const auto& c : simulate_mds(data, o)) {
    ASSERT_TRUE(c.feasible);
    for (const Decision d : {Decision::kOverlap, Decision::kRatio}) {
      SCOPED_TRACE(std::string(to_string(c.config.selection)) + " " + std::string(to_string(d)) +
                   " " + std::to_string(c.config.instances) + "x" +
                   std::to_string(c.config.iterations));
      EXPECT_LE(c[d].false_positive_rate, bound);
      EXPECT_DOUBLE_EQ(c[d].detection[0], c[d].false_positive_rate);  // slowdown 1.0
    }
  }
}

TEST(Mds, MdsFallsAsInstancesGrow) {
  const Hierarchical data = pool(60, 20);
  MdsOptions o = small_grid();
  o.instances = {5, 10, 20, 30};
  o.iterations = {10};
  const auto grid = simulate_mds(data, o);
  for (const Selection s : {Selection::kInstance, Selection::kTrial}) {
    for (const Decision d : {Decision::kOverlap, Decision::kRatio}) {
      double previous = INFINITY;
      for (const auto& c : grid) {
        if (c.config.selection != s) continue;
        ASSERT_TRUE(c.feasible);
        EXPECT_LT(c[d].mds, previous)
            << to_string(s) << " " << to_string(d) << " " << c.config.instances;
        previous = c[d].mds;
      }
    }
  }
  // Instance-based, ratio: with a 3% instance sd a 5% slowdown needs more than 5 instances
  // per side, and 30 detect it.
  EXPECT_GT(grid[0][Decision::kRatio].mds, 1.05);
  EXPECT_LT(grid[3][Decision::kRatio].mds, 1.05);
  EXPECT_GE(grid[3][Decision::kRatio].detection[3], 0.9);  // slowdown 1.05
}

TEST(Mds, SameSeedSameResultsOnAnyNumberOfThreads) {
  const Hierarchical data = pool(30, 20);
  const MdsOptions o = small_grid();
  std::vector<ConfigResult> one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = simulate_mds(data, o);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = simulate_mds(data, o);
  }
  MdsOptions other = o;
  other.seed = o.seed + 1;
  const auto reseeded = simulate_mds(data, other);
  ASSERT_EQ(one.size(), two.size());
  bool differs = false;
  for (std::size_t i = 0; i < one.size(); ++i) {
    for (const Decision d : {Decision::kOverlap, Decision::kRatio}) {
      EXPECT_EQ(one[i][d].upper, two[i][d].upper);
      EXPECT_EQ(one[i][d].lower, two[i][d].lower);
      EXPECT_EQ(one[i][d].mds, two[i][d].mds);
      differs = differs || one[i][d].upper != reseeded[i][d].upper;
    }
  }
  EXPECT_TRUE(differs);
}

TEST(Mds, ScalingShortcutAgreesWithDirectSimulation) {
  const Hierarchical data = pool(30, 20);
  MdsOptions o = small_grid();
  o.experiments = 40;
  const auto grid = simulate_mds(data, o);
  for (const auto& c : grid) {
    ASSERT_TRUE(c.feasible);
    // called[d][k]: experiments whose direct simulation at slowdowns[k] detects it.
    std::array<std::vector<int>, kDecisionCount> called;
    for (auto& v : called) v.assign(o.slowdowns.size(), 0);
    for (int e = 0; e < o.experiments; ++e) {
      const auto plain = simulate_experiment(data, c.config, o, e, 1.0);
      for (std::size_t k = 0; k < o.slowdowns.size(); ++k) {
        const double s = o.slowdowns[k];
        // The same experiment with the test side's data multiplied by s before selection and
        // resampling, decided as it stands.
        const auto direct = simulate_experiment(data, c.config, o, e, s);
        EXPECT_EQ(direct.control.lower, plain.control.lower);
        EXPECT_NEAR(direct.test.lower, s * plain.test.lower, 1e-12 * s * plain.test.lower);
        EXPECT_NEAR(direct.ratio.upper, s * plain.ratio.upper, 1e-12 * s * plain.ratio.upper);
        for (const Decision d : {Decision::kOverlap, Decision::kRatio}) {
          const int verdict = decide(direct, d);
          called[static_cast<std::size_t>(d)][k] += s == 1.0 ? verdict != 0 : verdict > 0;
        }
      }
    }
    for (const Decision d : {Decision::kOverlap, Decision::kRatio}) {
      for (std::size_t k = 0; k < o.slowdowns.size(); ++k) {
        EXPECT_DOUBLE_EQ(
            c[d].detection[k],
            static_cast<double>(called[static_cast<std::size_t>(d)][k]) / o.experiments)
            << to_string(c.config.selection) << " " << to_string(d) << " " << c.config.instances
            << "x" << c.config.iterations << " at " << o.slowdowns[k];
      }
    }
  }
}

// A pilot with spikes (2% of iterations 1.5-4x slower), where the robust mean and the mean
// differ, and noise such that a 4% slowdown is detected by some experiments and not others.
Hierarchical spiky_pool(std::size_t instances, std::size_t iterations) {
  SimulationOptions sim;
  sim.instances = instances;
  sim.iterations = iterations;
  sim.instance_sd = 0.03;
  sim.iteration_sd = 0.05;
  sim.outlier_probability = 0.02;
  sim.outlier_factors = {1.5, 2.0, 4.0};
  return simulate(sim, 21);
}

Hierarchical slowed_by(const Hierarchical& data, double s) {
  std::vector<double> values(data.values().begin(), data.values().end());
  for (double& v : values) v *= s;
  return Hierarchical::from_parts(std::move(values),
                                  {data.offsets().begin(), data.offsets().end()});
}

// The compare decision counts what stats::compare, the verdict `compare` gives, says of the
// experiment's two samples: at every slowdown from the thresholds, at the target directly.
TEST(Mds, CompareDecisionCountsComparesVerdicts) {
  const Hierarchical data = spiky_pool(80, 20);
  MdsOptions o = small_grid();
  o.experiments = 40;
  o.slowdowns = {1.0, 1.01, 1.02, 1.04, 1.06, 1.1};
  o.iterations = {1, 5, 10};
  o.target = 1.04;
  o.bootstrap_decisions = false;
  VerdictOptions v;  // compare's defaults: robust mean, t interval, 1% threshold
  v.confidence = o.confidence;
  const auto grid = simulate_mds(data, o);
  int slower_somewhere = 0, not_at_target = 0;
  for (const auto& c : grid) {
    ASSERT_TRUE(c.feasible);
    EXPECT_TRUE(c[Decision::kOverlap].upper.empty());  // not asked for
    std::vector<int> called(o.slowdowns.size(), 0);
    int at_target = 0;
    for (int e = 0; e < o.experiments; ++e) {
      const auto [a, b] = simulate_samples(data, c.config, o, e);
      for (std::size_t k = 0; k < o.slowdowns.size(); ++k) {
        const Verdict verdict = compare(a, slowed_by(b, o.slowdowns[k]), v).verdict;
        const bool change = verdict == Verdict::kSlower || verdict == Verdict::kFaster;
        called[k] += o.slowdowns[k] == 1.0 ? change : verdict == Verdict::kSlower;
      }
      const bool detected = compare(a, slowed_by(b, o.target), v).verdict == Verdict::kSlower;
      at_target += detected;
      not_at_target += !detected;
    }
    const auto& r = c[Decision::kCompare];
    // One iteration an instance: the spike rule reads the other side, and only the rate at
    // the target (counted from verdicts there) and at 1 are compare's exactly.
    const bool equivariant = c.config.iterations >= 3;
    for (std::size_t k = 0; k < o.slowdowns.size(); ++k) {
      if (!equivariant && o.slowdowns[k] != 1.0 && o.slowdowns[k] != o.target) continue;
      EXPECT_DOUBLE_EQ(r.detection[k], static_cast<double>(called[k]) / o.experiments)
          << to_string(c.config.selection) << " " << c.config.instances << "x"
          << c.config.iterations << " at " << o.slowdowns[k];
      slower_somewhere += called[k];
    }
    EXPECT_DOUBLE_EQ(r.false_positive_rate, static_cast<double>(called[0]) / o.experiments);
    EXPECT_EQ(r.target_detections, at_target);
    EXPECT_DOUBLE_EQ(detection_rate(r, o.target), static_cast<double>(at_target) / o.experiments);
  }
  EXPECT_GT(slower_somewhere, 0);  // the case decides both ways
  EXPECT_GT(not_at_target, 0);
}

// compare's rule, not the bootstrap ratio of means: on the same experiments with spikes, the
// two decisions disagree, and the compare decision's rate is compare's (above).
TEST(Mds, CompareDecisionIsNotTheRatioOfMeans) {
  const Hierarchical data = spiky_pool(80, 20);
  MdsOptions o = small_grid();
  o.experiments = 60;
  const auto grid = simulate_mds(data, o);
  bool differs = false;
  for (const auto& c : grid)
    differs = differs || c[Decision::kCompare].upper != c[Decision::kRatio].upper;
  EXPECT_TRUE(differs);
}

// Holm over a family: when the other benchmarks show no change at all, a slowed benchmark's
// adjusted p-value is family x its own, the case the compare decision counts.
TEST(Mds, FamilyRuleIsHolmsWithTheOthersUnchanged) {
  const Hierarchical data = spiky_pool(80, 20);
  MdsOptions o = small_grid();
  o.experiments = 30;
  o.family = 8;
  o.target = 1.05;
  o.bootstrap_decisions = false;
  o.instances = {5};
  o.iterations = {10};
  VerdictOptions v;
  v.confidence = o.confidence;
  const auto grid = simulate_mds(data, o);
  MdsOptions alone = o;
  alone.family = 1;
  const auto single = simulate_mds(data, alone);
  const Configuration config = grid[0].config;
  int detected = 0;
  for (int e = 0; e < o.experiments; ++e) {
    const auto [a, b] = simulate_samples(data, config, o, e);
    // Benchmark 0 slowed by the target; the other seven compare A with itself (p = 1).
    std::vector<Hierarchical> as(o.family, a), bs(o.family, a);
    bs[0] = slowed_by(b, o.target);
    detected += compare_all(as, bs, v).benchmarks[0].verdict == Verdict::kSlower;
  }
  EXPECT_EQ(grid[0][Decision::kCompare].target_detections, detected);
  EXPECT_LT(detected, single[0][Decision::kCompare].target_detections);  // Holm costs power
}

// Power is read off a one-sided Clopper-Pearson lower bound, not off the count: 95 of 100
// (what the point estimate asked) is not enough for 95%.
TEST(Mds, PowerIsReadOffTheLowerBound) {
  const std::size_t k = successes_for_bound(100, 0.95, 0.95);
  EXPECT_GT(k, 95u);
  EXPECT_LE(k, 100u);
  EXPECT_LT(rate_lower_bound(k - 1, 100, 0.95), 0.95);
  EXPECT_GE(rate_lower_bound(k, 100, 0.95), 0.95);
  // One-sided 95%: the two-sided 90% Clopper-Pearson lower bound; 100 of 100 gives 0.05^(1/100).
  EXPECT_NEAR(rate_lower_bound(100, 100, 0.95), std::pow(0.05, 0.01), 1e-9);
  EXPECT_EQ(successes_for_bound(40, 0.95, 0.95), 41u);  // 40 experiments cannot show 95%

  DecisionResult r;
  r.bound_confidence = 0.95;
  for (int e = 0; e < 100; ++e) r.upper.push_back(1.0 + 0.001 * e);  // s > u detects
  EXPECT_DOUBLE_EQ(detection_rate(r, 1.0955), 0.96);
  EXPECT_LT(detection_lower_bound(r, 1.0955), 0.95);

  // The MDS is the k-th smallest threshold, not the 95th the point estimate took.
  MdsOptions o = small_grid();
  o.instances = {10};
  o.iterations = {10};
  o.bootstrap_decisions = false;
  const auto grid = simulate_mds(pool(80, 20), o);
  const auto& c = grid[0][Decision::kCompare];
  ASSERT_EQ(c.upper.size(), 100u);
  EXPECT_EQ(c.mds, std::max(1.0, c.upper[k - 1]));
  EXPECT_GE(c.upper[k - 1], c.upper[94]);
}

// A pilot too small for distinct draws: experiments draw instances with replacement, so they do
// not all hold the same instances.
TEST(Mds, FreshDrawsWhenThePilotIsSmall) {
  const Hierarchical small = pool(50, 20), large = pool(200, 20);
  const Configuration config{Selection::kInstance, 25, 10};
  EXPECT_TRUE(fresh_draws(small, config));
  EXPECT_FALSE(fresh_draws(large, config));
  EXPECT_FALSE(fresh_draws(small, {Selection::kInstance, 12, 10}));  // 24 of 50: distinct
  MdsOptions o = small_grid();
  // Which pilot instance each drawn instance came from: its first iteration's value is unique.
  const auto sources = [](const Hierarchical& pilot, const ExperimentSamples& s) {
    std::vector<std::size_t> out;
    for (const Hierarchical* side : {&s.control, &s.test}) {
      for (std::size_t i = 0; i < side->instances(); ++i) {
        const double v = side->instance(i).front();
        for (std::size_t j = 0; j < pilot.instances(); ++j) {
          const auto inst = pilot.instance(j);
          if (std::find(inst.begin(), inst.end(), v) != inst.end()) out.push_back(j);
        }
      }
    }
    return out;
  };
  std::set<std::vector<std::size_t>> sets;
  for (int e = 0; e < 10; ++e) {
    auto drawn = sources(small, simulate_samples(small, config, o, e));
    ASSERT_EQ(drawn.size(), 50u);
    std::sort(drawn.begin(), drawn.end());
    sets.insert(drawn);
    auto distinct = sources(large, simulate_samples(large, config, o, e));
    EXPECT_EQ(std::set<std::size_t>(distinct.begin(), distinct.end()).size(), 50u);
  }
  // Distinct draws of 50 from 50 would give the same set every time.
  EXPECT_EQ(sets.size(), 10u);
  const auto grid = simulate_mds(small, [&] {
    MdsOptions g = o;
    g.instances = {10, 25};
    g.iterations = {10};
    g.experiments = 10;
    return g;
  }());
  EXPECT_FALSE(grid[0].fresh_draws);
  EXPECT_TRUE(grid[1].fresh_draws);
}

TEST(Mds, DetectionRateCountsThresholds) {
  DecisionResult r;
  r.upper = {0.99, 1.02, 1.04, 1.2};
  r.lower = {0.9, 0.95, 0.97, 1.01};
  EXPECT_DOUBLE_EQ(detection_rate(r, 1.0), 0.5);    // 0.99 slower, 1.01 faster
  EXPECT_DOUBLE_EQ(detection_rate(r, 1.02), 0.25);  // strictly above the threshold
  EXPECT_DOUBLE_EQ(detection_rate(r, 1.05), 0.75);
  EXPECT_DOUBLE_EQ(detection_rate(r, 0.96), 0.5);  // called faster
}

}  // namespace
}  // namespace benchguard::stats
