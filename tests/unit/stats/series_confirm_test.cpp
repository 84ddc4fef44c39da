// What the history says of a change once found (stats/series_confirm.hpp): confirmation by the
// point means with its margins against selection, and the rule that a change was undone.
#include "stats/series_confirm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "stats/series_changes.hpp"

namespace benchguard::stats {
namespace {

TEST(SeriesConfirm, TheIntervalIsDescribeChangesAtAlphaSharedAmongTheCandidateSplits) {
  // 20 points before, 30 after, 3 at least a side: 50 - 6 + 1 = 45 candidate splits, so the
  // interval has confidence 1 - 0.01 / 45.
  std::vector<double> x;
  for (int i = 0; i < 50; ++i) x.push_back((i < 20 ? 100.0 : 105.0) + (i % 2 == 0 ? 1.0 : -1.0));
  const SeriesConfirmation c = confirm_in_series(x, 0, 20, 50);
  EXPECT_EQ(c.candidates, 45u);
  EXPECT_DOUBLE_EQ(c.confidence, 1 - 0.01 / 45);
  const SeriesChange d = describe_change(x, 0, 20, 50, 1 - 0.01 / 45);
  EXPECT_DOUBLE_EQ(c.change, d.relative_change);
  EXPECT_DOUBLE_EQ(c.lower, d.relative_change_low);
  EXPECT_DOUBLE_EQ(c.upper, d.relative_change_high);
  EXPECT_NEAR(c.change, 0.05, 1e-12);
  EXPECT_GT(c.lower, 0.01);
  EXPECT_TRUE(c.confirmed);
  // The same step downwards: the interval lies below -1%.
  for (auto& v : x) v = 205.0 - v;
  const SeriesConfirmation down = confirm_in_series(x, 0, 20, 50);
  EXPECT_LT(down.upper, -0.01);
  EXPECT_TRUE(down.confirmed);
}

TEST(SeriesConfirm, AnIntervalBeyondZeroButNotBeyondTheThresholdDoesNotConfirm) {
  // A 1.5% step in 0.5% noise over 40 points a side: clearly not 0, yet the interval reaches
  // below the 1% threshold, as a false change point's does (its size is what noise can fake).
  std::vector<double> x;
  for (int i = 0; i < 80; ++i) x.push_back((i < 40 ? 100.0 : 101.5) + (i % 2 == 0 ? 0.5 : -0.5));
  const SeriesConfirmation c = confirm_in_series(x, 0, 40, 80);
  EXPECT_EQ(c.candidates, 75u);
  EXPECT_GT(c.lower, 0.0);
  EXPECT_LT(c.lower, 0.01);
  EXPECT_FALSE(c.confirmed);
  SeriesConfirmOptions o;
  o.threshold = 0.001;
  EXPECT_TRUE(confirm_in_series(x, 0, 40, 80, o).confirmed);
}

TEST(SeriesConfirm, TooShortASegmentConfirmsNothing) {
  const std::vector<double> x = {1, 1, 2, 2, 2};
  EXPECT_FALSE(confirm_in_series(x, 0, 1, 5).confirmed);
  EXPECT_TRUE(std::isnan(confirm_in_series(x, 0, 1, 5).lower));
  EXPECT_FALSE(confirm_in_series(x, 0, 4, 5).confirmed);
}

// Student's t with 3 degrees of freedom: P(T > t) = 1/2 - (u / (1 + u^2) + atan u) / pi with
// u = t / sqrt(3).
double upper_tail_t3(double t) {
  const double u = t / std::sqrt(3.0);
  return 0.5 - (u / (1 + u * u) + std::atan(u)) / std::numbers::pi;
}

// The rule on 2 newest commits, so that the hand computations stay small.
RevertOptions two_newest() {
  RevertOptions o;
  o.newest = 2;
  return o;
}

TEST(RevertCheck, PooledPredictionOfTheNewestMeanByHand) {
  // Before 9, 11 (10); after 12, 14 (13); newest 10, 10 (10). Pooled s^2 = (2 + 2 + 0) / 3,
  // se = sqrt(4/3 (1/2 + 1/2)), t = 3 / se = 2.598 with 3 degrees of freedom: p = 0.040, not
  // below 1%, though the newest are exactly at the old level.
  const std::vector<double> old = {9, 11}, after = {12, 14}, newest = {10, 10};
  const RevertCheck r = check_revert(old, after, newest, true, two_newest());
  ASSERT_TRUE(r.examined) << r.why_not;
  EXPECT_DOUBLE_EQ(r.old_level, 10);
  EXPECT_DOUBLE_EQ(r.after_level, 13);
  EXPECT_DOUBLE_EQ(r.newest_level, 10);
  EXPECT_DOUBLE_EQ(r.from_old, 0);
  EXPECT_NEAR(r.from_after, 10.0 / 13 - 1, 1e-15);
  EXPECT_DOUBLE_EQ(r.dof, 3);
  EXPECT_NEAR(r.t, 3 / std::sqrt(4.0 / 3), 1e-12);
  EXPECT_NEAR(r.p_value, upper_tail_t3(3 / std::sqrt(4.0 / 3)), 1e-9);
  // ln LR = m d (midpoint - mean) / s^2 = 2 x 3 x 1.5 / (4/3) = 6.75, below ln 1000 = 6.91.
  EXPECT_NEAR(r.log_likelihood_ratio, 6.75, 1e-12);
  EXPECT_FALSE(r.undone);
  // After 19, 21 (20): t = 10 / se = 8.66, p = 0.0016; ln LR = 2 x 10 x 5 / (4/3) = 75: undone.
  const std::vector<double> far = {19, 21};
  const RevertCheck u = check_revert(old, far, newest, true, two_newest());
  EXPECT_NEAR(u.p_value, upper_tail_t3(10 / std::sqrt(4.0 / 3)), 1e-9);
  EXPECT_NEAR(u.log_likelihood_ratio, 75, 1e-12);
  EXPECT_TRUE(u.undone);
  // The same mirrored (a change that lowered the metric, newest back up): undone too.
  const std::vector<double> mold = {-9, -11}, mfar = {-19, -21}, mnew = {-10, -10};
  const RevertCheck m = check_revert(mold, mfar, mnew, false, two_newest());
  EXPECT_NEAR(m.t, u.t, 1e-12);
  EXPECT_NEAR(m.log_likelihood_ratio, 75, 1e-12);
  EXPECT_TRUE(m.undone);
  // Taken for a change that raised it, the newest lie the wrong way: not undone.
  EXPECT_FALSE(check_revert(mold, mfar, mnew, true, two_newest()).undone);
}

TEST(RevertCheck, TheNewestMustBeWithinTheThresholdOfTheOldLevel) {
  const std::vector<double> old = {9, 11}, after = {19, 21};
  // Clearly below the new level, but 2% above the old one: not undone at a 1% threshold.
  const std::vector<double> partly = {10.2, 10.2};
  const RevertCheck r = check_revert(old, after, partly, true, two_newest());
  EXPECT_LT(r.p_value, 0.01);
  EXPECT_NEAR(r.from_old, 0.02, 1e-12);
  EXPECT_FALSE(r.undone);
  RevertOptions o = two_newest();
  o.threshold = 0.03;
  EXPECT_TRUE(check_revert(old, after, partly, true, o).undone);
}

TEST(RevertCheck, TheNewestMustFavourTheOldLevelByTheLikelihoodRatio) {
  // 20 points 9, 11, ... (10) before, 20 points 11, 13, ... (12) after, newest 10, 10: below
  // the level after (s^2 = 40 / 39, t = 2 / sqrt(s^2 (1/2 + 1/20)) = 2.66, p < 1%) and at the
  // old level, but a step of 2 in a spread of 1 is ln LR = 2 x 2 x 1 / s^2 = 3.9 from 2
  // commits: not 1000 to 1. Four such commits are 4 x 2 x 1 / (40 / 41) = 8.2.
  std::vector<double> old, after;
  for (int i = 0; i < 20; ++i) {
    old.push_back(i % 2 == 0 ? 9 : 11);
    after.push_back(i % 2 == 0 ? 11 : 13);
  }
  const RevertCheck r = check_revert(old, after, std::vector<double>{10, 10}, true, two_newest());
  EXPECT_LT(r.p_value, 0.01);
  EXPECT_NEAR(r.log_likelihood_ratio, 4 / (40.0 / 39), 1e-12);
  EXPECT_FALSE(r.undone);
  RevertOptions four;
  four.newest = 4;
  const RevertCheck u = check_revert(old, after, std::vector<double>{10, 10, 10, 10}, true, four);
  EXPECT_NEAR(u.log_likelihood_ratio, 8 / (40.0 / 41), 1e-12);
  EXPECT_TRUE(u.undone);
}

TEST(RevertCheck, OneOutlyingCommitDoesNotCarryTheMean) {
  // Newest -0.5 and 20.5: their mean 10 is the old level and far below the new one (30), but
  // the second commit is nearer the new level (the midpoint is 20).
  std::vector<double> old, after;
  for (int i = 0; i < 10; ++i) {
    old.push_back(i % 2 == 0 ? 9 : 11);
    after.push_back(i % 2 == 0 ? 29 : 31);
  }
  const std::vector<double> newest = {-0.5, 20.5};
  const RevertCheck r = check_revert(old, after, newest, true, two_newest());
  EXPECT_LT(r.p_value, 0.01);
  EXPECT_DOUBLE_EQ(r.from_old, 0);
  EXPECT_FALSE(r.undone);
  const std::vector<double> both = {9.5, 10.5};
  EXPECT_TRUE(check_revert(old, after, both, true, two_newest()).undone);
}

// An alarm's support: old 9, 11 (10), since 10, 10, 10 (10). Pooled s^2 = (2 + 0) / 3, se =
// sqrt(2/3 (1/3 + 1/2)) = sqrt(5/9). With a 10% threshold the bound is 11: t = 1 / se = 1.342,
// p = 0.136 with 3 degrees of freedom, not below 5%; with 50% the bound is 15: t = 5 / se =
// 6.708, p = 0.0034: the points since do not support a change beyond the threshold.
TEST(SupportCheck, TheLevelSinceWithinTheThresholdByHand) {
  const std::vector<double> old = {9, 11}, since = {10, 10, 10};
  SupportOptions o;
  o.threshold = 0.1;
  const RevertCheck r = check_support(old, 15, since, true, o);
  ASSERT_TRUE(r.examined) << r.why_not;
  EXPECT_DOUBLE_EQ(r.old_level, 10);
  EXPECT_DOUBLE_EQ(r.after_level, 15);
  EXPECT_DOUBLE_EQ(r.newest_level, 10);
  EXPECT_DOUBLE_EQ(r.dof, 3);
  EXPECT_NEAR(r.t, 1 / std::sqrt(5.0 / 9), 1e-12);
  EXPECT_NEAR(r.p_value, upper_tail_t3(1 / std::sqrt(5.0 / 9)), 1e-9);
  EXPECT_FALSE(r.undone);
  o.threshold = 0.5;
  const RevertCheck u = check_support(old, 15, since, true, o);
  EXPECT_NEAR(u.t, 5 / std::sqrt(5.0 / 9), 1e-12);
  EXPECT_NEAR(u.p_value, upper_tail_t3(5 / std::sqrt(5.0 / 9)), 1e-9);
  EXPECT_TRUE(u.undone);
  // A change that lowered the metric: the bound is 5, the same distance the other way.
  const RevertCheck m = check_support(old, 5, since, false, o);
  EXPECT_NEAR(m.t, u.t, 1e-12);
  EXPECT_TRUE(m.undone);
  // The points since at the alarm's level support it; fewer than 3 are not examined.
  EXPECT_FALSE(check_support(old, 15, std::vector<double>{15, 15, 15}, true, o).undone);
  EXPECT_FALSE(check_support(old, 15, std::vector<double>{10, 10}, true, o).examined);
}

TEST(RevertCheck, FewerThanThreeNewestCommitsAreNotExamined) {
  const std::vector<double> old = {9, 11}, after = {19, 21}, two = {10, 10};
  const RevertCheck r = check_revert(old, after, two, true);
  EXPECT_FALSE(r.examined);
  EXPECT_FALSE(r.undone);
  EXPECT_TRUE(check_revert(old, after, std::vector<double>{10, 10, 10}, true).undone);
  EXPECT_FALSE(check_revert(old, {}, std::vector<double>{10, 10, 10}, true).examined);
}

}  // namespace
}  // namespace benchguard::stats
