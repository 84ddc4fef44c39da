// Tests for the exact Mann-Whitney U test with ties (src/stats/tests.cpp): the permutation
// distribution of the mid-rank sum against full enumeration, hand-worked cases, agreement with
// the tie-free recurrence, and the switch to the normal approximation.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "stats/rng.hpp"
#include "stats/tests.hpp"

namespace benchguard::stats {
namespace {

// Mid-rank of v in the pooled sample: the values below it, plus the mean of the ranks its tie
// group occupies.
double mid_rank(const std::vector<double>& pooled, double v) {
  double below = 0, equal = 0;
  for (double w : pooled) {
    below += w < v;
    equal += w == v;
  }
  return below + (equal + 1.0) / 2.0;
}

struct Enumerated {
  double lower;  // P(S <= s)
  double upper;  // P(S >= s)
  double p;      // min(1, 2 min(lower, upper))
};

// Brute force: every one of the C(N, m) ways to choose which pooled values are x's, each
// keeping its mid-rank. N <= 20.
Enumerated enumerate_p(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> pooled(x);
  pooled.insert(pooled.end(), y.begin(), y.end());
  const std::size_t n_total = pooled.size();
  std::vector<double> ranks;
  for (double v : pooled) ranks.push_back(mid_rank(pooled, v));
  double observed = 0;
  for (std::size_t i = 0; i < x.size(); ++i) observed += ranks[i];
  double lower = 0, upper = 0, total = 0;
  for (uint32_t mask = 0; mask < (1u << n_total); ++mask) {
    if (static_cast<std::size_t>(std::popcount(mask)) != x.size()) continue;
    double s = 0;
    for (std::size_t i = 0; i < n_total; ++i) {
      if (mask & (1u << i)) s += ranks[i];
    }
    total += 1;
    lower += s <= observed + 1e-9;
    upper += s >= observed - 1e-9;
  }
  lower /= total;
  upper /= total;
  return {lower, upper, std::min(1.0, 2.0 * std::min(lower, upper))};
}

// Hand-worked case 1: x = {1, 1, 2}, y = {3, 3, 4}. Pooled mid-ranks: 1, 1 -> 1.5; 2 -> 3;
// 3, 3 -> 4.5; 4 -> 6. S = 1.5 + 1.5 + 3 = 6, the smallest sum any 3 of the 6 ranks can have,
// and only this one subset reaches it: P(S <= 6) = 1 / C(6, 3) = 1 / 20, P(S >= 6) = 1, so
// p = 2 / 20 = 0.1 (the same floor as without ties). The normal approximation said 0.072.
TEST(StatsMannWhitneyExact, SeparatedWithTies) {
  const std::vector<double> x{1, 1, 2}, y{3, 3, 4};
  const auto r = mann_whitney_u(x, y);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0.0);
  EXPECT_NEAR(r.p_value, 0.1, 1e-14);
  const auto flipped = mann_whitney_u(y, x);
  EXPECT_TRUE(flipped.exact);
  EXPECT_DOUBLE_EQ(flipped.u, 9.0);
  EXPECT_NEAR(flipped.p_value, 0.1, 1e-14);
}

// Hand-worked case 2: x = {1, 2, 2}, y = {2, 3, 4}. Mid-ranks: 1 -> a = 1; the three 2s (two
// of x, one of y) -> b = c = d = 3; 3 -> e = 5; 4 -> f = 6. S = 1 + 3 + 3 = 7, U = 1.
// The 20 subsets of size 3 and their sums:
//   a + two of {b,c,d}: 3 x 7;   a + one of {b,c,d} + e: 3 x 9;   {b,c,d}: 1 x 9;
//   a + one of {b,c,d} + f: 3 x 10;   two of {b,c,d} + e: 3 x 11;   a + e + f: 1 x 12;
//   two of {b,c,d} + f: 3 x 12;   one of {b,c,d} + e + f: 3 x 14.
// P(S <= 7) = 3/20, P(S >= 7) = 1, so p = 2 x 3/20 = 0.3.
TEST(StatsMannWhitneyExact, TiesAcrossSamples) {
  const auto r = mann_whitney_u(std::vector<double>{1, 2, 2}, std::vector<double>{2, 3, 4});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 1.0);
  EXPECT_NEAR(r.p_value, 0.3, 1e-14);
  const std::vector<std::size_t> groups{1, 3, 1, 1};
  const auto null = rank_sum_null(groups, 3);
  EXPECT_EQ(null.min_sum2, 14);  // 2 x 7
  // Doubled sums 14, 18, 20, 22, 24, 28 with counts 3, 4, 3, 3, 4, 3 out of 20.
  ASSERT_EQ(null.probability.size(), 15u);
  const double expected[] = {3, 0, 0, 0, 4, 0, 3, 0, 3, 0, 4, 0, 0, 0, 3};
  for (std::size_t k = 0; k < 15; ++k) EXPECT_NEAR(null.probability[k], expected[k] / 20, 1e-15);
}

