// Tests for src/stats/bootstrap.cpp: estimates, ratios, geometric means.
#include "stats/bootstrap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <span>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"

namespace benchguard::stats {
namespace {

TEST(StatsBootstrap, ConstantDataGivesPointInterval) {
  const auto e = bootstrap(Hierarchical({{2, 2}, {2, 2}, {2, 2}}), {});
  EXPECT_DOUBLE_EQ(e.value, 2.0);
  EXPECT_DOUBLE_EQ(e.ci.lower, 2.0);
  EXPECT_DOUBLE_EQ(e.ci.upper, 2.0);
}

TEST(StatsBootstrap, SingleInstanceWarns) {
  const auto e = bootstrap(Hierarchical({{1, 2, 3, 4}}), {});
  EXPECT_FALSE(e.warnings.empty());
  EXPECT_LT(e.ci.lower, e.ci.upper);  // iteration noise only, but still an interval
  EXPECT_DOUBLE_EQ(e.expansion.scale, 1.0);
}

// One iteration per instance: Hesterberg's one-sample expansion, c^2 = n / (n - 1), df n - 1.
TEST(StatsBootstrap, ExpandedIntervalContainsPercentileInterval) {
  Hierarchical data;
  Rng rng(1, 0);
  for (int i = 0; i < 10; ++i) {
    const double v = rng.lognormal(0.0, 0.1);
    data.add_instance(std::span<const double>(&v, 1));
  }
  BootstrapOptions options;
  options.interval = CiMethod::kPercentile;
  const auto plain = bootstrap(data, options);
  options.interval = CiMethod::kExpandedPercentile;
  const auto expanded = bootstrap(data, options);
  EXPECT_NEAR(plain.tail, 0.025, 1e-15);
  EXPECT_DOUBLE_EQ(expanded.expansion.scale, std::sqrt(10.0 / 9.0));
  EXPECT_DOUBLE_EQ(expanded.expansion.dof, 9.0);
  EXPECT_NEAR(expanded.tail, 0.008550639025807875, 1e-9);
  EXPECT_LT(expanded.ci.lower, plain.ci.lower);
  EXPECT_GT(expanded.ci.upper, plain.ci.upper);
  EXPECT_TRUE(expanded.ci.contains(expanded.value));
}

// Without instance effects the two-stage bootstrap counts iteration noise about twice, so
// the interval is narrowed (c^2 near 1 / (0.9 + 0.95) for 10 x 20).
TEST(StatsBootstrap, NarrowsWhenInstancesAgree) {
  SimulationOptions sim;
  sim.instance_sd = 0.0;
  const auto e = bootstrap(simulate(sim, 6), {});
  EXPECT_GT(e.expansion.scale, 0.6);
  EXPECT_LT(e.expansion.scale, 0.85);
}

// {1,3} {5,7} {2,4}: means 2, 6, 3, grand mean 11/3, d = -5/3, 7/3, -2/3, sum d^2 = 26/3;
// within sums of squares 2 each, 6 in all, over m^2 = 4.
TEST(StatsBootstrap, VarianceTermByHand) {
  const auto t = variance_term(Hierarchical({{1, 3}, {5, 7}, {2, 4}}));
  EXPECT_EQ(t.instances, 3u);
  EXPECT_DOUBLE_EQ(t.variance, 13.0 / 9.0);
  EXPECT_DOUBLE_EQ(t.bootstrap_variance, (26.0 / 3.0 + 1.5) / 9.0);
  const auto r = relative_variance_term(Hierarchical({{1, 3}, {5, 7}, {2, 4}}));
  EXPECT_DOUBLE_EQ(r.variance, 13.0 / 9.0 / (121.0 / 9.0));
}

// bootstrap_variance is what the resamples actually show: exactly in expectation for equal
// instance sizes, to first order for unequal ones.
TEST(StatsBootstrap, BootstrapVarianceMatchesResamples) {
  SimulationOptions sim;
  sim.instances = 8;
  sim.iterations = 6;
  sim.iteration_sd = 0.05;
  const auto balanced = simulate(sim, 7);
  const auto reps = hierarchical_replicates(balanced, Statistic::kMean, 40000, 1);
  EXPECT_NEAR(variance(reps) / variance_term(balanced).bootstrap_variance, 1.0, 0.03);

  const Hierarchical ragged({{1.0, 1.2, 0.9},
                             {1.1},
                             {1.3, 1.25, 1.4, 1.35, 1.2},
                             {0.95, 1.05},
                             {1.1, 1.0, 1.2, 1.15},
                             {1.0, 0.9, 1.05}});
  const auto ragged_reps = hierarchical_replicates(ragged, Statistic::kMean, 40000, 2);
  EXPECT_NEAR(variance(ragged_reps) / variance_term(ragged).bootstrap_variance, 1.0, 0.1);
}

TEST(StatsBootstrap, RatioUsesIndependentDerivedSeeds) {
  const auto a = simulate({}, 1), b = simulate({}, 2);
  const auto s = ratio_sample(a, b, Statistic::kMean, 300, 77);
  const auto ra = hierarchical_replicates(a, Statistic::kMean, 300, derive_seed(77, 0));
  const auto rb = hierarchical_replicates(b, Statistic::kMean, 300, derive_seed(77, 1));
  ASSERT_EQ(s.replicates.size(), 300u);
  for (std::size_t i = 0; i < 300; ++i) EXPECT_DOUBLE_EQ(s.replicates[i], rb[i] / ra[i]);
  EXPECT_DOUBLE_EQ(s.ratio, mean(b.values()) / mean(a.values()));
}

TEST(StatsBootstrap, RatioOfScaledCopy) {
  const auto a = simulate({}, 4);
  const auto e = bootstrap_ratio(a, scaled(a, 1.1), {});
  EXPECT_DOUBLE_EQ(e.value, 1.1);
  EXPECT_TRUE(e.ci.contains(1.1));
  EXPECT_LT(e.ci.lower, 1.1);  // independent resamples of the two sides
  EXPECT_GT(e.ci.upper, 1.1);
}

TEST(StatsBootstrap, RatioWithZeroDenominatorIsInfinite) {
  const auto s = ratio_sample(Hierarchical({{0, 0}, {0, 0}}), Hierarchical({{1, 2}, {3, 4}}),
                              Statistic::kMean, 10, 1);
  EXPECT_TRUE(std::isinf(s.ratio));
  for (double r : s.replicates) EXPECT_TRUE(std::isinf(r));
}

TEST(StatsBootstrap, GeomeanCombinesPerBenchmarkReplicates) {
  const std::vector<Hierarchical> a{simulate({}, 1), simulate({}, 2)};
  const std::vector<Hierarchical> b{scaled(a[0], 1.2), scaled(a[1], 1.0 / 1.2)};
  BootstrapOptions options;
  options.resamples = 500;
  options.seed = 9;
  const auto g = bootstrap_geomean_ratio(a, b, options);
  EXPECT_NEAR(g.value, 1.0, 1e-12);
  EXPECT_TRUE(g.ci.contains(1.0));

  std::vector<double> combined(500);
  const auto s0 = ratio_sample(a[0], b[0], Statistic::kMean, 500, derive_seed(9, 0));
  const auto s1 = ratio_sample(a[1], b[1], Statistic::kMean, 500, derive_seed(9, 1));
  for (int i = 0; i < 500; ++i) combined[i] = std::sqrt(s0.replicates[i] * s1.replicates[i]);
  const VarianceTerm terms[] = {s0.a, s0.b, s1.a, s1.b};
  const auto expected =
      percentile_interval(combined, tail_probability(0.95, combined_expansion(terms)));
  EXPECT_NEAR(g.ci.lower, expected.lower, 1e-12);
  EXPECT_NEAR(g.ci.upper, expected.upper, 1e-12);
}

TEST(StatsBootstrap, GeomeanRejectsNonPositiveRatios) {
  const std::vector<Hierarchical> a{Hierarchical({{1, 2}, {3, 4}})};
  const std::vector<Hierarchical> b{Hierarchical({{-1, -2}, {-3, -4}})};
  const auto g = bootstrap_geomean_ratio(a, b, {});
  EXPECT_TRUE(std::isnan(g.value));
  EXPECT_FALSE(g.warnings.empty());
}

TEST(StatsBootstrap, JackknifeOfTheTrimmedMeanIsTheClusterVarianceWhenNothingIsTrimmed) {
  // 4 instances x 2 iterations: 10% of 8 values rounds down to no cut, so the trimmed mean is
  // the mean, and the delete-one-instance jackknife of the mean of equal instances is exactly
  // the variance of the instance means over n.
  const Hierarchical data({{1.0, 1.2}, {1.5, 1.1}, {0.9, 1.0}, {1.4, 1.6}});
  const VarianceTerm mean_term = variance_term(data, Statistic::kMean);
  const VarianceTerm trimmed_term = variance_term(data, Statistic::kTrimmedMean);
  EXPECT_NEAR(trimmed_term.variance, mean_term.variance, 1e-12);
  EXPECT_EQ(trimmed_term.instances, 4u);
  EXPECT_NEAR(relative_variance_term(data, Statistic::kTrimmedMean).variance,
              relative_variance_term(data, Statistic::kMean).variance, 1e-12);
  // By hand: instance means 1.1, 1.3, 0.95, 1.5; their variance 0.057292 / 4.
  EXPECT_NEAR(mean_term.variance, 0.0572916667 / 4.0, 1e-9);
}

TEST(StatsBootstrap, RobustMeanTermsAreTheMeansWithoutSpikes) {
  const Hierarchical data({{1.0, 1.01, 0.99, 1.0, 12.0}, {1.1, 1.11, 1.09, 1.1, 1.1}});
  const Hierarchical clean({{1.0, 1.01, 0.99, 1.0}, {1.1, 1.11, 1.09, 1.1, 1.1}});
  EXPECT_DOUBLE_EQ(variance_term(data, Statistic::kRobustMean).variance,
                   variance_term(clean, Statistic::kMean).variance);
  EXPECT_DOUBLE_EQ(statistic_of(data, Statistic::kRobustMean), mean(clean.values()));
}

// The median's terms are the mean's terms of its influence values 1{x > median} / f.
// {1, 2, 3, 4} and {5, 6, 7, 8}: median 4.5; Hall-Sheather h at n = 8 is
// 8^(-1/3) 1.96^(2/3) (1.5 phi(0)^2)^(1/3) = 0.4855, and f = 2h / (Q(0.5 + h) - Q(0.5 - h)).
// Instance means of the influence values 0 and 1/f, d = -+0.5/f: variance 0.25/f^2 and
// bootstrap variance (0.5/f^2 + 0) / 4.
TEST(StatsBootstrap, MedianTermsAreThoseOfItsInfluenceValues) {
  const double z = 1.959963984540054, phi0 = 0.3989422804014327;
  const double h =
      std::pow(8.0, -1.0 / 3.0) * std::pow(z, 2.0 / 3.0) * std::cbrt(1.5 * phi0 * phi0);
  const double q_hi = 1.0 + 7.0 * (0.5 + h), q_lo = 1.0 + 7.0 * (0.5 - h);  // type 7 on 1..8
  const double f = 2.0 * h / (q_hi - q_lo);
  const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_NEAR(density_at_median(sorted), f, 1e-12);
  const auto t = variance_term(Hierarchical({{1, 2, 3, 4}, {5, 6, 7, 8}}), Statistic::kMedian);
  EXPECT_NEAR(t.variance, 0.25 / (f * f), 1e-12);
  EXPECT_NEAR(t.bootstrap_variance, 0.125 / (f * f), 1e-12);
  const auto r =
      relative_variance_term(Hierarchical({{1, 2, 3, 4}, {5, 6, 7, 8}}), Statistic::kMedian);
  EXPECT_NEAR(r.variance, 0.25 / (f * f * 4.5 * 4.5), 1e-12);
  // Beyond the bandwidth's quantiles (here 0.22 and 0.78 of 40 values) a spike changes nothing.
  std::vector<double> low(20), high(20);
  std::iota(low.begin(), low.end(), 1.0);
  std::iota(high.begin(), high.end(), 21.0);
  const auto clean = variance_term(Hierarchical({low, high}), Statistic::kMedian);
  high.back() *= 12.0;
  const auto spiked = variance_term(Hierarchical({low, high}), Statistic::kMedian);
  EXPECT_GT(clean.variance, 0.0);
  EXPECT_DOUBLE_EQ(spiked.variance, clean.variance);
  EXPECT_DOUBLE_EQ(spiked.bootstrap_variance, clean.bootstrap_variance);
}

// ratio_sample finds a side's spikes once; what it gives is the mean's sample of the data
// without them, the resampling method still chosen on the data as measured.
TEST(StatsBootstrap, RobustRatioSampleIsTheMeansWithoutSpikes) {
  SimulationOptions sim;
  sim.outlier_probability = 0.02;
  sim.outlier_factor = 12.0;
  const auto a = simulate(sim, 31), b = simulate(sim, 32);
  const auto robust = ratio_sample(a, b, Statistic::kRobustMean, 300, 7);
  const auto clean = ratio_sample(without_spikes(a), without_spikes(b), Statistic::kMean, 300, 7);
  EXPECT_DOUBLE_EQ(robust.ratio, clean.ratio);
  EXPECT_DOUBLE_EQ(robust.a.variance, clean.a.variance);
  EXPECT_DOUBLE_EQ(robust.b.variance, clean.b.variance);
  ASSERT_EQ(robust.replicates.size(), 300u);
  EXPECT_EQ(robust.replicates, clean.replicates);
  EXPECT_NE(robust.ratio, ratio_sample(a, b, Statistic::kMean, 300, 7).ratio);
}

// One sample under the t interval: its value +- t_{n-1, 0.975} sqrt(cluster variance).
TEST(StatsBootstrap, OneSampleTIntervalIsStudentsOnInstanceMeans) {
  // Instance means 1.1, 1.3, 0.95, 1.5 (mean 1.2125): variance of the mean 0.0572917 / 4,
  // t_{3, 0.975} = 3.182446 (table).
  const Hierarchical data({{1.0, 1.2}, {1.5, 1.1}, {0.9, 1.0}, {1.4, 1.6}});
  BootstrapOptions o;
  o.interval = CiMethod::kStudentT;
  const auto e = bootstrap(data, o);
  const double half = 3.182446 * std::sqrt(0.0572916667 / 4.0);
  EXPECT_NEAR(e.value, 1.2125, 1e-12);
  EXPECT_NEAR(e.ci.lower, 1.2125 - half, 1e-5);
  EXPECT_NEAR(e.ci.upper, 1.2125 + half, 1e-5);
  EXPECT_NEAR(e.expansion.dof, 3.0, 1e-12);
}

}  // namespace
}  // namespace benchguard::stats
