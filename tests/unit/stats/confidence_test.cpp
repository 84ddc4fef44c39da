// Tests for src/stats/confidence.cpp.
#include "stats/confidence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

TEST(StatsConfidence, Expansions) {
  const VarianceTerm one[] = {{0.5, 0.4, 5}};
  EXPECT_DOUBLE_EQ(combined_expansion(one).scale, std::sqrt(1.25));
  EXPECT_DOUBLE_EQ(combined_expansion(one).dof, 4.0);
  // Two equal samples: the pooled two-sample t, 2 (n - 1) degrees of freedom.
  const VarianceTerm equal[] = {{0.3, 0.27, 10}, {0.3, 0.27, 10}};
  EXPECT_DOUBLE_EQ(combined_expansion(equal).scale, std::sqrt(10.0 / 9.0));
  EXPECT_DOUBLE_EQ(combined_expansion(equal).dof, 18.0);
  // A single-instance sample cannot contribute; the other one alone decides.
  const VarianceTerm lonely[] = {{0.5, 0.4, 5}, {7.0, 1.0, 1}};
  EXPECT_DOUBLE_EQ(combined_expansion(lonely).scale, std::sqrt(1.25));
  const VarianceTerm none[] = {{0.0, 0.0, 10}, {0.0, 0.0, 10}};
  EXPECT_DOUBLE_EQ(combined_expansion(none).scale, 1.0);
  EXPECT_TRUE(std::isinf(combined_expansion(none).dof));
  EXPECT_NEAR(tail_probability(0.95, {}), 0.025, 1e-15);
  EXPECT_NEAR(tail_probability(0.95, {std::sqrt(10.0 / 9.0), 9.0}), 0.008550639025807875, 1e-9);
}

TEST(StatsConfidence, PercentileIntervalIsType7) {
  std::vector<double> reps;
  for (int i = 100; i >= 0; --i) reps.push_back(i);
  const auto ci = percentile_interval(reps, 0.025);
  EXPECT_DOUBLE_EQ(ci.lower, 2.5);
  EXPECT_DOUBLE_EQ(ci.upper, 97.5);
}

// p < 1 - confidence exactly when the interval at that confidence excludes the null value
// (checked where the interval's tails hold at least 10 replicates).
TEST(StatsConfidence, InplaceIntervalEqualsSortedOne) {
  Rng rng(4, 0);
  for (const std::size_t n : {1, 2, 7, 16, 100, 1000, 10000}) {
    std::vector<double> reps(n);
    for (double& r : reps) r = rng.lognormal(0.0, 0.3);
    reps[n / 2] = reps[0];  // a tie
    for (const double tail : {0.0, 1e-5, 0.0123, 0.025, 0.05, 0.3, 0.5}) {
      const auto sorted = percentile_interval(reps, tail);
      std::vector<double> scratch = reps;
      const auto selected = percentile_interval_inplace(scratch, tail);
      EXPECT_EQ(selected.lower, sorted.lower) << n << " " << tail;
      EXPECT_EQ(selected.upper, sorted.upper) << n << " " << tail;
    }
  }
}

// percentile_interval selects instead of sorting: the same values as the sorted replicates
// give, infinities (a ratio over a zero) included, and a tail above one half still reads the
// quantile at `tail` first.
TEST(StatsConfidence, IntervalBySelectionEqualsQuantilesOfTheSortedReplicates) {
  Rng rng(6, 0);
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  for (const std::size_t n : {1, 3, 20, 1000, 4001}) {
    std::vector<double> reps(n);
    for (double& r : reps) r = rng.lognormal(0.0, 0.3);
    if (n >= 20) reps[3] = reps[n - 1] = std::numeric_limits<double>::infinity();
    std::vector<double> sorted = reps;
    std::sort(sorted.begin(), sorted.end());
    for (const double tail : {0.0, 0.001, 0.025, 0.05, 0.5, 0.8, 1.0}) {
      const auto ci = percentile_interval(reps, tail);
      EXPECT_TRUE(same(ci.lower, quantile_sorted(sorted, tail))) << n << " " << tail;
      EXPECT_TRUE(same(ci.upper, quantile_sorted(sorted, 1.0 - tail))) << n << " " << tail;
    }
  }
}

