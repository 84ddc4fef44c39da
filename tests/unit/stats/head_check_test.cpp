// The head check (stats/head_check.hpp): exact values of the prediction interval by hand, and
// its false-alarm rate and power by simulation of series with drift between commits.
#include "stats/head_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

TEST(HeadCheck, EqualCountsGiveTheClassicPredictionInterval) {
  // Three single-instance points 9, 10, 11: mean 10, S^2 = 1, V = S^2 (1 + 1/3) = 4/3. A head
  // of 12 is t = 2 / sqrt(4/3) = sqrt(3); with 2 degrees of freedom the two-sided p-value is
  // 1 - t / sqrt(2 + t^2) = 1 - sqrt(3/5).
  const std::vector<PointMoments> base = {{9, 1, 0}, {10, 1, 0}, {11, 1, 0}};
  HeadCheckOptions o;
  o.min_baseline = 3;
  const HeadCheck h = check_head(base, {12, 1, 0}, o);
  ASSERT_TRUE(h.examined) << h.why_not;
  EXPECT_DOUBLE_EQ(h.baseline, 10);
  EXPECT_NEAR(h.change, 0.2, 1e-12);
  EXPECT_NEAR(h.t, std::sqrt(3.0), 1e-12);
  EXPECT_DOUBLE_EQ(h.df, 2);
  EXPECT_NEAR(h.p_value, 1 - std::sqrt(3.0 / 5.0), 1e-9);
  EXPECT_FALSE(h.suspected);  // p 0.23
  EXPECT_NEAR((h.lower + h.upper) / 2, h.change, 1e-12);
}

TEST(HeadCheck, WithinPointNoiseIsRescaledToTheHeadsInstances) {
  // Four points of 4 instances, means 10, 12, 10, 12, instance-mean variance 2 within each:
  // S^2 = 4/3, sigma^2 = 2, tau^2 = 4/3 - 2/4 = 5/6; a head of 2 instances at 14:
  // V = 5/6 + 2/2 + (4/3)/4 = 13/6, t = 3 / sqrt(13/6).
  const std::vector<PointMoments> base = {{10, 4, 2}, {12, 4, 2}, {10, 4, 2}, {12, 4, 2}};
  HeadCheckOptions o;
  o.min_baseline = 4;
  const HeadCheck h = check_head(base, {14, 2, 2}, o);
  ASSERT_TRUE(h.examined);
  EXPECT_NEAR(h.t, 3 / std::sqrt(13.0 / 6.0), 1e-12);
  // The same head from 8 instances is surer: its own noise weighs less.
  const HeadCheck more = check_head(base, {14, 8, 2}, o);
  EXPECT_NEAR(more.t, 3 / std::sqrt(5.0 / 6.0 + 2.0 / 8.0 + 1.0 / 3.0), 1e-12);
  EXPECT_LT(more.p_value, h.p_value);
}

