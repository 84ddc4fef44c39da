// Tests for src/stats/descriptive.cpp and src/stats/hierarchical.cpp: hand-computed values.
#include "stats/descriptive.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/hierarchical.hpp"

namespace benchguard::stats {
namespace {

const std::vector<double> kEight{2, 4, 4, 4, 5, 5, 7, 9};

TEST(StatsDescriptive, MeanVarianceStdevCv) {
  EXPECT_DOUBLE_EQ(mean(kEight), 5.0);
  // Squared deviations 9+1+1+1+0+0+4+16 = 32 over n - 1 = 7.
  EXPECT_DOUBLE_EQ(variance(kEight), 32.0 / 7.0);
  EXPECT_DOUBLE_EQ(stdev(kEight), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(cv(kEight), std::sqrt(32.0 / 7.0) / 5.0);
  EXPECT_DOUBLE_EQ(min(kEight), 2.0);
  EXPECT_DOUBLE_EQ(max(kEight), 9.0);
}

TEST(StatsDescriptive, VarianceSurvivesLargeOffset) {
  const std::vector<double> x{1e9 + 1, 1e9 + 2, 1e9 + 3};
  EXPECT_DOUBLE_EQ(variance(x), 1.0);
}

TEST(StatsDescriptive, MedianAndMad) {
  EXPECT_DOUBLE_EQ(median(kEight), 4.5);
  // |x - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5 -> median 0.5
  EXPECT_DOUBLE_EQ(mad(kEight), 0.5);
  EXPECT_DOUBLE_EQ(mad_scaled(kEight), 0.5 * 1.482602218505602);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{3, 1, 2}), 2.0);
}

// R: quantile(c(7, 1, 3, 2), c(0, .25, .5, .9, 1)) = 1, 1.75, 2.5, 5.8, 7 (type 7).
TEST(StatsDescriptive, QuantileIsHyndmanFanType7) {
  const std::vector<double> x{7, 1, 3, 2};
  EXPECT_DOUBLE_EQ(quantile(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(x, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(x, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile(x, 0.9), 5.8);
  EXPECT_DOUBLE_EQ(quantile(x, 1.0), 7.0);
  EXPECT_DOUBLE_EQ(quantile(x, 1.5), 7.0);  // clamped
  std::vector<double> ten;
  for (int i = 1; i <= 10; ++i) ten.push_back(i);
  EXPECT_DOUBLE_EQ(quantile_sorted(ten, 0.25), 3.25);
  EXPECT_DOUBLE_EQ(quantile_sorted(ten, 0.1), 1.9);
}

TEST(StatsDescriptive, GeometricMean) {
  EXPECT_DOUBLE_EQ(geometric_mean(std::vector<double>{1, 2, 4, 8}), 2.0 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(geometric_mean(std::vector<double>{10, 0.1}), 1.0);
  EXPECT_TRUE(std::isnan(geometric_mean(std::vector<double>{1, 0, 2})));
  EXPECT_TRUE(std::isnan(geometric_mean(std::vector<double>{1, -2})));
}

TEST(StatsDescriptive, EmptyAndTooSmallGiveNaN) {
  const std::vector<double> none, one{3.0};
  EXPECT_TRUE(std::isnan(mean(none)));
  EXPECT_TRUE(std::isnan(median(none)));
  EXPECT_TRUE(std::isnan(quantile(none, 0.5)));
  EXPECT_TRUE(std::isnan(mad(none)));
  EXPECT_TRUE(std::isnan(min(none)));
  EXPECT_TRUE(std::isnan(stdev(one)));
  EXPECT_DOUBLE_EQ(median(one), 3.0);
}

// CVs: {1,2,3} 0.5, {2,4,6} 0.5, {10,10,10} 0. Within variances 1, 4, 0 with 2 dof each.
TEST(StatsDescriptive, InstanceVariabilityAndPooledCv) {
  const Hierarchical data({{1, 2, 3}, {2, 4, 6}, {10, 10, 10}});
  const auto v = instance_variability(data);
  EXPECT_EQ(v.instances, 3u);
  EXPECT_DOUBLE_EQ(v.mean_cv, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(v.sd_cv, std::sqrt(1.0 / 12.0));
  // sqrt((2 * 1 + 2 * 4 + 0) / 6) / (48 / 9)
  EXPECT_DOUBLE_EQ(pooled_cv(data), std::sqrt(10.0 / 6.0) / (48.0 / 9.0));
}

// 1 - (without / with)^2: a spread of 3% that is 1% without the cause owes 8/9 of its
// variance to it; clamped where noise makes the spread without the cause the larger.
TEST(StatsDescriptive, VarianceShare) {
  EXPECT_DOUBLE_EQ(variance_share(0.01, 0.03), 8.0 / 9.0);
  EXPECT_DOUBLE_EQ(variance_share(0.03, 0.03), 0.0);
  EXPECT_DOUBLE_EQ(variance_share(0.04, 0.03), 0.0);
  EXPECT_DOUBLE_EQ(variance_share(0.0, 0.02), 1.0);
  EXPECT_TRUE(std::isnan(variance_share(0.01, 0.0)));
  EXPECT_TRUE(std::isnan(variance_share(std::nan(""), 0.02)));
}

TEST(StatsDescriptive, VariabilitySkipsSingleIterationInstances) {
  const Hierarchical data({{5}, {1, 3}});
  const auto v = instance_variability(data);
  EXPECT_EQ(v.instances, 1u);
  EXPECT_DOUBLE_EQ(v.mean_cv, std::sqrt(2.0) / 2.0);
  EXPECT_TRUE(std::isnan(v.sd_cv));
}

TEST(StatsHierarchical, LayoutAndHelpers) {
  Hierarchical data({{1, 2, 3}, {}, {4, 5}});
  EXPECT_EQ(data.instances(), 2u);  // the empty instance is dropped
  EXPECT_EQ(data.size(), 5u);
  EXPECT_FALSE(data.balanced());
  ASSERT_EQ(data.offsets().size(), 3u);
  EXPECT_EQ(data.offsets()[1], 3u);
  EXPECT_EQ(data.instance(1)[1], 5.0);
  EXPECT_EQ(instance_means(data), (std::vector<double>{2.0, 4.5}));

  const auto steady = drop_leading(data, 2);
  EXPECT_EQ(steady.instances(), 1u);  // the second instance had only 2 iterations
  EXPECT_EQ(steady.instance(0)[0], 3.0);

  const auto doubled = scaled(data, 2.0);
  EXPECT_EQ(doubled.instance(1)[0], 8.0);
  EXPECT_TRUE(Hierarchical({{1, 2}, {3, 4}}).balanced());
}

TEST(StatsHierarchical, FromPartsEqualsInstancesAddedOneByOne) {
  const auto parts = Hierarchical::from_parts({1, 2, 3, 4, 5}, {0, 3, 5});
  const Hierarchical added({{1, 2, 3}, {4, 5}});
  EXPECT_TRUE(std::equal(parts.values().begin(), parts.values().end(), added.values().begin(),
                         added.values().end()));
  EXPECT_TRUE(std::equal(parts.offsets().begin(), parts.offsets().end(), added.offsets().begin(),
                         added.offsets().end()));
  EXPECT_EQ(parts.instances(), 2u);
  // Parts that do not describe instances (an empty one, an end that is not the size, not
  // starting at 0) give none, as an empty Hierarchical has.
  for (const auto& offsets :
       std::vector<std::vector<std::size_t>>{{0, 3, 3, 5}, {0, 3, 4}, {1, 3, 5}, {}, {0, 5, 3}}) {
    const auto bad = Hierarchical::from_parts({1, 2, 3, 4, 5}, offsets);
    EXPECT_EQ(bad.instances(), 0u);
    EXPECT_TRUE(bad.empty());
  }
  EXPECT_EQ(Hierarchical::from_parts({}, {0}).instances(), 0u);
}

TEST(StatsHierarchical, EmptyOnesHaveNoInstancesAndOffsetsZero) {
  Hierarchical made;
  Hierarchical moved({{1, 2}, {3}});
  const Hierarchical taken = std::move(moved);
  // NOLINTNEXTLINE(bugprone-use-after-move): what a moved-from one says is the point here
  for (const Hierarchical* h : {&made, &moved}) {
    EXPECT_EQ(h->instances(), 0u);
    EXPECT_TRUE(h->empty());
    ASSERT_EQ(h->offsets().size(), 1u);
    EXPECT_EQ(h->offsets()[0], 0u);
    EXPECT_TRUE(h->balanced());
    EXPECT_TRUE(instance_means(*h).empty());
  }
  EXPECT_EQ(taken.instances(), 2u);
  // Instances added to one made empty delimit as those of one made from them.
  made.add_instance(std::vector<double>{1, 2});
  made.add_instance(std::vector<double>{});
  made.add_instance(std::vector<double>{3});
  EXPECT_EQ(made.instances(), 2u);
  EXPECT_EQ(std::vector<std::size_t>(made.offsets().begin(), made.offsets().end()),
            (std::vector<std::size_t>{0, 2, 3}));
  EXPECT_EQ(made.instance(1).front(), 3.0);
}

}  // namespace
}  // namespace benchguard::stats
