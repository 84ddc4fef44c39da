#include "stats/tails.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/verdict.hpp"

namespace benchguard::stats {
namespace {

Hierarchical quiet(int instances) {
  std::vector<std::vector<double>> xs(static_cast<std::size_t>(instances),
                                      {1.00, 1.02, 0.98, 1.00, 1.01, 0.99});
  return Hierarchical(xs);
}

// quiet(3) with 2.00 in place of the first instance's 1.02.
Hierarchical one_spike() {
  std::vector<std::vector<double>> xs(3, {1.00, 1.02, 0.98, 1.00, 1.01, 0.99});
  xs[0][1] = 2.00;
  return Hierarchical(xs);
}

// Three instances a side; B's first instance has one iteration at 2.00 where A has 1.02.
// By hand: every instance's median is 1.00 and the pooled deviations' median 0.01, so the
// spike limit is 5 x 1.4826 x 0.01 = 0.074 and only 2.00 is a spike. B's robust mean is
// (4.98 + 6 + 6) / 17; its first instance's mean 6.98 / 6 exceeds its kept mean 4.98 / 5 by
// 0.167333, e_0 = 0.167333 / (16.98 / 17); e_1 = e_2 = 0 and A's e_i are all 0. Welch over
// [e_0, 0, 0] against [0, 0, 0]: t = 1 exactly, 2 degrees of freedom, p = 1 - 1 / sqrt(3).
TEST(StatsTails, OneSpikeByHand) {
  const Hierarchical a = quiet(3);
  const Hierarchical b = one_spike();
  const TailComparison t = compare_tails(a, b, 0.95);
  ASSERT_TRUE(t.tested);
  EXPECT_EQ(t.spikes_a, 0U);
  EXPECT_EQ(t.spikes_b, 1U);
  EXPECT_EQ(t.values_b, 18U);
  EXPECT_DOUBLE_EQ(t.excess_a, 0.0);
  const double e0 = (6.98 / 6 - 4.98 / 5) / (16.98 / 17);
  EXPECT_NEAR(t.excess_b, e0 / 3, 1e-12);
  EXPECT_NEAR(t.difference, e0 / 3, 1e-12);
  EXPECT_NEAR(t.p_value, 1 - 1 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(t.mean_ratio.value, 18.98 / 18, 1e-12);
  EXPECT_GT(t.mean_ratio.ci.upper, t.mean_ratio.value);
}

TEST(StatsTails, NoSpikesNoTailHypothesis) {
  const TailComparison t = compare_tails(quiet(4), quiet(4), 0.95);
  EXPECT_FALSE(t.tested);
  EXPECT_NEAR(t.mean_ratio.value, 1.0, 1e-12);
  // Without a tail test the family is the centres alone: the verdict is the plain one.
  const Comparison c = compare(quiet(4), quiet(4), VerdictOptions{});
  EXPECT_EQ(c.verdict, Verdict::kUnchanged);
  EXPECT_FALSE(c.tail.tested);
}

// Every instance of B has the same two 5x iterations, A none: the tails moved beyond doubt
// (Welch's variances are both 0 and the difference is not) while the robust mean is unchanged.
// The verdict is the mean's, slower, and says why.
TEST(StatsTails, SpikesInEveryInstanceOfBMakeItSlowerInTheTail) {
  std::vector<std::vector<double>> xs(
      5, {1.00, 1.02, 0.98, 1.00, 1.01, 0.99, 1.00, 1.01, 0.99, 1.00, 5.00, 5.00});
  std::vector<std::vector<double>> ys(
      5, {1.00, 1.02, 0.98, 1.00, 1.01, 0.99, 1.00, 1.01, 0.99, 1.00, 1.00, 1.00});
  const Hierarchical b(xs), a12(ys);
  const Comparison c = compare(a12, b, VerdictOptions{});
  ASSERT_TRUE(c.tail.tested);
  EXPECT_EQ(c.tail.p_value, 0.0);
  EXPECT_NEAR(c.ratio.value, 1.0, 1e-9);  // the robust mean left the spikes out
  EXPECT_GT(c.tail.mean_ratio.value, 1.5);
  EXPECT_EQ(c.verdict, Verdict::kSlower);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.front().find("slower in the tail"), std::string::npos) << c.warnings.front();
  // The same with B as A: faster in the tail.
  const Comparison back = compare(b, a12, VerdictOptions{});
  EXPECT_EQ(back.verdict, Verdict::kFaster);
}

// Holm's family holds each tested tail as a hypothesis beside the centres.
TEST(StatsTails, TailsJoinHolmsFamily) {
  const Hierarchical a = quiet(3);
  const Hierarchical b = one_spike();
  const Hierarchical as[] = {a, a}, bs[] = {b, a};
  const ComparisonSet set = compare_all(as, bs, VerdictOptions{});
  ASSERT_EQ(set.benchmarks.size(), 2U);
  const TailComparison& t = set.benchmarks[0].tail;
  ASSERT_TRUE(t.tested);
  EXPECT_FALSE(set.benchmarks[1].tail.tested);
  // Three hypotheses: two centres and one tail. The tail's p (0.42) is the largest of them
  // here, so Holm leaves it as it is only if it is the last step; it is at least p.
  EXPECT_GE(t.p_value_adjusted, t.p_value);
  EXPECT_LE(t.p_value_adjusted, 3 * t.p_value);
}

}  // namespace
}  // namespace benchguard::stats