TEST(StatsConfidence, BootstrapPValueIsDualToInterval) {
  Rng rng(5, 0);
  std::vector<double> reps(2000);
  for (double& r : reps) r = 1.0 + 0.02 * rng.normal();
  int checked = 0;
  for (const Expansion e :
       {Expansion{}, Expansion{std::sqrt(6.0 / 5.0), 5.0}, Expansion{0.8, 30.0}}) {
    for (double confidence : {0.8, 0.9, 0.95, 0.99}) {
      const double tail = tail_probability(confidence, e);
      if (tail * (reps.size() - 1) < 10.0) continue;
      const auto ci = percentile_interval(reps, tail);
      for (double null = 0.94; null <= 1.06; null += 0.0007) {
        const bool excluded = !ci.contains(null);
        EXPECT_EQ(bootstrap_p_value(reps, null, e) < 1.0 - confidence, excluded)
            << "null " << null << " confidence " << confidence << " scale " << e.scale;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1500);
  EXPECT_NEAR(bootstrap_p_value(reps, median(reps), {}), 1.0, 1e-9);
}

// Beyond the replicates the p-value keeps falling with the distance instead of sticking at 0,
// following the normal tail: 2 Phi(-z) for a null z bootstrap standard deviations away.
TEST(StatsConfidence, BootstrapPValueExtrapolatesBeyondReplicates) {
  Rng rng(6, 0);
  std::vector<double> reps(1000);
  for (double& r : reps) r = rng.normal();
  const double m = mean(reps), sd = stdev(reps);
  const double p5 = bootstrap_p_value(reps, m + 5 * sd, {});
  const double p8 = bootstrap_p_value(reps, m - 8 * sd, {});
  EXPECT_NEAR(p5, std::erfc(5 / std::sqrt(2.0)), 1e-12);
  EXPECT_GT(p5, 0.0);
  EXPECT_GT(p8, 0.0);
  EXPECT_LT(p8, p5);
  // With an expansion the same distance is less surprising.
  EXPECT_GT(bootstrap_p_value(reps, m + 5 * sd, {1.1, 9.0}), p5);
  // Never beyond the resolvable tail: 10 of 999 gaps on each side.
  EXPECT_LE(bootstrap_p_value(reps, m + 2.5 * sd, {}), 2.0 * 10.0 / 999.0 + 1e-12);
}

TEST(StatsConfidence, TIntervalIsWelchsFromTheTable) {
  // Two terms of variance 0.0002 from 5 instances each: Welch-Satterthwaite gives
  // (0.0004)^2 / (2 x 0.0002^2 / 4) = 8 degrees of freedom, t_{8, 0.975} = 2.306004 (table),
  // sqrt(0.0004) = 0.02.
  const VarianceTerm terms[] = {{0.0002, 0.0, 5}, {0.0002, 0.0, 5}};
  const Interval ci = t_interval(0.1, terms, 0.95);
  EXPECT_NEAR(ci.lower, 0.1 - 2.306004 * 0.02, 1e-6);
  EXPECT_NEAR(ci.upper, 0.1 + 2.306004 * 0.02, 1e-6);
  // Dual: at the interval's half-width the p-value is 1 - confidence.
  EXPECT_NEAR(t_p_value(2.306004 * 0.02, terms), 0.05, 1e-6);
  EXPECT_NEAR(t_p_value(-2.306004 * 0.02, terms), 0.05, 1e-6);
  EXPECT_DOUBLE_EQ(t_p_value(0.0, terms), 1.0);
  // A term of one instance cannot be used; without variance the interval is the point.
  const VarianceTerm single[] = {{0.0002, 0.0, 1}};
  EXPECT_EQ(t_interval(0.1, single, 0.95).lower, 0.1);
  EXPECT_EQ(t_p_value(0.1, single), 0.0);
  EXPECT_EQ(t_p_value(0.0, single), 1.0);
}

TEST(StatsConfidence, TProbabilityAboveIsTheIntervalsTail) {
  // The terms above: 8 degrees of freedom, scale 0.02, t_{8, 0.975} = 2.306004 and
  // t_{8, 0.9} = 1.396815 (table).
  const VarianceTerm terms[] = {{0.0002, 0.0, 5}, {0.0002, 0.0, 5}};
  EXPECT_NEAR(t_probability_above(0.1, terms, 0.1 - 2.306004 * 0.02), 0.975, 1e-6);
  EXPECT_NEAR(t_probability_above(0.1, terms, 0.1 + 2.306004 * 0.02), 0.025, 1e-6);
  EXPECT_NEAR(t_probability_above(0.1, terms, 0.1 + 1.396815 * 0.02), 0.1, 1e-6);
  EXPECT_DOUBLE_EQ(t_probability_above(0.1, terms, 0.1), 0.5);
  // Without variance: which side of the bound the centre is on.
  const VarianceTerm single[] = {{0.0002, 0.0, 1}};
  EXPECT_EQ(t_probability_above(0.1, single, 0.05), 1.0);
  EXPECT_EQ(t_probability_above(0.1, single, 0.2), 0.0);
  EXPECT_TRUE(std::isnan(t_probability_above(std::nan(""), terms, 0.0)));
}

}  // namespace
}  // namespace benchguard::stats
