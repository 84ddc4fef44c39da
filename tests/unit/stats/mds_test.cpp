// The MDS simulation (src/stats/mds.hpp) on synthetic data whose variance components are known:
// instance offsets with a 3% log-sd, iteration noise with 5%.
#include "stats/mds.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/simulate.hpp"
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