TEST(HeadCheck, SatterthwaiteDegreesOfFreedomWhenTheHeadHasOtherInstanceCounts) {
  // The baseline above: K = 4, S^2 = 4/3 with 3 df, sigma^2 = 2 with 4 x 3 = 12 df, tau^2 > 0,
  // so V = (5/4) S^2 + (1/n_head - 1/4) sigma^2.
  const std::vector<PointMoments> base = {{10, 4, 2}, {12, 4, 2}, {10, 4, 2}, {12, 4, 2}};
  HeadCheckOptions o;
  o.min_baseline = 4;
  // 2 instances: V = 5/3 + 1/2 = 13/6, df = (13/6)^2 / ((5/3)^2 / 3 + (1/2)^2 / 12)
  // = (169/36) / (409/432) = 2028/409 = 4.958..., more than K - 1 = 3.
  const HeadCheck two = check_head(base, {14, 2, 2}, o);
  ASSERT_TRUE(two.examined);
  EXPECT_NEAR(two.df, 2028.0 / 409.0, 1e-12);
  // t = 3 / sqrt(13/6) = 2.0381 against t(4.958): two-sided p 0.09758, where t(3) gave 0.1343.
  EXPECT_NEAR(two.p_value, 0.09758, 1e-5);
  // 4 instances, as many as the baseline's points: c = 0, df = K - 1.
  const HeadCheck four = check_head(base, {14, 4, 2}, o);
  EXPECT_NEAR(four.df, 3, 1e-12);
  EXPECT_NEAR(four.t, 3 / std::sqrt(5.0 / 3.0), 1e-12);
  // 8 instances: c = -1/8, V = 5/3 - 1/4 = 17/12, Satterthwaite (17/12)^2 / ((5/3)^2 / 3 +
  // (1/4)^2 / 12) = 2.155, below both mean squares' df: kept at min(3, 12) = 3.
  const HeadCheck eight = check_head(base, {14, 8, 2}, o);
  EXPECT_NEAR(eight.df, 3, 1e-12);
  // tau^2 = 0 (points alike but for their own noise): V = S^2 / K + sigma^2 / n_head, both
  // positive. Means 10, 11, 10, 11: S^2 = 1/3 < sigma^2 / 4 = 1/2. n_head = 4:
  // V = 1/12 + 1/2 = 7/12, df = (7/12)^2 / ((1/12)^2 / 3 + (1/2)^2 / 12) = (49/144) / (10/432)
  // = 14.7.
  const std::vector<PointMoments> alike = {{10, 4, 2}, {11, 4, 2}, {10, 4, 2}, {11, 4, 2}};
  const HeadCheck same = check_head(alike, {12, 4, 2}, o);
  EXPECT_NEAR(same.t, 1.5 / std::sqrt(7.0 / 12.0), 1e-12);
  EXPECT_NEAR(same.df, 14.7, 1e-12);
}

TEST(HeadCheck, ShortBaselinesAndSmallChangesAreNotSuspected) {
  const std::vector<PointMoments> four = {
      {10, 3, 0.01}, {10, 3, 0.01}, {10, 3, 0.01}, {10, 3, 0.01}};
  const HeadCheck h = check_head(four, {20, 3, 0.01});
  EXPECT_FALSE(h.examined);
  EXPECT_NE(h.why_not.find("fewer than 5"), std::string::npos) << h.why_not;
  // A flat baseline: a 0.5% step is exact but under the 1% threshold; 2% is suspected.
  const std::vector<PointMoments> flat(8, PointMoments{10, 3, 0});
  EXPECT_FALSE(check_head(flat, {10.05, 3, 0}).suspected);
  const HeadCheck step = check_head(flat, {10.2, 3, 0});
  EXPECT_TRUE(step.suspected);
  EXPECT_NEAR(step.change, 0.02, 1e-12);
}

TEST(HeadCheck, ADriftThatWandersWidensTheInterval) {
  // Ten single-instance points that wander up and back: mean 11, S^2 = 5/9 (tau^2 = S^2: no
  // within-point noise), lag-1 autocovariance (sum of d_i d_(i-1)) / 9 = 1/3, r = 3/5, phi =
  // r + (1 + 3r) / K = 0.88. For AR(1) with phi 0.88 and K = 10, vbar = sum_ij phi^|i-j| / K^2
  // = 0.684835, cbar = sum_(m=1..10) phi^m / K = 0.529099, so V = S^2 (K - 1) / (K (1 - vbar))
  // (1 + vbar - 2 cbar) = 1.789448 S^2 = 0.994138, where independent points give 1.1 S^2.
  const std::vector<PointMoments> base = {{10, 1, 0},   {10.5, 1, 0}, {11, 1, 0},   {11.5, 1, 0},
                                          {12, 1, 0},   {12, 1, 0},   {11.5, 1, 0}, {11, 1, 0},
                                          {10.5, 1, 0}, {10, 1, 0}};
  const HeadCheck h = check_head(base, {14, 1, 0});
  ASSERT_TRUE(h.examined);
  EXPECT_EQ(h.left_out, HeadCheck::kNoneLeftOut);
  EXPECT_NEAR(h.phi, 0.88, 1e-12);
  EXPECT_NEAR(h.t, 3 / std::sqrt(0.99413801617568), 1e-9);
  EXPECT_DOUBLE_EQ(h.df, 9);
  // Points that alternate (r = -0.9) are not taken as narrower than independent ones.
  const std::vector<PointMoments> alternating = {{10, 1, 0}, {11, 1, 0}, {10, 1, 0}, {11, 1, 0},
                                                 {10, 1, 0}, {11, 1, 0}, {10, 1, 0}, {11, 1, 0},
                                                 {10, 1, 0}, {11, 1, 0}};
  const HeadCheck alt = check_head(alternating, {14, 1, 0});
  EXPECT_EQ(alt.phi, 0);
  EXPECT_NEAR(alt.t, 3.5 / std::sqrt(1.1 * 5.0 / 18.0), 1e-12);
  // Fewer than 10 points cannot tell wandering from noise: the first nine alone, phi 0.
  const HeadCheck nine = check_head(std::span(base).first(9), {14, 1, 0});
  EXPECT_EQ(nine.phi, 0);
}