// x = {1, 2, 2, 3}, y = {2, 3, 4, 5} (in R the normal approximation, p = 0.1367): the exact
// permutation p is 2 x 7/70 = 0.2, by enumeration of the 70 subsets.
TEST(StatsMannWhitneyExact, FourVersusFourWithTies) {
  const std::vector<double> x{1, 2, 2, 3}, y{2, 3, 4, 5};
  const auto r = mann_whitney_u(x, y);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 2.5);
  EXPECT_NEAR(r.p_value, 0.2, 1e-14);
  EXPECT_NEAR(enumerate_p(x, y).p, 0.2, 1e-14);
}

// The two-sided convention is doubling the smaller tail. x = {2}, y = {1, 1}: mid-ranks 1.5,
// 1.5, 3 and S = 3; P(S >= 3) = 1/3, P(S <= 3) = 1, so p = 2/3. (Adding both tails at least as
// far from E S = 2, as R's coin and exactRankTests do, would give P(S = 3) = 1/3: with an
// asymmetric tie pattern the rules differ.)
TEST(StatsMannWhitneyExact, TwoSidedByDoubling) {
  const auto r = mann_whitney_u(std::vector<double>{2}, std::vector<double>{1, 1});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 2.0);
  EXPECT_NEAR(r.p_value, 2.0 / 3.0, 1e-15);
}

TEST(StatsMannWhitneyExact, AllTiedGivesOne) {
  for (auto [m, n] : {std::pair{1, 1}, {2, 3}, {5, 5}, {30, 40}}) {
    const auto r = mann_whitney_u(std::vector<double>(static_cast<std::size_t>(m), 7.0),
                                  std::vector<double>(static_cast<std::size_t>(n), 7.0));
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.p_value, 1.0);
    EXPECT_DOUBLE_EQ(r.u, m * n / 2.0);
  }
  const std::vector<std::size_t> one_group{6};
  const auto null = rank_sum_null(one_group, 2);
  EXPECT_EQ(null.min_sum2, 14);  // 2 x (3.5 + 3.5)
  ASSERT_EQ(null.probability.size(), 1u);
  EXPECT_DOUBLE_EQ(null.probability[0], 1.0);
}

