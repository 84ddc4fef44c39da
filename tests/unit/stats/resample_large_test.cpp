// Tests for src/stats/resample_large.cpp: the large-sample bootstrap methods against the full
// hierarchical bootstrap (same data, interval ends), their coverage, and the A/A false-alarm
// rate of the verdict built on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/confidence.hpp"
#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/rng.hpp"
#include "stats/verdict.hpp"

namespace benchguard::stats {
namespace {

// n instances of m iterations: instance effect exp(N(0, between)), iteration noise lognormal
// with sigma `within`, and a 2% share of 1.5x spikes. The population mean of an iteration is
// exp(between^2 / 2) * exp(within^2 / 2) * (1 + 0.02 * 0.5).
Hierarchical sample(Rng& rng, std::size_t n, std::size_t m, double between, double within) {
  Hierarchical data;
  std::vector<double> inst(m);
  for (std::size_t k = 0; k < n; ++k) {
    const double level = rng.lognormal(0.0, between);
    for (auto& x : inst)
      x = level * rng.lognormal(0.0, within) * (rng.uniform() < 0.02 ? 1.5 : 1.0);
    data.add_instance(inst);
  }
  return data;
}

double population_mean(double between, double within) {
  return std::exp(between * between / 2) * std::exp(within * within / 2) * 1.01;
}

TEST(StatsResampleLarge, MethodByTheSizeOfTheSample) {
  Rng rng(1, 0);
  EXPECT_EQ(choose_resample_method(sample(rng, 10, 2000, 0.01, 0.01)), ResampleMethod::kFull);
  EXPECT_EQ(choose_resample_method(sample(rng, 10, 2001, 0.01, 0.01)),
            ResampleMethod::kNormalWithin);
  EXPECT_EQ(choose_resample_method(sample(rng, 1001, 21, 0.01, 0.01)), ResampleMethod::kNormal);
  EXPECT_EQ(bootstrap_replicates(sample(rng, 10, 3000, 0.01, 0.01), Statistic::kMean, 10, 1).method,
            ResampleMethod::kNormalWithin);
}

// Instances whose iterations are all equal have no inner spread, so a kNormalWithin replicate
// is exactly the statistic of the drawn instances pooled: the same instance draws as the full
// bootstrap (Rng(seed, b), n draws of below(n)) give the same pooled values.
TEST(StatsResampleLarge, WithoutInnerSpreadTheMixtureIsExact) {
  const std::vector<std::vector<double>> raw{
      std::vector<double>(5, 3.0), std::vector<double>(2, 1.0), std::vector<double>(7, 2.0),
      std::vector<double>(1, 9.0), std::vector<double>(4, 2.0), std::vector<double>(3, 0.5)};
  const Hierarchical data(raw);
  for (const auto statistic : {Statistic::kMean, Statistic::kMedian, Statistic::kTrimmedMean}) {
    const auto reps = replicates_by(data, statistic, 200, 5, ResampleMethod::kNormalWithin);
    ASSERT_EQ(reps.size(), 200u);
    for (uint64_t b = 0; b < 200; ++b) {
      Rng rng(5, b);
      Hierarchical drawn;
      for (std::size_t k = 0; k < raw.size(); ++k)
        drawn.add_instance(raw[rng.below(static_cast<uint32_t>(raw.size()))]);
      EXPECT_NEAR(reps[b], statistic_of(drawn, statistic), 1e-12)
          << to_string(statistic) << ", resample " << b;
    }
  }
}

TEST(StatsResampleLarge, SameSeedSameReplicates) {
  Rng rng(2, 0);
  const auto data = sample(rng, 12, 3000, 0.02, 0.05);
  for (const auto method : {ResampleMethod::kNormalWithin, ResampleMethod::kNormal})
    for (const auto statistic : {Statistic::kMean, Statistic::kMedian, Statistic::kTrimmedMean})
      EXPECT_EQ(replicates_by(data, statistic, 300, 9, method),
                replicates_by(data, statistic, 300, 9, method));
}

// The interval ends of each method against the full bootstrap of the same sample, as a share
// of the full bootstrap's half-width, worst over samples and statistics. With 20,000
// replicates a percentile end of the full bootstrap itself moves by about 1.5% of the
// half-width from one seed to another, so that is the scale of agreement to expect.
TEST(StatsResampleLarge, IntervalEndsAgreeWithTheFullBootstrap) {
  constexpr int kResamples = 20000;
  double worst_within = 0.0, worst_value = 0.0;
  Rng rng(3, 0);
  struct Shape {
    std::size_t n, m;
    double between, within;
  };
  // Instance differences larger than, equal to and far smaller than the iteration noise.
  for (const Shape s :
       {Shape{10, 1000, 0.03, 0.05}, Shape{8, 1500, 0.002, 0.1}, Shape{20, 500, 0.0, 0.05}}) {
    const auto data = sample(rng, s.n, s.m, s.between, s.within);
    for (const auto statistic : {Statistic::kMean, Statistic::kMedian, Statistic::kTrimmedMean}) {
      const auto full =
          percentile_interval(hierarchical_replicates(data, statistic, kResamples, 4), 0.025);
      const auto approx = percentile_interval(
          replicates_by(data, statistic, kResamples, 4, ResampleMethod::kNormalWithin), 0.025);
      const double half = (full.upper - full.lower) / 2;
      const double centre = statistic_of(data, statistic);
      for (const auto& [f, a] : {std::pair{full.lower, approx.lower}, {full.upper, approx.upper}}) {
        worst_within = std::max(worst_within, std::fabs(f - a) / half);
        worst_value = std::max(worst_value, std::fabs(f - a) / centre);
      }
      std::printf("  n %zu m %zu %-12s full [%.6f, %.6f] within [%.6f, %.6f]\n", s.n, s.m,
                  to_string(statistic), full.lower, full.upper, approx.lower, approx.upper);
    }
  }
  std::printf("  worst end difference: %.2f%% of the half-width, %.4f%% of the value\n",
              100 * worst_within, 100 * worst_value);
  EXPECT_LT(worst_value, 0.01);
  EXPECT_LT(worst_within, 0.10);
}

// Coverage of the population mean by the 95% expanded percentile interval when the sample is
// large enough for kNormalWithin (10 instances of 2,500 iterations), and of the mean by kNormal
// (2,000 instances of 11). 600 samples each: a 95% coverage lands in [93.2%, 96.8%] with
// probability 0.99 (binomial sd 0.9%).
TEST(StatsResampleLarge, CoverageIsNominal) {
  constexpr int kTrials = 600;
  constexpr double kBetween = 0.03, kWithin = 0.05;
  const double truth = population_mean(kBetween, kWithin);
  BootstrapOptions options;
  options.resamples = 1000;
  int covered_within = 0, covered_normal = 0;
  Rng rng(4, 0);
  for (int t = 0; t < kTrials; ++t) {
    options.seed = static_cast<uint64_t>(t);
    const auto large = sample(rng, 10, 2500, kBetween, kWithin);
    const auto e = bootstrap(large, options);
    ASSERT_EQ(e.method, ResampleMethod::kNormalWithin);
    covered_within += e.ci.contains(truth) ? 1 : 0;
    const auto many = sample(rng, 2000, 11, kBetween, kWithin);
    const auto f = bootstrap(many, options);
    ASSERT_EQ(f.method, ResampleMethod::kNormal);
    covered_normal += f.ci.contains(truth) ? 1 : 0;
  }
  const double within = static_cast<double>(covered_within) / kTrials;
  const double normal = static_cast<double>(covered_normal) / kTrials;
  std::printf("  coverage: normal within instances %.1f%%, normal %.1f%%\n", 100 * within,
              100 * normal);
  EXPECT_GT(within, 0.932);
  EXPECT_LT(within, 0.968);
  EXPECT_GT(normal, 0.932);
  EXPECT_LT(normal, 0.968);
}

// A against A of the same distribution, large samples, trimmed means (compare's default): how
// often the verdict says slower or faster with no threshold. 400 pairs: 5% lands below 7.6%
// with probability 0.99.
TEST(StatsResampleLarge, AAFalseAlarmsStayAtTheLevel) {
  constexpr int kTrials = 400;
  VerdictOptions options;
  options.threshold = 0.0;
  options.resamples = 500;
  options.statistic = Statistic::kTrimmedMean;
  int alarms = 0;
  Rng rng(5, 0);
  for (int t = 0; t < kTrials; ++t) {
    options.seed = static_cast<uint64_t>(t);
    const auto a = sample(rng, 10, 2001, 0.03, 0.05);
    const auto b = sample(rng, 10, 2001, 0.03, 0.05);
    const auto c = compare(a, b, options);
    ASSERT_EQ(c.ratio.method, ResampleMethod::kNormalWithin);
    alarms += c.verdict == Verdict::kSlower || c.verdict == Verdict::kFaster ? 1 : 0;
  }
  const double rate = static_cast<double>(alarms) / kTrials;
  std::printf("  A/A false alarms: %.1f%% of %d\n", 100 * rate, kTrials);
  EXPECT_LT(rate, 0.076);
}

}  // namespace
}  // namespace benchguard::stats