// k points 99.5, 100.5, 99.5, ... of 3 instances each (instance-level variance 0.25), one of
// them replaced by `wild`.
std::vector<PointMoments> steady_with(double wild, std::size_t at, std::size_t k = 20) {
  std::vector<PointMoments> base;
  for (std::size_t j = 0; j < k; ++j) base.push_back({j % 2 == 0 ? 99.5 : 100.5, 3, 0.25});
  base[at].mean = wild;
  return base;
}

TEST(HeadCheck, OneWildBaselineCommitIsLeftOutAndAStepAtTheHeadStillFound) {
  // With the wild commit at 120 kept, S^2 = 20.3 and a 3% step at the head is t = 0.44: blind.
  // Left out (it is t = 38 from the other 19, p far below 1% / 20), the rest are S^2 = 0.263
  // around 99.97 and the step is t = 5.75.
  const auto base = steady_with(120, 7);
  const HeadCheck step = check_head(base, {103, 3, 0.25});
  ASSERT_TRUE(step.examined) << step.why_not;
  EXPECT_EQ(step.left_out, 7u);
  EXPECT_NEAR(step.baseline, (10 * 99.5 + 9 * 100.5) / 19, 1e-12);
  EXPECT_NEAR(step.df, 18, 1e-9);
  EXPECT_TRUE(step.suspected) << step.p_value;
  EXPECT_GT(step.change, 0.025);
  // The same baseline and an unchanged head: nothing suspected.
  const HeadCheck same = check_head(base, {100, 3, 0.25});
  EXPECT_EQ(same.left_out, 7u);
  EXPECT_FALSE(same.suspected) << same.p_value;
  // No wild point: nothing left out, the same step found.
  const auto calm = steady_with(99.5, 0);
  const HeadCheck plain = check_head(calm, {103, 3, 0.25});
  EXPECT_EQ(plain.left_out, HeadCheck::kNoneLeftOut);
  EXPECT_TRUE(plain.suspected);
  // A point off by a little more than the others (101.5: t = 2.9 from the rest, p = 0.0095,
  // below 1% but not below 1% / 20) stays.
  EXPECT_EQ(check_head(steady_with(101.5, 3), {100, 3, 0.25}).left_out, HeadCheck::kNoneLeftOut);
  // Only when the rest are still a baseline: 5 points with a wild one keep it.
  const HeadCheck five = check_head(steady_with(120, 2, 5), {103, 3, 0.25});
  EXPECT_TRUE(five.examined);
  EXPECT_EQ(five.left_out, HeadCheck::kNoneLeftOut);
  EXPECT_FALSE(five.suspected);
  HeadCheckOptions four;
  four.min_baseline = 4;
  EXPECT_EQ(check_head(steady_with(120, 2, 5), {103, 3, 0.25}, four).left_out, 2u);
}

// A series of `k` baseline commits and a head: 3 instances a commit, each instance 1% noise
// around its commit's level, each commit's level drifting by `drift` (relative sd) around 1.
struct Series {
  std::vector<PointMoments> base;
  PointMoments head;
};

