#include "schedule/order.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
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
    b.variants = {VariantSpec{"A", {"/bin/true"}, "", {}, {}},
                  VariantSpec{"B", {"/bin/true"}, "", {}, {}}};
    s.benchmarks.push_back(b);
  }
  return s;
}

// "xA0 xB0 " for singles; "[xB0 xA0]d " for a duet pair started BA ('s' sync, 'q' sequential).
std::string letters(const std::vector<Step>& order, const Suite& s) {
  std::string out;
  for (const auto& step : order) {
    if (step.warmup()) continue;
    std::string part;
    for (const auto& slot : step.slots) {
      if (!part.empty()) part += " ";
      part += s.benchmarks[slot.benchmark].name +
              s.benchmarks[slot.benchmark].variants[slot.variant].name +
              std::to_string(slot.instance);
    }
    if (step.pair()) {
      const char kind = step.schedule == "duet" ? 'd' : step.schedule == "sync-duet" ? 's' : 'q';
      part = "[" + part + "]" + kind;
    }
    out += part + " ";
  }
  return out;
}

TEST(ScheduleOrder, Sequential) {
  const Suite s = two_by_two(2, 0);
  auto order = make_order(s, "sequential", 1);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(letters(*order, s), "xA0 xA1 xB0 xB1 yA0 yA1 yB0 yB1 ");
  for (const auto& step : *order) EXPECT_EQ(step.schedule, "sequential");
}

TEST(ScheduleOrder, InterleavedRunsRoundsOfEachVariantBalancedABAndBA) {
  const Suite s = two_by_two(10, 1);
  auto order = make_order(s, "interleaved", 7);
  ASSERT_TRUE(order.ok());
  // Warmups first for each benchmark, then rounds: instance i of A and of B next to each other.
  std::map<std::string, int> starts;  // "AB" / "BA" per benchmark
  std::vector<int> measured_of(2, 0);
  for (std::size_t k = 0; k < order->size(); ++k) {
    const Step& step = (*order)[k];
    EXPECT_EQ(step.schedule, "interleaved");
    ASSERT_EQ(step.slots.size(), 1U);
    if (step.warmup()) {
      EXPECT_EQ(measured_of[static_cast<std::size_t>(step.slots[0].benchmark)], 0);
      continue;
    }
    const Slot& slot = step.slots[0];
    if (measured_of[static_cast<std::size_t>(slot.benchmark)]++ % 2 != 0) continue;
    ASSERT_LT(k + 1, order->size());
    const Slot& next = (*order)[k + 1].slots[0];
    EXPECT_EQ(next.benchmark, slot.benchmark);
    EXPECT_EQ(next.instance, slot.instance);
    EXPECT_NE(next.variant, slot.variant);
    ++starts[s.benchmarks[slot.benchmark].name + (slot.variant == 0 ? "AB" : "BA")];
  }
  EXPECT_EQ(measured_of[0], 20);
  EXPECT_EQ(measured_of[1], 20);
  for (const char* key : {"xAB", "xBA", "yAB", "yBA"}) EXPECT_EQ(starts[key], 5) << key;
  // Seeded: the same seed the same order, another seed another.
  auto again = make_order(s, "interleaved", 7);
  auto other = make_order(s, "interleaved", 8);
  ASSERT_TRUE(again.ok() && other.ok());
  EXPECT_EQ(letters(*again, s), letters(*order, s));
  EXPECT_NE(letters(*other, s), letters(*order, s));
}

TEST(ScheduleOrder, InterleavedWithAnOddCountIsOneRoundApartAndOneVariantIsSequential) {
  Suite s = two_by_two(7, 0);
  s.benchmarks[1].variants.resize(1);
  auto order = make_order(s, "interleaved", 3);
  ASSERT_TRUE(order.ok());
  int ab = 0, ba = 0;
  for (std::size_t k = 0; k + 1 < 14; k += 2) {
    const Slot& first = (*order)[k].slots[0];
    (first.variant == 0 ? ab : ba)++;
  }
  EXPECT_EQ(ab + ba, 7);
  EXPECT_LE(std::abs(ab - ba), 1);
  std::string y;
  for (std::size_t k = 14; k < order->size(); ++k)
    y += std::to_string((*order)[k].slots[0].instance);
  EXPECT_EQ(y, "0123456");
}

TEST(ScheduleOrder, InterleavedIsTheDefaultSchedule) {
  EXPECT_EQ(Suite{}.schedule, "interleaved");
  EXPECT_TRUE(is_known_schedule("interleaved"));
  EXPECT_EQ(std::string(kKnownSchedules).rfind("interleaved", 0), 0U);
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
  EXPECT_EQ((*order)[0].slots[0].instance, -2);
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
  for (const auto& step : *a) {
    if (step.warmup()) continue;
    ASSERT_EQ(step.slots.size(), 1u);
    ++measured;
    const auto key = std::make_pair(step.slots[0].benchmark, step.slots[0].variant);
    EXPECT_EQ(step.slots[0].instance, next[key]++);
  }
  EXPECT_EQ(measured, 40);
  // Shuffled across benchmarks: not the sequential order.
  auto seq = make_order(s, "sequential", 42);
  EXPECT_NE(letters(*a, s), letters(*seq, s));
}

