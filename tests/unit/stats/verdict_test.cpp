// Tests for src/stats/verdict.cpp.
#include "stats/verdict.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "stats/rng.hpp"
#include "stats/simulate.hpp"

namespace benchguard::stats {
namespace {

constexpr auto kLower = Direction::kLowerIsBetter;
constexpr auto kHigher = Direction::kHigherIsBetter;

TEST(StatsVerdict, ClassifyRules) {
  // A real change beyond the 1% threshold.
  EXPECT_EQ(classify(1.05, {1.02, 1.08}, 0.01, kLower), Verdict::kSlower);
  EXPECT_EQ(classify(1.05, {1.02, 1.08}, 0.01, kHigher), Verdict::kFaster);
  EXPECT_EQ(classify(0.95, {0.92, 0.98}, 0.01, kLower), Verdict::kFaster);
  EXPECT_EQ(classify(0.95, {0.92, 0.98}, 0.01, kHigher), Verdict::kSlower);
  // Within the threshold at the stated confidence, whether or not 1 is inside.
  EXPECT_EQ(classify(1.003, {0.995, 1.009}, 0.01, kLower), Verdict::kUnchanged);
  EXPECT_EQ(classify(1.005, {1.001, 1.009}, 0.01, kLower), Verdict::kUnchanged);
  EXPECT_EQ(classify(0.995, {0.99, 1.01}, 0.01, kLower), Verdict::kUnchanged);
  // Real but possibly below the threshold: the interval straddles 1 + t.
  EXPECT_EQ(classify(1.008, {1.002, 1.014}, 0.01, kLower), Verdict::kInconclusive);
  // Too wide to tell.
  EXPECT_EQ(classify(1.02, {0.99, 1.05}, 0.01, kLower), Verdict::kInconclusive);
  // The interval excludes 1 but the estimate is within the threshold.
  EXPECT_EQ(classify(1.009, {1.001, 1.02}, 0.01, kLower), Verdict::kInconclusive);
  // A larger threshold turns a slowdown into a non-verdict.
  EXPECT_EQ(classify(1.05, {1.02, 1.08}, 0.10, kLower), Verdict::kUnchanged);
  EXPECT_EQ(classify(1.05, {1.02, 1.12}, 0.10, kLower), Verdict::kInconclusive);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(classify(nan, {0.9, 1.1}, 0.01, kLower), Verdict::kInconclusive);
  EXPECT_EQ(classify(1.5, {1.2, std::numeric_limits<double>::infinity()}, 0.01, kLower),
            Verdict::kInconclusive);
  EXPECT_STREQ(to_string(Verdict::kSlower), "slower");
  EXPECT_STREQ(to_string(Verdict::kInconclusive), "inconclusive");
}

VerdictOptions quick(uint64_t seed = 1) {
  VerdictOptions o;
  o.resamples = 2000;
  o.seed = seed;
  return o;
}

TEST(StatsVerdict, ClearSlowdownIsSlowerOrFasterByDirection) {
  SimulationOptions sim;
  const auto a = simulate(sim, 1);
  sim.slowdown = 1.2;
  const auto b = simulate(sim, 2);
  const auto c = compare(a, b, quick());
  EXPECT_EQ(c.verdict, Verdict::kSlower);
  EXPECT_GT(c.ratio.ci.lower, 1.1);
  EXPECT_NEAR(c.ratio.value, c.mean_b / c.mean_a, 1e-12);
  // 10 vs 10 instance means, completely separated: exact p = 2 / C(20, 10).
  EXPECT_TRUE(c.instance_test.exact);
  EXPECT_NEAR(c.p_value, 2.0 / 184756.0, 1e-12);
  EXPECT_LT(c.p_value_bootstrap, 0.001);

  auto throughput = quick();
  throughput.direction = kHigher;
  EXPECT_EQ(compare(a, b, throughput).verdict, Verdict::kFaster);
  EXPECT_EQ(compare(b, a, throughput).verdict, Verdict::kSlower);
}

TEST(StatsVerdict, QuietEqualSamplesAreUnchanged) {
  SimulationOptions sim;
  sim.instance_sd = 0.002;
  sim.iteration_sd = 0.002;
  const auto c = compare(simulate(sim, 1), simulate(sim, 2), quick());
  EXPECT_EQ(c.verdict, Verdict::kUnchanged);
  EXPECT_GT(c.ratio.ci.lower, 0.99);
  EXPECT_LT(c.ratio.ci.upper, 1.01);
}

TEST(StatsVerdict, MedianStatistic) {
  SimulationOptions sim;
  const auto a = simulate(sim, 1);
  auto options = quick();
  options.statistic = Statistic::kMedian;
  const auto c = compare(a, scaled(a, 1.2), options);
  EXPECT_NEAR(c.ratio.value, 1.2, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::kSlower);
}

TEST(StatsVerdict, OneInstanceASideIsInconclusiveWithAReason) {
  // One instance each, 20 iterations 10% apart: the interval is narrow (iteration noise only),
  // but nothing shows how the next instance would differ. No slower, however narrow.
  std::vector<double> xa, xb;
  for (int j = 0; j < 20; ++j) {
    xa.push_back(1.0 + 0.001 * j);
    xb.push_back(1.1 + 0.001 * j);
  }
  const Hierarchical a({xa}), b({xb});
  VerdictOptions o;
  o.resamples = 2000;
  const auto c = compare(a, b, o);
  EXPECT_GT(c.ratio.ci.lower, 1.05);  // what used to be called slower
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.front().find("1 instance per side"), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings.front().find("--instances 5"), std::string::npos);
  // One instance against five: still no verdict, and the counts are named.
  const Hierarchical five({xb, xb, xb, xb, xb});
  const auto d = compare(a, five, o);
  EXPECT_EQ(d.verdict, Verdict::kInconclusive);
  EXPECT_NE(d.warnings.front().find("1 instance of A and 5 of B"), std::string::npos)
      << d.warnings[0];
  // The same data as three instances a side gets a verdict.
  auto shifted = [](std::vector<double> x, double by) {
    for (double& v : x) v += by;
    return x;
  };
  const Hierarchical a2({xa, shifted(xa, 0.01), shifted(xa, -0.01)});
  const Hierarchical b2({xb, shifted(xb, 0.01), shifted(xb, -0.01)});
  EXPECT_EQ(compare(a2, b2, o).verdict, Verdict::kSlower);
}

TEST(StatsVerdict, TheSameConstantOnBothSidesIsUnchanged) {
  // 0 allocs/op before and after: 0 / 0 is no change.
  const Hierarchical zeros({{0.0}, {0.0}, {0.0}}), more_zeros({{0.0}, {0.0}});
  VerdictOptions o;
  o.resamples = 500;
  const auto c = compare(zeros, more_zeros, o);
  EXPECT_EQ(c.verdict, Verdict::kUnchanged);
  EXPECT_EQ(c.ratio.value, 1.0);
  // Different constants are a change.
  const Hierarchical ones({{1.0}, {1.0}, {1.0}}), twos({{2.0}, {2.0}, {2.0}});
  EXPECT_EQ(compare(ones, twos, o).verdict, Verdict::kSlower);
}

TEST(StatsVerdict, WarnsWhenUTestCannotReachSignificance) {
  const Hierarchical a({{1, 1.1}, {1.2, 1.1}, {1, 1.05}});
  const Hierarchical b({{2, 2.1}, {2.2, 2.1}, {2, 2.05}});
  const auto c = compare(a, b, quick());
  EXPECT_NEAR(c.p_value, 0.1, 1e-12);  // the floor for 3 vs 3
  bool warned = false;
  for (const auto& w : c.warnings) warned |= w.find("cannot fall below") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(StatsVerdict, FamilyOfOneMatchesSingleComparison) {
  SimulationOptions sim;
  const std::vector<Hierarchical> a{simulate(sim, 1)};
  sim.slowdown = 1.03;
  const std::vector<Hierarchical> b{simulate(sim, 2)};
  const auto options = quick(42);
  const auto set = compare_all(a, b, options);
  const auto single = compare(a[0], b[0], quick(derive_seed(42, 0)));
  ASSERT_EQ(set.benchmarks.size(), 1u);
  const auto& c = set.benchmarks[0];
  EXPECT_EQ(c.verdict, single.verdict);
  EXPECT_EQ(c.ratio.ci.lower, single.ratio.ci.lower);
  EXPECT_EQ(c.ratio.ci.upper, single.ratio.ci.upper);
  EXPECT_EQ(c.p_value_adjusted, single.p_value);
  EXPECT_EQ(c.p_value_bootstrap_adjusted, single.p_value_bootstrap);
}

// A 4% slowdown that is significant on its own (p about 0.012) but not among 20 benchmarks:
// Holm multiplies the smallest p-value by 20.
TEST(StatsVerdict, HolmGatesVerdictAcrossFamily) {
  SimulationOptions sim;
  std::vector<Hierarchical> a{simulate(sim, 500, 0)}, b;
  sim.slowdown = 1.04;
  b.push_back(simulate(sim, 500, 1));
  sim.slowdown = 1.0;
  for (uint64_t k = 1; k < 20; ++k) {
    a.push_back(simulate(sim, 600 + k, 0));
    b.push_back(simulate(sim, 600 + k, 1));
  }
  auto options = quick(3);
  const auto alone = compare(a[0], b[0], quick(derive_seed(3, 0)));
  ASSERT_EQ(alone.verdict, Verdict::kSlower);
  ASSERT_GT(alone.p_value_bootstrap, 0.05 / 19);
  ASSERT_LT(alone.p_value_bootstrap, 0.05);

  const auto gated = compare_all(a, b, options);
  EXPECT_EQ(gated.benchmarks[0].p_value_bootstrap, alone.p_value_bootstrap);
  EXPECT_GE(gated.benchmarks[0].p_value_bootstrap_adjusted, 0.05);
  EXPECT_GE(gated.benchmarks[0].p_value_adjusted, gated.benchmarks[0].p_value);
  EXPECT_EQ(gated.benchmarks[0].verdict, Verdict::kInconclusive);
  EXPECT_FALSE(gated.benchmarks[0].warnings.empty());

  options.holm_gates_verdict = false;
  const auto ungated = compare_all(a, b, options);
  EXPECT_EQ(ungated.benchmarks[0].verdict, Verdict::kSlower);
  EXPECT_EQ(ungated.benchmarks[0].p_value_bootstrap_adjusted,
            gated.benchmarks[0].p_value_bootstrap_adjusted);
}

TEST(StatsVerdict, GeomeanMatchesStandaloneBootstrap) {
  SimulationOptions sim;
  std::vector<Hierarchical> a, b;
  for (uint64_t k = 0; k < 3; ++k) {
    sim.slowdown = 1.0;
    a.push_back(simulate(sim, 10 + k));
    sim.slowdown = 1.0 + 0.05 * static_cast<double>(k);
    b.push_back(simulate(sim, 20 + k));
  }
  const auto options = quick(5);
  const auto set = compare_all(a, b, options);
  BootstrapOptions boot;
  boot.resamples = options.resamples;
  boot.seed = options.seed;
  boot.statistic = options.statistic;
  boot.interval = interval_of(options);
  const auto g = bootstrap_geomean_ratio(a, b, boot);
  EXPECT_DOUBLE_EQ(set.geomean.value, g.value);
  EXPECT_DOUBLE_EQ(set.geomean.ci.lower, g.ci.lower);
  EXPECT_DOUBLE_EQ(set.geomean.ci.upper, g.ci.upper);
  double product = 1.0;
  for (const auto& c : set.benchmarks) product *= c.ratio.value;
  EXPECT_NEAR(g.value, std::cbrt(product), 1e-12);
}

// The t interval's verdict reads the ratio and the variance terms, never the replicates: drawn
// or not, every figure is the same. A bootstrap interval reads them, so they are drawn.
TEST(StatsVerdict, TheTIntervalReadsNoReplicates) {
  auto options = quick(7);
  EXPECT_EQ(verdict_resamples(options), 0);
  for (const auto statistic : {Statistic::kMean, Statistic::kTrimmedMean}) {
    options.statistic = statistic;
    EXPECT_EQ(verdict_resamples(options), 0);
  }
  options.statistic = Statistic::kMedian;  // always the expanded percentile interval
  EXPECT_EQ(verdict_resamples(options), 2000);
  options.statistic = Statistic::kRobustMean;
  options.interval = CiMethod::kPercentile;
  EXPECT_EQ(verdict_resamples(options), 2000);
  options.interval = CiMethod::kStudentT;

  SimulationOptions sim;
  std::vector<Hierarchical> a, b;
  std::vector<RatioSample> drawn;
  for (uint64_t k = 0; k < 4; ++k) {
    a.push_back(simulate(sim, 30 + k));
    sim.slowdown = 1.0 + 0.02 * static_cast<double>(k);
    b.push_back(simulate(sim, 40 + k));
    sim.slowdown = 1.0;
    drawn.push_back(ratio_sample(a[k], b[k], options.statistic, options.resamples,
                                 derive_seed(options.seed, k)));
    ASSERT_EQ(drawn.back().replicates.size(), 2000u);
  }
  const auto without = compare_all(a, b, options);
  const auto with = compare_samples(a, b, drawn, options);
  ASSERT_EQ(without.benchmarks.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& x = without.benchmarks[k];
    const auto& y = with.benchmarks[k];
    EXPECT_EQ(x.verdict, y.verdict);
    EXPECT_EQ(x.ratio.value, y.ratio.value);
    EXPECT_EQ(x.ratio.ci.lower, y.ratio.ci.lower);
    EXPECT_EQ(x.ratio.ci.upper, y.ratio.ci.upper);
    EXPECT_EQ(x.ratio.method, y.ratio.method);
    EXPECT_EQ(x.p_value_bootstrap_adjusted, y.p_value_bootstrap_adjusted);
    EXPECT_EQ(x.warnings, y.warnings);
  }
  EXPECT_EQ(without.geomean.value, with.geomean.value);
  EXPECT_EQ(without.geomean.ci.lower, with.geomean.ci.lower);
  EXPECT_EQ(without.geomean.ci.upper, with.geomean.ci.upper);
  EXPECT_TRUE(std::isfinite(without.geomean.ci.lower));
}

// A side of one value per instance, one of them 0: some resamples of it are all 0, so some
// replicates are infinite while the ratio is 5/3. The t interval of the geometric mean does not
// read them; a bootstrap interval cannot be read from them and is refused.
TEST(StatsVerdict, GeomeanUnderTheTIntervalNeedsPositiveRatiosOnly) {
  const std::vector<Hierarchical> a{Hierarchical({{0.0}, {1.0}, {0.0}, {0.5}, {0.0}}),
                                    Hierarchical({{1.0}, {1.1}, {0.9}})};
  const std::vector<Hierarchical> b{Hierarchical({{0.6}, {0.4}, {0.5}, {0.5}, {0.5}}),
                                    Hierarchical({{1.0}, {1.1}, {0.9}})};
  auto options = quick(11);
  options.statistic = Statistic::kMean;
  std::vector<RatioSample> drawn;
  for (std::size_t k = 0; k < a.size(); ++k)
    drawn.push_back(ratio_sample(a[k], b[k], options.statistic, options.resamples,
                                 derive_seed(options.seed, k)));
  ASSERT_TRUE(std::any_of(drawn[0].replicates.begin(), drawn[0].replicates.end(),
                          [](double r) { return std::isinf(r); }));
  const auto t = compare_samples(a, b, drawn, options);
  EXPECT_TRUE(t.geomean.warnings.empty());
  EXPECT_NEAR(t.geomean.value, std::sqrt((0.5 / 0.3) * 1.0), 1e-12);
  EXPECT_TRUE(std::isfinite(t.geomean.ci.lower) && std::isfinite(t.geomean.ci.upper));
  EXPECT_LT(t.geomean.ci.lower, t.geomean.value);
  EXPECT_GT(t.geomean.ci.upper, t.geomean.value);

  options.interval = CiMethod::kPercentile;
  const auto percentile = compare_samples(a, b, drawn, options);
  EXPECT_FALSE(percentile.geomean.warnings.empty());
  EXPECT_TRUE(std::isnan(percentile.geomean.value));
}

// What the dashboard's heat map shows: P(worse by more than the threshold), from the
// distribution the verdict's interval comes from. Under the t interval, a threshold at the
// interval's lower end (upper, for higher-is-better) gives 1 - alpha / 2 exactly, and the
// verdict says slower where the probability passes a half and the interval leaves 1.
TEST(StatsVerdict, ProbabilityBeyondReadsTheIntervalsDistribution) {
  SimulationOptions sim;
  const Hierarchical a = simulate(sim, 61);
  sim.slowdown = 1.08;
  const Hierarchical b = simulate(sim, 62);
  const auto options = quick(13);
  const RatioSample drawn = ratio_sample(a, b, options.statistic, 4000, 5);
  const Estimate e = ratio_estimate(drawn, 0.95, CiMethod::kStudentT);
  ASSERT_GT(e.ci.lower, 1.0);
  EXPECT_NEAR(probability_beyond(drawn, e.ci.lower - 1.0, kLower, CiMethod::kStudentT), 0.975,
              1e-9);
  EXPECT_NEAR(probability_beyond(drawn, e.ci.upper - 1.0, kLower, CiMethod::kStudentT), 0.025,
              1e-9);
  EXPECT_NEAR(probability_beyond(drawn, drawn.ratio - 1.0, kLower, CiMethod::kStudentT), 0.5, 1e-9);
  // Higher is better: worse is below 1 / (1 + threshold).
  const RatioSample flipped = ratio_sample(b, a, options.statistic, 0, 5);
  const Estimate f = ratio_estimate(flipped, 0.95, CiMethod::kStudentT);
  EXPECT_NEAR(probability_beyond(flipped, 1.0 / f.ci.upper - 1.0, kHigher, CiMethod::kStudentT),
              0.975, 1e-9);
  const Comparison c = compare(a, b, options);
  ASSERT_EQ(c.verdict, Verdict::kSlower);
  EXPECT_GT(probability_beyond(drawn, options.threshold, kLower, CiMethod::kStudentT), 0.5);

  // A bootstrap interval: the share of the replicates beyond.
  std::size_t beyond = 0;
  for (const double r : drawn.replicates) beyond += r > 1.05 ? 1 : 0;
  EXPECT_DOUBLE_EQ(probability_beyond(drawn, 0.05, kLower, CiMethod::kPercentile),
                   static_cast<double>(beyond) / 4000.0);
  EXPECT_TRUE(std::isnan(probability_beyond(flipped, 0.05, kLower, CiMethod::kPercentile)));
  RatioSample nothing;
  EXPECT_TRUE(std::isnan(probability_beyond(nothing, 0.05, kLower, CiMethod::kStudentT)));
}

// Why the heat map reads the t distribution: under A/A (3 instances a side, as a nightly run
// has), a cell of P(B/A > 1) passes 0.975 in about 2.5% of pairs when read from it, as it must;
// read from 1,000 bootstrap replicates, whose resampled means of 3 instances take 10 values
// and spread (n - 1) / n as widely as the instances, it passes far more often. 4,000 pairs:
// the binomial standard error at 2.5% is 0.25%.
TEST(StatsVerdict, HeatCellsUnderAAAreCalibratedOnlyFromTheTDistribution) {
  constexpr int kPairs = 4000;
  SimulationOptions sim;
  sim.instances = 3;
  sim.iterations = 1;
  int t_alarms = 0, bootstrap_alarms = 0;
  for (int k = 0; k < kPairs; ++k) {
    const auto seed = static_cast<uint64_t>(k);
    const Hierarchical a = simulate(sim, 900, 2 * seed), b = simulate(sim, 900, 2 * seed + 1);
    const RatioSample t = ratio_sample(a, b, Statistic::kRobustMean, 0, seed);
    const RatioSample drawn = ratio_sample(a, b, Statistic::kRobustMean, 1000, seed);
    if (probability_beyond(t, 0.0, kLower, CiMethod::kStudentT) > 0.975) ++t_alarms;
    if (probability_beyond(drawn, 0.0, kLower, CiMethod::kPercentile) > 0.975) ++bootstrap_alarms;
  }
  const double t_rate = static_cast<double>(t_alarms) / kPairs;
  const double bootstrap_rate = static_cast<double>(bootstrap_alarms) / kPairs;
  std::cout << "A/A cells above 0.975: t " << t_rate << ", bootstrap " << bootstrap_rate << "\n";
  EXPECT_GT(t_rate, 0.015);
  EXPECT_LT(t_rate, 0.035);
  EXPECT_GT(bootstrap_rate, 2 * t_rate);
}

TEST(StatsVerdict, MismatchedFamiliesAreRejected) {
  const std::vector<Hierarchical> a{simulate({}, 1)}, b;
  const auto set = compare_all(a, b, quick());
  EXPECT_TRUE(set.benchmarks.empty());
  EXPECT_FALSE(set.geomean.warnings.empty());
}

}  // namespace
}  // namespace benchguard::stats
