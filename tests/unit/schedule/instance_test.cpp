#include "schedule/instance.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <set>
#include <string>

namespace benchguard::schedule {
namespace {

measure::LaunchResult launched(int exit_code, int sig = 0, bool timed_out = false) {
  measure::LaunchResult r;
  r.start_ns = 1000;
  r.end_ns = 1000 + 2'000'000;
  r.exit_code = exit_code;
  r.signal = sig;
  r.timed_out = timed_out;
  r.user_s = 0.001;
  r.sys_s = 0.0005;
  r.max_rss_bytes = 4096;
  return r;
}

TEST(ScheduleInstance, OutsideTimingGivesOneIterationWithResourceMetrics) {
  BenchmarkSpec b;
  const auto rec = make_instance_record(b, 3, launched(0), {}, "", 0);
  EXPECT_TRUE(rec.ok());
  EXPECT_EQ(rec.index, 3);
  ASSERT_EQ(rec.iterations.size(), 1u);
  EXPECT_DOUBLE_EQ(*rec.iterations[0].metric("wall_time"), 0.002);
  EXPECT_DOUBLE_EQ(*rec.iterations[0].metric("cpu_time"), 0.0015);
  EXPECT_DOUBLE_EQ(*rec.iterations[0].metric("max_rss"), 4096);
  EXPECT_FALSE(rec.iterations[0].metric("instructions").has_value());
}

TEST(ScheduleInstance, FailuresAreDescribed) {
  BenchmarkSpec b;
  EXPECT_EQ(make_instance_record(b, 0, launched(4), {}, "", 0).failure, "exit code 4");
  EXPECT_EQ(make_instance_record(b, 0, launched(-1, SIGSEGV), {}, "", 0).failure,
            "killed by signal 11 (SIGSEGV)");
  const auto t = make_instance_record(b, 0, launched(-1, SIGKILL, true), {}, "", 2.5);
  EXPECT_EQ(t.failure, "timed out after 2.5 s");
  EXPECT_TRUE(t.timed_out);
  EXPECT_TRUE(t.iterations[0].timed_out);
  EXPECT_EQ(make_instance_record(b, 0, launched(0), {}, "r.jsonl:2: bad", 0).failure,
            "bad results: r.jsonl:2: bad");
}

TEST(ScheduleInstance, ConfiguredBurnInFlagsLeadingReportedIterations) {
  BenchmarkSpec b;
  b.burn_in = 2;
  std::vector<IterationRecord> reported(4);
  for (int i = 0; i < 4; ++i) reported[i].index = i;
  const auto rec = make_instance_record(b, 0, launched(0), reported, "", 0);
  ASSERT_EQ(rec.iterations.size(), 4u);
  EXPECT_TRUE(rec.iterations[0].burn_in);
  EXPECT_TRUE(rec.iterations[1].burn_in);
  EXPECT_FALSE(rec.iterations[2].burn_in);
}

TEST(ScheduleInstance, EnvironmentTellsTheBenchmarkWhatToDo) {
  BenchmarkSpec b;
  b.name = "sort/n=10";
  b.iterations = 7;
  b.burn_in = 3;
  VariantSpec v;
  v.name = "B";
  v.env = {{"X", "1"}};
  const auto env = instance_env(b, v, 4, "/tmp/r.jsonl");
  auto get = [&](const std::string& k) {
    for (const auto& [key, value] : env)
      if (key == k) return value;
    return std::string("<unset>");
  };
  EXPECT_EQ(get("X"), "1");
  EXPECT_EQ(get("BENCHGUARD_RESULTS"), "/tmp/r.jsonl");
  EXPECT_EQ(get("BENCHGUARD_ITERATIONS"), "10");
  EXPECT_EQ(get("BENCHGUARD_BURN_IN"), "3");
  EXPECT_EQ(get("BENCHGUARD_VARIANT"), "B");
  EXPECT_EQ(get("BENCHGUARD_INSTANCE"), "4");
}

std::string value_of(const KeyValues& env, const std::string& k) {
  for (const auto& [key, value] : env)
    if (key == k) return value;
  return "<unset>";
}

// Randomized: a pad of 0..4095 bytes and a heap offset, a multiple of 16 below 4096, drawn
// from the seed alone.
TEST(ScheduleInstance, RandomizedLayoutDrawsFromTheSeed) {
  std::set<std::size_t> pads;
  std::set<std::string> heaps;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    KeyValues env;
    measure::LaunchSpec spec;
    apply_layout("randomized", seed, env, spec);
    EXPECT_FALSE(spec.fixed_layout);
    const std::string pad = value_of(env, "BENCHGUARD_LAYOUT_PAD");
    ASSERT_NE(pad, "<unset>");
    EXPECT_LT(pad.size(), 4096U);
    pads.insert(pad.size());
    const int heap = std::stoi(value_of(env, "BENCHGUARD_HEAP_OFFSET"));
    EXPECT_EQ(heap % 16, 0);
    EXPECT_GE(heap, 0);
    EXPECT_LT(heap, 4096);
    heaps.insert(value_of(env, "BENCHGUARD_HEAP_OFFSET"));

    KeyValues again;
    apply_layout("randomized", seed, again, spec);
    EXPECT_EQ(again, env);  // the same seed, the same layout
  }
  EXPECT_GT(pads.size(), 150U);   // 200 draws of 4096 values: nearly all distinct
  EXPECT_GT(heaps.size(), 100U);  // of 256
}

// Fixed: address randomization off, and benchguard's own variables padded to the same room
// modulo a page whatever the variant's name and the instance's number.
TEST(ScheduleInstance, FixedLayoutEvensOutBenchguardsOwnVariables) {
  BenchmarkSpec b;
  b.name = "sort";
  auto room = [&](const std::string& variant, int instance) {
    VariantSpec v;
    v.name = variant;
    v.env = {{"USER_VAR", variant == "A" ? "short" : "a longer value"}};
    KeyValues env = instance_env(b, v, instance, "/tmp/r.jsonl");
    measure::LaunchSpec spec;
    apply_layout("fixed", 1, env, spec);
    EXPECT_TRUE(spec.fixed_layout);
    std::size_t ours = 0;
    for (const auto& [k, value] : env)
      if (k.starts_with("BENCHGUARD_")) ours += k.size() + value.size() + 2;
    return ours;
  };
  // Different names and numbers, the same room modulo a page.
  EXPECT_EQ(room("A", 0) % 4096, 0U);
  EXPECT_EQ(room("a much longer variant name", 12345) % 4096, 0U);

  KeyValues env;
  measure::LaunchSpec spec;
  apply_layout("", 1, env, spec);  // native: nothing
  EXPECT_TRUE(env.empty());
  EXPECT_FALSE(spec.fixed_layout);
}

}  // namespace
}  // namespace benchguard::schedule