TEST(ScheduleOrder, DuetPairsEveryInstanceInARandomStartOrderReproducedBySeed) {
  const Suite s = two_by_two(40, 1);
  auto a = make_order(s, "duet", 7);
  auto again = make_order(s, "duet", 7);
  ASSERT_TRUE(a.ok() && again.ok());
  EXPECT_EQ(letters(*a, s), letters(*again, s));
  // One warmup pair and 40 measured pairs per benchmark, benchmark by benchmark.
  ASSERT_EQ(a->size(), 2u * 41u);
  int ab = 0, ba = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    const Step& step = (*a)[i];
    ASSERT_TRUE(step.pair());
    EXPECT_TRUE(step.concurrent());
    EXPECT_FALSE(step.synchronized());
    EXPECT_EQ(step.slots[0].benchmark, i < 41 ? 0 : 1);
    EXPECT_EQ(step.slots[0].instance, step.slots[1].instance);
    EXPECT_NE(step.slots[0].variant, step.slots[1].variant);
    if (step.warmup()) continue;
    (step.start_order() == "AB" ? ab : ba)++;
  }
  // A fair coin: 80 draws land within 20..60 AB with probability > 0.99999.
  EXPECT_GE(ab, 20);
  EXPECT_GE(ba, 20);
  auto other = make_order(s, "duet", 8);
  ASSERT_TRUE(other.ok());
  EXPECT_NE(letters(*a, s), letters(*other, s));
}

TEST(ScheduleOrder, DuetBalancesStartOrderAndCpuSetsPerBenchmark) {
  // 40 pairs: each (start order, CPU sets) combination exactly 10 times; 42 pairs: 10 or 11.
  for (const int n : {40, 42}) {
    const Suite s = two_by_two(n, 0);
    for (const uint64_t seed : {1u, 2u, 3u}) {
      auto order = make_order(s, "duet", seed);
      ASSERT_TRUE(order.ok());
      int counts[2][4] = {};
      for (const auto& step : *order) {
        const int design = (step.start_order() == "BA" ? 1 : 0) + (step.swap_cpus ? 2 : 0);
        ++counts[step.slots[0].benchmark][design];
      }
      for (const auto& bench : counts)
        for (int c : bench) {
          EXPECT_GE(c, n / 4) << "n " << n << " seed " << seed;
          EXPECT_LE(c, n / 4 + 1) << "n " << n << " seed " << seed;
        }
    }
  }
  // The assignment is random: another seed, another sequence of swaps.
  const Suite s = two_by_two(40, 0);
  auto swaps = [&](uint64_t seed) {
    std::string out;
    const auto order = make_order(s, "duet", seed);
    EXPECT_TRUE(order.ok());
    if (order.ok())
      for (const auto& step : *order) out += step.swap_cpus ? '1' : '0';
    return out;
  };
  EXPECT_EQ(swaps(5), swaps(5));
  EXPECT_NE(swaps(5), swaps(6));
}

TEST(ScheduleOrder, SyncDuetPairsAreSynchronized) {
  const Suite s = two_by_two(2, 0);
  auto order = make_order(s, "sync-duet", 1);
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), 4u);
  for (const auto& step : *order) {
    EXPECT_TRUE(step.synchronized());
    EXPECT_EQ(step.schedule, "sync-duet");
  }
}

TEST(ScheduleOrder, MixedPlanRunsEachKindOfPairAsOftenAsAsked) {
  Suite s = two_by_two(5, 0);
  s.benchmarks[1].duet_repetitions = 3;
  s.benchmarks[1].sync_repetitions = 2;
  s.benchmarks[1].sequential_repetitions = 4;
  auto order = make_order(s, "alternate", 3);
  ASSERT_TRUE(order.ok());
  // x alternates its 5 instances per variant; y runs 9 pairs numbered 0..8.
  ASSERT_EQ(order->size(), 10u + 9u);
  std::map<std::string, int> kinds;
  for (size_t i = 10; i < order->size(); ++i) {
    const Step& step = (*order)[i];
    ASSERT_TRUE(step.pair());
    EXPECT_EQ(step.slots[0].instance, static_cast<int>(i - 10));
    ++kinds[step.schedule];
  }
  EXPECT_EQ(kinds, (std::map<std::string, int>{{"duet", 3}, {"sequential", 4}, {"sync-duet", 2}}));
  EXPECT_FALSE((*order)[0].pair());
}

TEST(ScheduleOrder, SingleVariantRunsAgainstItselfInADuet) {
  Suite s;
  BenchmarkSpec b;
  b.name = "solo";
  b.instances = 2;
  b.variants = {VariantSpec{"default", {"/bin/echo", "hi"}, "/tmp", {{"K", "V"}}, {}}};
  s.benchmarks.push_back(b);
  auto paired = pair_variants(s, "duet");
  ASSERT_TRUE(paired.ok());
  const auto& vs = paired->benchmarks[0].variants;
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].name, "A");
  EXPECT_EQ(vs[1].name, "B");
  EXPECT_EQ(vs[0].command, vs[1].command);
  EXPECT_EQ(vs[1].env, (KeyValues{{"K", "V"}}));
  // Not under a schedule that does not pair.
  auto seq = pair_variants(s, "sequential");
  ASSERT_TRUE(seq.ok());
  EXPECT_EQ(seq->benchmarks[0].variants.size(), 1u);
  // Unpaired, make_order refuses a duet of one.
  EXPECT_FALSE(make_order(s, "duet", 1).ok());
}

TEST(ScheduleOrder, DuetOfThreeVariantsIsAnError) {
  Suite s = two_by_two(1, 0);
  s.benchmarks[0].variants.push_back(VariantSpec{"C", {"/bin/true"}, "", {}, {}});
  auto r = pair_variants(s, "duet");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'x' has 3 variants"), std::string::npos) << r.error().message;
}

TEST(ScheduleOrder, UnknownScheduleIsAnError) {
  auto r = make_order(two_by_two(1, 0), "sideways", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sideways"), std::string::npos);
}

}  // namespace
}  // namespace benchguard::schedule
