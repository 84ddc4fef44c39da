#include "stats/outliers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace benchguard::stats {
namespace {

TEST(StatsOutliers, RatioRuleFlagsTenTimesTheMedianInclusive) {
  // Median 8; 80 is exactly ten times it, and the rule is ">= 10".
  const OutlierFlags at = flag_outliers(std::vector<double>{8, 8, 8, 8, 80});
  EXPECT_DOUBLE_EQ(at.median, 8.0);
  EXPECT_EQ(at.indices, (std::vector<std::size_t>{4}));
  EXPECT_EQ(at.rules[4], kOutlierRatio);
  EXPECT_EQ(at.ratio_count, 1u);
  EXPECT_EQ(at.robust_z_count, 0u);

  const double below = std::nextafter(80.0, 0.0);
  const OutlierFlags under = flag_outliers(std::vector<double>{8, 8, 8, 8, below});
  EXPECT_TRUE(under.indices.empty());
}

TEST(StatsOutliers, RatioRuleFlagsTenTimesFasterToo) {
  EXPECT_EQ(flag_outliers(std::vector<double>{8, 8, 8, 8, 0.5}).indices,
            (std::vector<std::size_t>{4}));                                        // 16x faster
  EXPECT_TRUE(flag_outliers(std::vector<double>{8, 8, 8, 8, 1}).indices.empty());  // 8x
}

TEST(StatsOutliers, RatioRuleNeedsPositiveValues) {
  // Median 0: a ratio means nothing, and the spread rule sees 10 as ordinary.
  const OutlierFlags f = flag_outliers(std::vector<double>{-10, -1, 0, 0, 1, 10});
  EXPECT_EQ(f.ratio_count, 0u);
  EXPECT_TRUE(f.indices.empty());
}

TEST(StatsOutliers, RobustZRuleIsStrictAtTenScaledMads) {
  // Median 0 and MAD 1 with or without the last value, so the limit is 10 * 1.4826.
  const double limit = 10.0 * (1.4826 * 1.0);
  std::vector<double> v{-2, -1, -1, 0, 0, 0, 1, 1, limit};
  const OutlierFlags at = flag_outliers(v);
  EXPECT_DOUBLE_EQ(at.median, 0.0);
  EXPECT_DOUBLE_EQ(at.scale, 1.4826);
  EXPECT_FALSE(at.mad_was_zero);
  EXPECT_TRUE(at.indices.empty());

  v.back() = std::nextafter(limit, 100.0);
  const OutlierFlags above = flag_outliers(v);
  EXPECT_EQ(above.indices, (std::vector<std::size_t>{8}));
  EXPECT_EQ(above.rules[8], kOutlierRobustZ);

  v.back() = -std::nextafter(limit, 100.0);  // both tails
  EXPECT_EQ(flag_outliers(v).indices, (std::vector<std::size_t>{8}));
}

TEST(StatsOutliers, BothRulesCanFireOnOneIteration) {
  std::vector<double> v{1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01, 25.0};
  const OutlierFlags f = flag_outliers(v);
  EXPECT_EQ(f.indices, (std::vector<std::size_t>{7}));
  EXPECT_EQ(f.rules[7], kOutlierRatio | kOutlierRobustZ);
  EXPECT_TRUE(f.flagged(7));
  EXPECT_FALSE(f.flagged(0));
}

TEST(StatsOutliers, ZeroMadUsesTheSpreadOfTheValuesThatDiffer) {
  // A coarse timer: most readings identical. One tick away is not an outlier...
  std::vector<double> v(15, 1000.0);
  v.insert(v.end(), {1001.0, 1001.0, 1001.0});
  const OutlierFlags ticks = flag_outliers(v);
  EXPECT_TRUE(ticks.mad_was_zero);
  EXPECT_DOUBLE_EQ(ticks.scale, 1.4826);
  EXPECT_TRUE(ticks.indices.empty());
  // ...but a reading a hundred ticks away is, although far below ten times the median.
  v.push_back(1100.0);
  const OutlierFlags spike = flag_outliers(v);
  EXPECT_EQ(spike.indices, (std::vector<std::size_t>{18}));
  EXPECT_EQ(spike.rules[18], kOutlierRobustZ);
}

TEST(StatsOutliers, AllEqualValuesFlagNothing) {
  const OutlierFlags f = flag_outliers(std::vector<double>(10, 3.0));
  EXPECT_TRUE(f.mad_was_zero);
  EXPECT_DOUBLE_EQ(f.scale, 0.0);
  EXPECT_TRUE(f.indices.empty());
}

TEST(StatsOutliers, EmptyAndNonFiniteInput) {
  const OutlierFlags empty = flag_outliers(std::vector<double>{});
  EXPECT_TRUE(empty.rules.empty());
  EXPECT_TRUE(empty.indices.empty());

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const OutlierFlags f = flag_outliers(std::vector<double>{1, 1.1, nan, 0.9, 1, 50});
  EXPECT_EQ(f.rules.size(), 6u);
  EXPECT_EQ(f.rules[2], kOutlierNone);
  EXPECT_EQ(f.indices, (std::vector<std::size_t>{5}));
  EXPECT_DOUBLE_EQ(f.median, 1.0);
  EXPECT_EQ(f.warnings.size(), 1u);
}

TEST(StatsOutliers, ThresholdsAreOptions) {
  const std::vector<double> v{8, 8, 8, 8, 40};
  EXPECT_TRUE(flag_outliers(v).indices.empty());
  OutlierOptions five;
  five.ratio_threshold = 5;
  EXPECT_EQ(flag_outliers(v, five).indices, (std::vector<std::size_t>{4}));
}

}  // namespace
}  // namespace benchguard::stats
