#include "core/model.hpp"

#include <gtest/gtest.h>

namespace benchguard {
namespace {

TEST(Model, BuiltinMetricsHaveDirections) {
  ASSERT_NE(find_builtin_metric("wall_time"), nullptr);
  EXPECT_EQ(find_builtin_metric("wall_time")->unit, "s");
  EXPECT_EQ(find_builtin_metric("throughput")->direction, Direction::kHigherIsBetter);
  EXPECT_EQ(find_builtin_metric("no_such_metric"), nullptr);
}

TEST(Model, IterationMetricLookup) {
  IterationRecord it;
  it.metrics = {{"wall_time", 0.5}, {"cycles", 10}};
  EXPECT_DOUBLE_EQ(*it.metric("cycles"), 10);
  EXPECT_FALSE(it.metric("instructions").has_value());
}

}  // namespace
}  // namespace benchguard
