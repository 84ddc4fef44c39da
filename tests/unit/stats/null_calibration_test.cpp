// The A/A false-alarm interval and the calibrated threshold (stats/null_calibration.hpp).
#include "stats/null_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace benchguard::stats {
namespace {

// Reference values solve P(X >= k | p) = 0.025 and P(X <= k | p) = 0.025 for p by bisection
// over the binomial sums (exact definition of Clopper-Pearson).
TEST(BinomialInterval, MatchesTheExactDefinition) {
  const Interval two = binomial_interval(2, 20, 0.95);
  EXPECT_NEAR(two.lower, 0.0123485271702948, 1e-9);
  EXPECT_NEAR(two.upper, 0.31698271401908285, 1e-9);
  const Interval three = binomial_interval(3, 30, 0.95);
  EXPECT_NEAR(three.lower, 0.02111713702972256, 1e-9);
  EXPECT_NEAR(three.upper, 0.2652884504742081, 1e-9);
}

TEST(BinomialInterval, NoneAndAllHaveClosedForms) {
  // 0 of n: [0, 1 - (tail)^(1/n)]; n of n: [(tail)^(1/n), 1].
  const Interval none = binomial_interval(0, 20, 0.95);
  EXPECT_EQ(none.lower, 0.0);
  EXPECT_NEAR(none.upper, 1.0 - std::pow(0.025, 1.0 / 20), 1e-12);
  const Interval all = binomial_interval(20, 20, 0.95);
  EXPECT_NEAR(all.lower, std::pow(0.025, 1.0 / 20), 1e-12);
  EXPECT_EQ(all.upper, 1.0);
  const Interval empty = binomial_interval(0, 0, 0.95);
  EXPECT_EQ(empty.lower, 0.0);
  EXPECT_EQ(empty.upper, 1.0);
}

TEST(NullThreshold, TakesTheRankThatBoundsTheNextChange) {
  // 19 changes at 5%: j = floor(0.05 * 20) = 1, the largest.
  std::vector<double> ratios;
  for (int i = 1; i <= 19; ++i) ratios.push_back(1.0 + (i % 2 == 0 ? 1 : -1) * 0.001 * i);
  NullThreshold t = null_threshold(ratios, 0.05);
  EXPECT_EQ(t.rank, 1U);
  EXPECT_NEAR(t.threshold, 0.019, 1e-12);
  EXPECT_NEAR(t.bound, 1.0 / 20, 1e-12);
  EXPECT_TRUE(t.reached);
  EXPECT_EQ(t.repetitions_needed, 19U);

  // 39 changes: j = 2, the second largest (0.038 of 0.001 .. 0.039).
  ratios.clear();
  for (int i = 1; i <= 39; ++i) ratios.push_back(1.0 + 0.001 * i);
  t = null_threshold(ratios, 0.05);
  EXPECT_EQ(t.rank, 2U);
  EXPECT_NEAR(t.threshold, 0.038, 1e-12);
  EXPECT_NEAR(t.bound, 2.0 / 40, 1e-12);
}

TEST(NullThreshold, TooFewRepetitionsSayWhatTheyGuarantee) {
  const std::vector<double> ratios = {1.01, 0.98, 1.002, NAN, 1.005};
  const NullThreshold t = null_threshold(ratios, 0.05);
  EXPECT_EQ(t.rank, 1U);
  EXPECT_NEAR(t.threshold, 0.02, 1e-12);  // the largest; NaN left out
  EXPECT_NEAR(t.bound, 1.0 / 5, 1e-12);
  EXPECT_FALSE(t.reached);
  EXPECT_EQ(t.repetitions_needed, 19U);
  EXPECT_TRUE(std::isnan(null_threshold(std::vector<double>{}, 0.05).threshold));
  EXPECT_EQ(null_threshold(std::vector<double>{}, 0.10).repetitions_needed, 9U);
}

// The promise itself, by simulation: a further A/A change exceeds the threshold from n earlier
// ones with probability j / (n + 1). Heavy-tailed changes (Student t with 3 df) on purpose:
// the bound holds whatever the distribution. 20,000 trials: standard error 0.0015 at 0.05.
TEST(NullThreshold, BoundHoldsBySimulation) {
  std::mt19937_64 rng(17);
  std::student_t_distribution<double> t3(3.0);
  for (const std::size_t n : {19U, 39U, 59U}) {
    const int trials = 20000;
    int exceed = 0;
    double bound = 0;
    std::vector<double> ratios(n);
    for (int trial = 0; trial < trials; ++trial) {
      for (auto& r : ratios) r = 1.0 + 0.01 * t3(rng);
      const NullThreshold t = null_threshold(ratios, 0.05);
      bound = t.bound;
      if (std::abs(0.01 * t3(rng)) > t.threshold) ++exceed;
    }
    const double rate = static_cast<double>(exceed) / trials;
    const double se = std::sqrt(bound * (1 - bound) / trials);
    EXPECT_NEAR(rate, bound, 4 * se) << "n = " << n;
    EXPECT_LE(bound, 0.05 + 1e-12);
  }
}

}  // namespace
}  // namespace benchguard::stats