// Every sample size pair with N <= 12 and many tie patterns: values drawn from 1, 2, 3, 4 or
// 20 distinct levels, so from all tied to (nearly) no ties.
TEST(StatsMannWhitneyExact, MatchesFullEnumeration) {
  Rng rng(20240611, 0);
  int checked = 0, with_ties = 0;
  for (std::size_t n1 = 1; n1 <= 8; ++n1) {
    for (std::size_t n2 = 1; n1 + n2 <= 12; ++n2) {
      for (uint32_t levels : {1u, 2u, 3u, 4u, 20u}) {
        for (int rep = 0; rep < 3; ++rep) {
          std::vector<double> x, y;
          // y shifted by a random amount so that both central and extreme values of S occur.
          const uint32_t shift = rng.below(3);
          for (std::size_t i = 0; i < n1; ++i) x.push_back(rng.below(levels));
          for (std::size_t i = 0; i < n2; ++i) y.push_back(rng.below(levels) + shift);
          const auto r = mann_whitney_u(x, y);
          const auto e = enumerate_p(x, y);
          ASSERT_TRUE(r.exact);
          EXPECT_NEAR(r.p_value, e.p, 1e-12) << n1 << " vs " << n2 << ", levels " << levels;
          std::vector<double> pooled(x);
          pooled.insert(pooled.end(), y.begin(), y.end());
          std::sort(pooled.begin(), pooled.end());
          with_ties += std::adjacent_find(pooled.begin(), pooled.end()) != pooled.end();
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 60 * 5 * 3);  // sum over n1 = 1..8 of (12 - n1) size pairs = 60
  EXPECT_GT(with_ties, checked * 3 / 4);
}

// The distribution itself against enumeration, for a few tie patterns.
TEST(StatsMannWhitneyExact, RankSumNullMatchesEnumeration) {
  const std::vector<std::vector<std::size_t>> patterns{
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}, {1, 4, 1, 3, 1}, {5, 5}, {1, 10, 1},
      {3, 1, 1, 2, 1, 1, 3}};
  for (const auto& groups : patterns) {
    std::vector<double> ranks2;  // doubled mid-ranks
    std::size_t below = 0;
    for (std::size_t t : groups) {
      for (std::size_t i = 0; i < t; ++i) ranks2.push_back(static_cast<double>(2 * below + t + 1));
      below += t;
    }
    const std::size_t n_total = ranks2.size();
    for (std::size_t m = 0; m <= n_total; ++m) {
      const auto null = rank_sum_null(groups, m);
      std::vector<double> counts(null.probability.size(), 0.0);
      double total = 0;
      for (uint32_t mask = 0; mask < (1u << n_total); ++mask) {
        if (static_cast<std::size_t>(std::popcount(mask)) != m) continue;
        double s = 0;
        for (std::size_t i = 0; i < n_total; ++i) {
          if (mask & (1u << i)) s += ranks2[i];
        }
        const double k = s - static_cast<double>(null.min_sum2);
        ASSERT_GE(k, 0);
        ASSERT_LT(k, static_cast<double>(counts.size()));
        counts[static_cast<std::size_t>(k)] += 1;
        total += 1;
      }
      for (std::size_t k = 0; k < counts.size(); ++k)
        EXPECT_NEAR(null.probability[k], counts[k] / total, 1e-15) << "m = " << m;
    }
  }
}

// Without ties the exact test is the classical one: the same p-values as the tail sums of
// mann_whitney_null (the recurrence the test used before ties were handled exactly), up to
// 49 vs 49.
TEST(StatsMannWhitneyExact, AgreesWithTieFreeRecurrence) {
  Rng rng(7, 1);
  for (auto [m, n] :
       {std::pair{1, 1}, {2, 7}, {3, 3}, {5, 6}, {12, 9}, {20, 20}, {31, 17}, {49, 49}}) {
    for (int rep = 0; rep < 4; ++rep) {
      std::vector<double> x, y;
      const double shift = 0.4 * rep;
      for (int i = 0; i < m; ++i) x.push_back(rng.normal());
      for (int i = 0; i < n; ++i) y.push_back(rng.normal() + shift);
      const auto r = mann_whitney_u(x, y);
      ASSERT_TRUE(r.exact);
      const auto null = mann_whitney_null(static_cast<std::size_t>(m), static_cast<std::size_t>(n));
      const auto k = static_cast<std::size_t>(std::llround(r.u));
      double tail = 0;
      if (r.u > m * n / 2.0) {
        for (std::size_t i = k; i < null.size(); ++i) tail += null[i];
      } else {
        for (std::size_t i = 0; i <= k; ++i) tail += null[i];
      }
      const double old_p = std::min(1.0, 2.0 * tail);
      EXPECT_NEAR(r.p_value, old_p, 1e-12 * std::max(1e-3, old_p)) << m << " vs " << n;
    }
  }
}

// The work bound N min(n1, n2) (R + 1) <= 2.5e7, R the range of doubled rank sums (2 n1 n2
// without ties): 49 vs 49 is exact (98 x 49 x 4803 = 2.31e7), 50 vs 50 is not
// (100 x 50 x 5001 = 2.50e7 + 5000); an unbalanced 10 vs 200 is (210 x 10 x 4001 = 8.4e6).
TEST(StatsMannWhitneyExact, WorkBoundSelectsMethod) {
  auto sample = [](int count, int start, int step) {
    std::vector<double> v;
    for (int i = 0; i < count; ++i) v.push_back(start + step * i);
    return v;
  };
  EXPECT_TRUE(mann_whitney_u(sample(49, 0, 2), sample(49, 1, 2)).exact);
  EXPECT_FALSE(mann_whitney_u(sample(50, 0, 2), sample(50, 1, 2)).exact);
  EXPECT_TRUE(mann_whitney_u(sample(10, 0, 20), sample(200, 1, 1)).exact);
  // 49 vs 49 with heavy ties: the range of sums shrinks, the test stays exact.
  std::vector<double> x, y;
  for (int i = 0; i < 49; ++i) {
    x.push_back(i % 5);
    y.push_back(i % 7);
  }
  // How long it takes is printed by bench/bootstrap_bench beside a bootstrap's time.
  EXPECT_TRUE(mann_whitney_u(x, y).exact);
  EXPECT_TRUE(mann_whitney_u(sample(49, 0, 2), sample(49, 1, 2)).exact);
}

// Beyond the bound: the normal approximation with the tie correction and continuity
// correction. x = 70 values 0..6 (ten of each), y = 70 values 1..7 (ten of each): N = 140,
// eight tie groups of sizes 10, 20 x 6, 10. The doubled rank sums of 70 values range over
// R = 2 (7385 - 2485) = 9800: work 140 x 70 x 9801 = 9.6e7, far above the bound.
TEST(StatsMannWhitneyExact, NormalApproximationBeyondBound) {
  std::vector<double> x, y;
  for (int i = 0; i < 70; ++i) {
    x.push_back(i % 7);
    y.push_back(i % 7 + 1);
  }
  const auto r = mann_whitney_u(x, y);
  EXPECT_FALSE(r.exact);
  // Mid-ranks: value 0 -> 5.5 (ten x's); value v = 1..6 -> 10 + 20 (v - 1) + 10.5 (ten x's, ten
  // y's each). R_x = 10 x (5.5 + sum_{v=1..6} (20 v + 0.5)) = 10 x (5.5 + 420 + 3) = 4285.
  // U = 4285 - 70 x 71 / 2 = 1800; centre 2450.
  EXPECT_DOUBLE_EQ(r.u, 1800.0);
  const double tie_term = 2 * (1000.0 - 10) + 6 * (8000.0 - 20);
  const double var = 70.0 * 70.0 / 12.0 * (141.0 - tie_term / (140.0 * 139.0));
  const double z = (1800.0 - 2450.0 + 0.5) / std::sqrt(var);
  EXPECT_NEAR(r.p_value, std::erfc(-z / std::sqrt(2.0)), 1e-14);
}

}  // namespace
}  // namespace benchguard::stats
