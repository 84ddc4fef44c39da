// Tests for src/stats/tests.cpp: Mann-Whitney U, Welch's t-test, Holm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/tests.hpp"

namespace benchguard::stats {
namespace {

// Slow reference: the null distribution of U by enumerating every way to choose which of
// the m + n ranks belong to the first sample.
std::vector<double> enumerate_null(int m, int n) {
  std::vector<double> counts(static_cast<std::size_t>(m * n + 1), 0.0);
  std::vector<bool> is_x(static_cast<std::size_t>(m + n), false);
  std::fill(is_x.begin(), is_x.begin() + m, true);
  double total = 0.0;
  do {
    int u = 0, ys_below = 0;
    for (bool x : is_x) {
      if (x)
        u += ys_below;
      else
        ++ys_below;
    }
    counts[static_cast<std::size_t>(u)] += 1.0;
    total += 1.0;
  } while (std::prev_permutation(is_x.begin(), is_x.end()));
  for (double& c : counts) c /= total;
  return counts;
}

TEST(StatsMannWhitney, NullDistributionMatchesEnumeration) {
  for (auto [m, n] : {std::pair{1, 1}, {2, 2}, {3, 5}, {5, 6}, {7, 4}}) {
    const auto dp = mann_whitney_null(m, n);
    const auto slow = enumerate_null(m, n);
    ASSERT_EQ(dp.size(), slow.size());
    for (std::size_t u = 0; u < dp.size(); ++u) EXPECT_NEAR(dp[u], slow[u], 1e-14) << m << "," << n;
  }
  // m = n = 2: U = 0..4 in 1, 1, 2, 1, 1 of the 6 arrangements.
  const auto two = mann_whitney_null(2, 2);
  EXPECT_NEAR(two[2], 2.0 / 6.0, 1e-15);
}

// R: wilcox.test(c(1, 2, 3), c(4, 5, 6)) -> W = 0, p-value = 0.1
TEST(StatsMannWhitney, ExactSeparatedSamples) {
  const auto r = mann_whitney_u(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0.0);
  EXPECT_NEAR(r.p_value, 0.1, 1e-12);
  const auto flipped = mann_whitney_u(std::vector<double>{4, 5, 6}, std::vector<double>{1, 2, 3});
  EXPECT_DOUBLE_EQ(flipped.u, 9.0);
  EXPECT_NEAR(flipped.p_value, 0.1, 1e-12);
}

// R: wilcox.test(c(1, 3, 5), c(2, 4, 6)) -> W = 3, p-value = 0.7: P(U <= 3) = 7/20 for 3 vs 3.
TEST(StatsMannWhitney, ExactInterleavedSamples) {
  const auto r = mann_whitney_u(std::vector<double>{1, 3, 5}, std::vector<double>{2, 4, 6});
  EXPECT_DOUBLE_EQ(r.u, 3.0);
  EXPECT_NEAR(r.p_value, 0.7, 1e-12);
}

// 5 vs 6, completely separated: p = 2 / C(11, 5) = 2 / 462.
TEST(StatsMannWhitney, ExactSmallestPValue) {
  const auto r =
      mann_whitney_u(std::vector<double>{1, 2, 3, 4, 5}, std::vector<double>{6, 7, 8, 9, 10, 11});
  EXPECT_NEAR(r.p_value, 2.0 / 462.0, 1e-15);
}

// Ties: the exact permutation distribution, see mann_whitney_exact_test.cpp.

TEST(StatsMannWhitney, LargeSamplesUseNormalApproximation) {
  std::vector<double> x, y;
  for (int i = 0; i < 60; ++i) {
    x.push_back(2 * i);
    y.push_back(2 * i + 1);
  }
  const auto r = mann_whitney_u(x, y);
  EXPECT_FALSE(r.exact);
  // U = sum over x_i = 2i of the i smaller y values = 0 + 1 + ... + 59 = 1770; centre 1800.
  EXPECT_DOUBLE_EQ(r.u, 1770.0);
  const double z = (1770.0 - 1800.0 + 0.5) / std::sqrt(3600.0 / 12.0 * 121.0);
  EXPECT_NEAR(r.p_value, std::erfc(-z / std::sqrt(2.0)), 1e-12);
}

TEST(StatsMannWhitney, DegenerateInput) {
  EXPECT_TRUE(std::isnan(mann_whitney_u(std::vector<double>{}, std::vector<double>{1}).p_value));
  EXPECT_DOUBLE_EQ(mann_whitney_u(std::vector<double>{2, 2}, std::vector<double>{2, 2, 2}).p_value,
                   1.0);
}

// Wikipedia, "Welch's t-test", example 1: t = -2.46, nu = 25.0, p = 0.021. Reference values
// from the definitions, with the t tail integrated numerically.
TEST(StatsWelch, TextbookExample) {
  const std::vector<double> a1{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                               21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
  const std::vector<double> a2{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                               24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
  const auto r = welch_t_test(a1, a2);
  EXPECT_NEAR(r.t, -2.45535639828601, 1e-10);
  EXPECT_NEAR(r.dof, 24.98852929023142, 1e-9);
  EXPECT_NEAR(r.p_value, 0.021378, 1e-5);
  // se = (mean a1 - mean a2) / t: means 20.82 and 22.98667.
  EXPECT_NEAR(r.se, (20.82 - 22.986666666666667) / -2.45535639828601, 1e-10);
  const auto swapped = welch_t_test(a2, a1);
  EXPECT_NEAR(swapped.t, 2.45535639828601, 1e-10);
  EXPECT_NEAR(swapped.p_value, r.p_value, 1e-14);
}

TEST(StatsWelch, DegenerateInput) {
  EXPECT_TRUE(std::isnan(welch_t_test(std::vector<double>{1}, std::vector<double>{1, 2}).p_value));
  EXPECT_DOUBLE_EQ(welch_t_test(std::vector<double>{1, 1}, std::vector<double>{1, 1}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(welch_t_test(std::vector<double>{1, 1}, std::vector<double>{2, 2}).p_value, 0.0);
}

// Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06 (monotone).
TEST(StatsHolm, KnownVector) {
  const auto adj = holm_adjust(std::vector<double>{0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adj.size(), 4u);
  EXPECT_NEAR(adj[0], 0.03, 1e-15);
  EXPECT_NEAR(adj[1], 0.06, 1e-15);
  EXPECT_NEAR(adj[2], 0.06, 1e-15);
  EXPECT_NEAR(adj[3], 0.02, 1e-15);
}

// Weights 1, 1, 0.25 (two centres and a tail): by p / w the order is 0.02, 0.03, then the
// tail's 0.01 / 0.25 = 0.04, with remaining weights 2.25, 1.25, 0.25: adjusted
// 0.02 x 2.25 = 0.045, 0.03 x 1.25 = 0.0375 -> 0.045 (monotone), 0.01 x 0.25 / 0.25 -> 0.045.
// Equal weights are plain Holm.
TEST(StatsHolm, WeightedByHand) {
  const std::vector<double> p{0.03, 0.02, 0.01}, w{1, 1, 0.25};
  const auto adj = holm_adjust(p, w);
  EXPECT_NEAR(adj[1], 0.045, 1e-15);
  EXPECT_NEAR(adj[0], 0.045, 1e-15);
  EXPECT_NEAR(adj[2], 0.045, 1e-15);
  // The same p with the tail at 0.001: 0.001 x 9 = 0.009, then 0.02 x 2 = 0.04, 0.03.
  const auto adj2 = holm_adjust(std::vector<double>{0.03, 0.02, 0.001}, w);
  EXPECT_NEAR(adj2[2], 0.009, 1e-15);
  EXPECT_NEAR(adj2[1], 0.04, 1e-15);
  EXPECT_NEAR(adj2[0], 0.04, 1e-15);
  const std::vector<double> q{0.01, 0.04, 0.03, 0.005};
  EXPECT_EQ(holm_adjust(q, std::vector<double>(4, 1.0)), holm_adjust(q));
  // A weight of 0 leaves its hypothesis out.
  const auto adj3 = holm_adjust(std::vector<double>{0.02, 0.01}, std::vector<double>{1, 0});
  EXPECT_NEAR(adj3[0], 0.02, 1e-15);
  EXPECT_TRUE(std::isnan(adj3[1]));
}

TEST(StatsHolm, CapsAtOneAndSkipsNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto adj = holm_adjust(std::vector<double>{0.5, nan, 0.2});
  EXPECT_DOUBLE_EQ(adj[2], 0.4);  // m = 2: the NaN does not count
  EXPECT_DOUBLE_EQ(adj[0], 0.5);
  EXPECT_TRUE(std::isnan(adj[1]));
  EXPECT_DOUBLE_EQ(holm_adjust(std::vector<double>{0.6, 0.7})[0], 1.0);
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
}

}  // namespace
}  // namespace benchguard::stats