PointMoments point(Rng& rng, double level, double drift, std::size_t instances) {
  const double commit = level * (1 + drift * rng.normal());
  double sum = 0, sum2 = 0;
  for (std::size_t i = 0; i < instances; ++i) {
    const double x = commit * (1 + 0.01 * rng.normal());
    sum += x;
    sum2 += x * x;
  }
  const double n = static_cast<double>(instances);
  const double m = sum / n;
  return {m, instances, (sum2 - n * m * m) / (n - 1)};
}

// `wild`: the level of baseline commit 10, as the machine spoilt its measurement (0: none).
Series simulate(Rng& rng, std::size_t k, double drift, double step, double wild = 0) {
  Series s;
  for (std::size_t c = 0; c < k; ++c)
    s.base.push_back(point(rng, wild > 0 && c == 10 ? wild : 1.0, drift, 3));
  s.head = point(rng, 1.0 + step, drift, 3);
  return s;
}

TEST(HeadCheck, AASeriesWithDriftAlarmAtAlphaAndAFivePercentStepIsFound) {
  // 20,000 A/A heads: the rate of suspected changes is at most alpha = 1% (three Monte-Carlo
  // standard errors of slack: 0.21 points), wild points left out and all; a test of the head's
  // instances against the baseline's instances, blind to the drift, would alarm far more often.
  Rng rng(2026, 11);
  const int trials = 20000;
  int alarms = 0, naive = 0;
  for (int t = 0; t < trials; ++t) {
    const Series s = simulate(rng, 29, 0.01, 0.0);
    alarms += check_head(s.base, s.head).suspected ? 1 : 0;
    // The naive test: the head's instances against the pooled within-point noise alone.
    double mean = 0;
    for (const auto& p : s.base) mean += p.mean / 29;
    naive += std::abs(s.head.mean - mean) > 2.576 * 0.01 / std::sqrt(3.0) ? 1 : 0;
  }
  const double rate = static_cast<double>(alarms) / trials;
  EXPECT_LE(rate, 0.01 + 3 * std::sqrt(0.01 * 0.99 / trials)) << rate;
  EXPECT_GE(rate, 0.002) << rate;  // not a test that never speaks
  EXPECT_GT(static_cast<double>(naive) / trials, 0.2);
  // A 5% step at the head, the same drift: found at least 90% of the time.
  int found = 0;
  for (int t = 0; t < 2000; ++t) {
    const Series s = simulate(rng, 29, 0.01, 0.05);
    const HeadCheck h = check_head(s.base, s.head);
    found += h.suspected && h.change > 0 ? 1 : 0;
  }
  EXPECT_GE(static_cast<double>(found) / 2000, 0.90);
}

TEST(HeadCheck, AWildBaselineCommitNeitherBlindsItNorRaisesItsFalseAlarms) {
  // One baseline commit of 29 measured 20% slow (0.5% drift): kept, it would make the
  // prediction interval about +-12% wide and hide the 5% step; left out, the step is found and
  // the A/A rate stays at alpha.
  Rng rng(2026, 12);
  int alarms = 0, left_out = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    const Series s = simulate(rng, 29, 0.005, 0.0, 1.2);
    const HeadCheck h = check_head(s.base, s.head);
    alarms += h.suspected ? 1 : 0;
    left_out += h.left_out == 10 ? 1 : 0;
  }
  EXPECT_EQ(left_out, trials);
  EXPECT_LE(static_cast<double>(alarms) / trials, 0.01 + 3 * std::sqrt(0.01 * 0.99 / trials));
  int found = 0;
  for (int t = 0; t < 2000; ++t) {
    const Series s = simulate(rng, 29, 0.005, 0.05, 1.2);
    const HeadCheck h = check_head(s.base, s.head);
    found += h.suspected && h.change > 0 ? 1 : 0;
  }
  EXPECT_GE(static_cast<double>(found) / 2000, 0.90);
}

}  // namespace
}  // namespace benchguard::stats
