#include "analysis/samples.hpp"

#include <gtest/gtest.h>

namespace benchguard::analysis {
namespace {

// An instance whose iterations take the given wall times; the first `burn_in` flagged.
InstanceRecord instance(std::vector<double> times, int burn_in = 0) {
  InstanceRecord inst;
  for (size_t i = 0; i < times.size(); ++i) {
    IterationRecord it;
    it.index = static_cast<int>(i);
    it.burn_in = static_cast<int>(i) < burn_in;
    it.metrics = {{"wall_time", times[i]}, {"cycles", 100 * times[i]}};
    inst.iterations.push_back(it);
  }
  return inst;
}

VariantData variant(std::vector<InstanceRecord> instances) {
  VariantData v;
  v.variant.benchmark = "b";
  v.variant.name = "A";
  v.instances = std::move(instances);
  return v;
}

TEST(AnalysisSamples, ConfiguredBurnInAndFailuresAreLeftOut) {
  auto failed = instance({9, 9, 9});
  failed.failure = "exit code 1";
  auto with_bad_iteration = instance({1, 2, 3});
  with_bad_iteration.iterations[2].failure = "oops";
  const auto v = variant({instance({5, 1, 1}, 1), failed, with_bad_iteration});
  BurnInPolicy p;
  p.mode = BurnInPolicy::Mode::kConfigured;
  const auto s = extract(v, "wall_time", p);
  EXPECT_EQ(s.instances_ok, 2);
  EXPECT_EQ(s.instances_failed, 1);
  EXPECT_EQ(s.configured_burn_in, 1u);
  ASSERT_EQ(s.data.instances(), 2u);
  EXPECT_EQ(s.data.size(), 4u);  // {1,1} and {1,2}
  EXPECT_DOUBLE_EQ(s.data.instance(1)[1], 2);
}

TEST(AnalysisSamples, FixedBurnInIgnoresFlags) {
  const auto v = variant({instance({5, 4, 1, 1}, 3)});
  BurnInPolicy p;
  p.mode = BurnInPolicy::Mode::kFixed;
  p.fixed = 1;
  const auto s = extract(v, "wall_time", p);
  EXPECT_EQ(s.data.size(), 3u);
  EXPECT_DOUBLE_EQ(s.data.instance(0)[0], 4);
}

TEST(AnalysisSamples, AutoDetectsAWarmupThePlanDidNotFlag) {
  // 40 iterations: 8 slow ones (2.0), then a flat 1.0 with a little deterministic noise.
  std::vector<InstanceRecord> instances;
  for (int k = 0; k < 6; ++k) {
    std::vector<double> t;
    for (int i = 0; i < 40; ++i) t.push_back((i < 8 ? 2.0 : 1.0) + 0.002 * ((i * 7 + k) % 5));
    instances.push_back(instance(t));
  }
  const auto v = variant(instances);
  const auto s = extract(v, "wall_time", BurnInPolicy{});
  ASSERT_TRUE(s.steady.has_value());
  EXPECT_EQ(s.detected_burn_in, 8u);
  EXPECT_EQ(s.data.size(), 6u * 32u);
  EXPECT_LT(s.data.instance(0)[0], 1.1);

  BurnInPolicy configured;
  configured.mode = BurnInPolicy::Mode::kConfigured;
  const auto as_configured = extract(v, "wall_time", configured);
  EXPECT_EQ(as_configured.data.size(), 6u * 40u);
  // A configured burn-in is taken as given: no detection runs.
  EXPECT_FALSE(as_configured.steady.has_value());
  EXPECT_EQ(as_configured.detected_burn_in, 0u);
}

// B warms up for 8 iterations, A does not: both sides of the comparison leave out B's 8, so
// they are compared over the same iterations, and the row says so.
TEST(AnalysisSamples, BothSidesShareOneBurnIn) {
  std::vector<InstanceRecord> warm, flat;
  for (int k = 0; k < 6; ++k) {
    std::vector<double> t, u;
    for (int i = 0; i < 40; ++i) {
      const double noise = 0.002 * ((i * 7 + k) % 5);
      t.push_back((i < 8 ? 2.0 : 1.0) + noise);
      u.push_back(1.0 + noise);
    }
    warm.push_back(instance(t));
    flat.push_back(instance(u));
  }
  const auto va = variant(flat), vb = variant(warm);
  auto a = extract(va, "wall_time", BurnInPolicy{});
  auto b = extract(vb, "wall_time", BurnInPolicy{});
  ASSERT_EQ(a.detected_burn_in, 0u);
  ASSERT_EQ(b.detected_burn_in, 8u);
  const std::string note = share_burn_in(a, b);
  EXPECT_NE(note.find("0 leading iterations of A's instances and 8 of B's"), std::string::npos)
      << note;
  EXPECT_EQ(a.detected_burn_in, 8u);
  EXPECT_EQ(a.data.size(), 6u * 32u);
  EXPECT_EQ(b.data.size(), 6u * 32u);
  EXPECT_DOUBLE_EQ(a.data.instance(0)[0], a.series.instance(0)[8]);
  // The same burn-in on both sides: nothing to say.
  EXPECT_EQ(share_burn_in(a, b), "");
}

TEST(AnalysisSamples, ShortSeriesSkipDetection) {
  const auto s = extract(variant({instance({3, 1, 1}), instance({3, 1, 1})}), "wall_time", {});
  EXPECT_FALSE(s.steady.has_value());
  EXPECT_EQ(s.detected_burn_in, 0u);
  EXPECT_EQ(s.data.size(), 6u);
}

TEST(AnalysisSamples, MetricsAndTheirDirections) {
  const auto v = variant({instance({1, 2})});
  const auto names = metrics_of(v);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "wall_time");
  EXPECT_EQ(metric_info("throughput").direction, Direction::kHigherIsBetter);
  EXPECT_EQ(metric_info("my_custom").direction, Direction::kLowerIsBetter);
  EXPECT_DOUBLE_EQ(extract(v, "cycles", {}).data.instance(0)[1], 200);
}

// The memory of an instance measured from outside: mem_samples > 0 (sampled), or ru_maxrss
// at or below the launch floor when `at_floor`.
InstanceRecord with_memory(InstanceRecord in, double peak_mib, bool at_floor = false) {
  constexpr int64_t kMiB = 1 << 20;
  in.rss_floor_bytes = 17 * kMiB;
  in.max_rss_bytes = at_floor ? 16 * kMiB : static_cast<int64_t>(peak_mib * kMiB);
  in.mem_peak_bytes = at_floor ? in.max_rss_bytes : static_cast<int64_t>(peak_mib * kMiB);
  in.mem_avg_bytes = static_cast<double>(in.mem_peak_bytes) / 2;
  in.mem_samples = at_floor ? 0 : 5;
  return in;
}

TEST(AnalysisSamples, ABenchmarkReportingIterationsHasTheMemoryOfItsInstances) {
  const auto v =
      variant({with_memory(instance({1, 1, 1}), 3.0), with_memory(instance({1, 1}), 4.0)});
  const auto names = metrics_of(v);
  EXPECT_EQ(names, (std::vector<std::string>{"wall_time", "cycles", "max_rss", "peak_memory",
                                             "avg_memory"}));
  EXPECT_TRUE(from_instances(v, "peak_memory"));
  EXPECT_FALSE(from_instances(v, "wall_time"));
  const auto s = extract(v, "peak_memory", {});
  ASSERT_EQ(s.data.instances(), 2u);  // one value an instance, not one an iteration
  EXPECT_EQ(s.data.size(), 2u);
  EXPECT_DOUBLE_EQ(s.data.instance(1)[0], 4.0 * (1 << 20));
  EXPECT_EQ(s.instances_at_floor, 0u);
  // An imported benchmark without any memory measured has none.
  EXPECT_EQ(metrics_of(variant({instance({1, 2})})),
            (std::vector<std::string>{"wall_time", "cycles"}));
  EXPECT_TRUE(extract(variant({instance({1, 2})}), "peak_memory", {}).data.empty());
}

TEST(AnalysisSamples, MemoryAtTheLaunchFloorIsCountedAndLeftOut) {
  auto outside = [](double wall) {
    InstanceRecord in;
    in.timed_outside = true;
    in.end_ns = static_cast<int64_t>(wall * 1e9);
    return in;
  };
  std::vector<InstanceRecord> ins = {with_memory(outside(0.05), 5.0),
                                     with_memory(outside(0.001), 0, true),
                                     with_memory(outside(0.001), 0, true)};
  for (auto& in : ins) in.iterations.push_back(outside_iteration(in));
  const auto v = variant(ins);
  for (const char* m : {"peak_memory", "avg_memory"}) {
    const auto s = extract(v, m, {});
    EXPECT_EQ(s.instances_at_floor, 2u) << m;
    EXPECT_EQ(s.launch_floor_bytes, 17 << 20) << m;
    EXPECT_EQ(s.data.instances(), 1u) << m;
  }
  // ru_maxrss of a 5 MiB program is below the launcher's 17 MiB: sampled or not, at the floor.
  EXPECT_EQ(extract(v, "max_rss", {}).instances_at_floor, 3u);
  EXPECT_TRUE(extract(v, "max_rss", {}).data.empty());
  // Wall time is not memory: every instance counts.
  EXPECT_EQ(extract(v, "wall_time", {}).data.instances(), 3u);
  EXPECT_EQ(extract(v, "wall_time", {}).instances_at_floor, 0u);
}

}  // namespace
}  // namespace benchguard::analysis
