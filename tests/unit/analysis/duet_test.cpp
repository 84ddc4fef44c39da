// From stored duet runs to paired iterations, and the injected slowdown on a timeline.
#include "analysis/duet.hpp"

#include <gtest/gtest.h>

#include "analysis/compare.hpp"

namespace benchguard::analysis {
namespace {

// An instance whose iterations last `durations` (ns), back to back from `start`.
InstanceRecord instance(int index, int64_t order, const std::string& schedule, int64_t start,
                        const std::vector<int64_t>& durations, int burn_in = 0) {
  InstanceRecord in;
  in.index = index;
  in.order = order;
  in.schedule = schedule;
  in.exit_code = 0;
  in.start_ns = start;
  int64_t t = start;
  for (size_t k = 0; k < durations.size(); ++k) {
    IterationRecord it;
    it.index = static_cast<int>(k);
    it.start_ns = t;
    it.end_ns = t + durations[k];
    it.burn_in = static_cast<int>(k) < burn_in;
    it.metrics = {{"wall_time", static_cast<double>(durations[k]) * 1e-9}};
    in.iterations.push_back(it);
    t = it.end_ns;
  }
  in.end_ns = t;
  return in;
}

VariantData variant(const std::string& name, std::vector<InstanceRecord> instances) {
  VariantData v;
  v.variant.benchmark = "bench";
  v.variant.name = name;
  v.instances = std::move(instances);
  return v;
}

BurnInPolicy configured() {
  BurnInPolicy p;
  p.mode = BurnInPolicy::Mode::kConfigured;
  return p;
}

TEST(AnalysisDuet, PairsConcurrentInstancesByOrderAndIterationsByOverlap) {
  // Run 0: B's iterations are 10% longer, so B drifts a little further behind A with every
  // iteration. Run 1: a sequential pair, never paired. Run 2: like run 0 but B started 5 ns
  // later, with one burn-in iteration each.
  const std::vector<int64_t> a100(5, 100), b110(5, 110);
  const auto a =
      variant("A", {instance(0, 0, "duet", 0, a100), instance(1, 1, "sequential", 0, a100),
                    instance(2, 2, "sync-duet", 1000, a100, 1)});
  const auto b =
      variant("B", {instance(0, 0, "duet", 0, b110), instance(1, 1, "sequential", 0, b110),
                    instance(2, 2, "sync-duet", 1005, b110, 1)});
  ASSERT_TRUE(has_duet_pairs(a, b));
  const DuetPairing p = pair_duet(a, b, "wall_time", configured(), 0.4);
  ASSERT_EQ(p.runs.size(), 2u);
  // Run 0: overlaps of 100, 90, 80, 70, 60 ns all pass 40% of 110 (44).
  EXPECT_EQ(p.runs[0].a.size(), 5u);
  // Run 2 without burn-in: A [1100,1200)... B [1115,1225)...: overlaps 85, 75, 65, 55.
  EXPECT_EQ(p.runs[1].a.size(), 4u);
  EXPECT_EQ(p.paired, 9u);
  EXPECT_EQ(p.unpaired_a, 0u);
  EXPECT_EQ(p.unpaired_b, 0u);
  for (const auto& run : p.runs)
    for (size_t k = 0; k < run.a.size(); ++k) EXPECT_NEAR(run.b[k] / run.a[k], 1.1, 1e-12);

  // At 80% only the first iterations of each run still pair: run 0 overlaps 100, 90, 80 of
  // 110 (91%, 82%, 73%); run 2 overlaps 85 (77%).
  const DuetPairing strict = pair_duet(a, b, "wall_time", configured(), 0.8);
  EXPECT_EQ(strict.paired, 2u);
  EXPECT_EQ(strict.unpaired_a, 7u);
}

TEST(AnalysisDuet, FailedInstancesAndLoneInstancesDoNotPair) {
  auto failed = instance(1, 1, "duet", 0, {100, 100});
  failed.failure = "exit code 1";
  const auto a = variant(
      "A", {instance(0, 0, "duet", 0, {100, 100}), failed, instance(2, 5, "duet", 0, {100})});
  const auto b =
      variant("B", {instance(0, 0, "duet", 0, {100, 100}), instance(1, 1, "duet", 0, {100, 100}),
                    instance(2, 6, "duet", 0, {100})});
  const DuetPairing p = pair_duet(a, b, "wall_time", configured());
  // Orders 0 and 1 pair as instances; 1 failed; 5 and 6 have no partner.
  ASSERT_EQ(p.runs.size(), 1u);
  EXPECT_EQ(p.paired, 2u);
  EXPECT_FALSE(has_duet_pairs(variant("A", {instance(0, 0, "duet", 0, {1})}),
                              variant("B", {instance(0, 0, "duet", 0, {1})})));
}

TEST(AnalysisDuet, InjectedSlowdownStretchesIterationsAndShiftsTheRest) {
  const auto v = variant("B", {instance(0, 0, "duet", 1000, {100, 200, 100})});
  const VariantData slow = with_slowdown(v, 0.10);
  const auto& its = slow.instances[0].iterations;
  // 100 -> 110 from 1000; 200 -> 220 from 1110; 100 -> 110 from 1330.
  EXPECT_EQ(its[0].start_ns, 1000);
  EXPECT_EQ(its[0].end_ns, 1110);
  EXPECT_EQ(its[1].start_ns, 1110);
  EXPECT_EQ(its[1].end_ns, 1330);
  EXPECT_EQ(its[2].start_ns, 1330);
  EXPECT_EQ(its[2].end_ns, 1440);
  EXPECT_EQ(slow.instances[0].end_ns, 1440);
  EXPECT_NEAR(*its[1].metric("wall_time"), 220e-9, 1e-18);
  // Other metrics are left alone unless named.
  auto with_memory = v;
  with_memory.instances[0].iterations[0].metrics.emplace_back("peak_memory", 5.0);
  EXPECT_EQ(with_slowdown(with_memory, 0.5).instances[0].iterations[0].metric("peak_memory"), 5.0);
}

TEST(AnalysisDuet, SlowdownInADuetMovesOverlapsAsTheyWouldHaveMoved) {
  // Identical sides pair every iteration; B 50% slower drifts out of step.
  const std::vector<int64_t> d(10, 100);
  std::vector<InstanceRecord> as, bs;
  for (int r = 0; r < 3; ++r) {
    as.push_back(instance(r, r, "duet", r * 10000, d));
    bs.push_back(instance(r, r, "duet", r * 10000, d));
  }
  const auto a = variant("A", as), b = variant("B", bs);
  EXPECT_EQ(pair_duet(a, b, "wall_time", configured()).paired, 30u);
  const auto slowed = with_slowdown(b, 0.5);
  const DuetPairing p = pair_duet(a, slowed, "wall_time", configured());
  EXPECT_LT(p.paired, 30u);
  EXPECT_GT(p.unpaired_a, 0u);
  for (const auto& run : p.runs)
    for (size_t k = 0; k < run.a.size(); ++k) EXPECT_NEAR(run.b[k] / run.a[k], 1.5, 1e-12);
}

TEST(AnalysisDuet, CompareUsesTheDuetAnalysisForConcurrentRunsUnlessToldNot) {
  std::vector<InstanceRecord> as, bs;
  for (int r = 0; r < 6; ++r) {
    std::vector<int64_t> da, db;
    for (int k = 0; k < 10; ++k) {
      // Shared machine noise: both sides of run r slow down together by r * 10%.
      const int64_t base = 1000 + 100 * r;
      da.push_back(base);
      db.push_back(base * 105 / 100);
    }
    as.push_back(instance(r, r, "duet", r * 100000, da));
    bs.push_back(instance(r, r, "duet", r * 100000, db));
  }
  const auto a = variant("A", as), b = variant("B", bs);
  CompareOptions o;
  o.burn_in.mode = BurnInPolicy::Mode::kConfigured;
  o.verdict.resamples = 500;
  const auto report = compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o);
  ASSERT_EQ(report.metrics.size(), 1u);
  const auto& row = report.metrics[0].rows.at(0);
  ASSERT_TRUE(row.duet.has_value());
  EXPECT_EQ(row.duet->runs, 6u);
  EXPECT_NEAR(row.result.ratio.value, 1.05, 1e-3);
  // Every run's ratio is 1.05 (up to integer rounding): the interval is a point.
  EXPECT_LT(row.result.ratio.ci.upper - row.result.ratio.ci.lower, 1e-3);
  EXPECT_EQ(row.result.verdict, stats::Verdict::kSlower);

  o.duet = false;
  const auto plain = compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o);
  const auto& prow = plain.metrics[0].rows.at(0);
  EXPECT_FALSE(prow.duet.has_value());
  // As independent instances the machine's phases spread the interval wide.
  EXPECT_GT(prow.result.ratio.ci.upper - prow.result.ratio.ci.lower, 0.1);
}

}  // namespace
}  // namespace benchguard::analysis
