#include "schedule/order.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace benchguard::schedule {
namespace {

Suite two_by_two(int instances, int warmup) {
  Suite s;
  for (const char* name : {"x", "y"}) {
    BenchmarkSpec b;
    b.name = name;
    b.instances = instances;
    b.warmup = warmup;
    b.variants = {VariantSpec{"A", {"/bin/true"}, "", {}}, VariantSpec{"B", {"/bin/true"}, "", {}}};
    s.benchmarks.push_back(b);
  }
  return s;
}

std::string letters(const std::vector<Slot>& order, const Suite& s) {
  std::string out;
  for (const auto& slot : order) {
    if (slot.warmup()) continue;
    out += s.benchmarks[slot.benchmark].name +
           s.benchmarks[slot.benchmark].variants[slot.variant].name;
    out += std::to_string(slot.instance) + " ";
  }
  return out;
}

TEST(ScheduleOrder, Sequential) {
  const Suite s = two_by_two(2, 0);
  auto order = make_order(s, "sequential", 1);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(letters(*order, s), "xA0 xA1 xB0 xB1 yA0 yA1 yB0 yB1 ");
}

TEST(ScheduleOrder, AlternateInterleavesVariants) {
  const Suite s = two_by_two(2, 0);
  auto order = make_order(s, "alternate", 1);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(letters(*order, s), "xA0 xB0 xA1 xB1 yA0 yB0 yA1 yB1 ");
}

TEST(ScheduleOrder, WarmupsComeFirstPerVariant) {
  const Suite s = two_by_two(1, 2);
  auto order = make_order(s, "sequential", 1);
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), 2u * 2u * 3u);
  EXPECT_TRUE((*order)[0].warmup());
  EXPECT_EQ((*order)[0].instance, -2);
  EXPECT_TRUE((*order)[1].warmup());
  EXPECT_FALSE((*order)[2].warmup());
}

TEST(ScheduleOrder, RandomizedIsAPermutationReproducedBySeed) {
  const Suite s = two_by_two(10, 1);
  auto a = make_order(s, "randomized", 42);
  auto b = make_order(s, "randomized", 42);
  auto c = make_order(s, "randomized", 43);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(letters(*a, s), letters(*b, s));
  EXPECT_NE(letters(*a, s), letters(*c, s));
  // Every (benchmark, variant) gets instances 0..9 exactly once, numbered in run order.
  std::map<std::pair<int, int>, int> next;
  int measured = 0;
  for (const auto& slot : *a) {
    if (slot.warmup()) continue;
    ++measured;
    const auto key = std::make_pair(slot.benchmark, slot.variant);
    EXPECT_EQ(slot.instance, next[key]++);
  }
  EXPECT_EQ(measured, 40);
  // Shuffled across benchmarks: not the sequential order.
  auto seq = make_order(s, "sequential", 42);
  EXPECT_NE(letters(*a, s), letters(*seq, s));
}

TEST(ScheduleOrder, UnknownScheduleIsAnError) {
  auto r = make_order(two_by_two(1, 0), "sideways", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sideways"), std::string::npos);
}

}  // namespace
}  // namespace benchguard::schedule
