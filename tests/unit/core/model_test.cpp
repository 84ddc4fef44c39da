#include "core/model.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

RunData one_iteration(const std::string& metric, double value) {
  RunData d;
  VariantData v;
  v.variant.benchmark = "b";
  v.variant.name = "default";
  InstanceRecord inst;
  IterationRecord it;
  it.metrics.emplace_back(metric, value);
  inst.iterations.push_back(it);
  v.instances.push_back(inst);
  d.variants.push_back(v);
  return d;
}

TEST(Model, CheckValuesRefusesWhatCannotBeMeasured) {
  EXPECT_TRUE(check_values(one_iteration("wall_time", 0.5)).ok());
  EXPECT_TRUE(check_values(one_iteration("wall_time", 0.0)).ok());

  const auto negative = check_values(one_iteration("wall_time", -1.5));
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().message,
            "benchmark 'b' variant 'default' instance 1: iteration 1: metric wall_time is "
            "negative (-1.5 s)");
  EXPECT_FALSE(check_values(one_iteration("max_rss", -1)).ok());
  EXPECT_FALSE(check_values(one_iteration("wall_time", std::nan(""))).ok());
  EXPECT_FALSE(check_values(one_iteration("score", HUGE_VAL)).ok());

  // A metric of unknown unit may go below zero; a declared time, size or rate may not.
  EXPECT_TRUE(check_values(one_iteration("delta", -3)).ok());
  EXPECT_FALSE(check_values(one_iteration("alloc", -3), {{"alloc", "B"}}).ok());
  EXPECT_FALSE(check_values(one_iteration("MB/s", -3), {{"MB/s", "MB/s"}}).ok());

  RunData backwards = one_iteration("wall_time", 1);
  backwards.variants[0].instances[0].start_ns = 10;
  backwards.variants[0].instances[0].end_ns = 5;
  EXPECT_FALSE(check_values(backwards).ok());
  RunData iteration_backwards = one_iteration("wall_time", 1);
  iteration_backwards.variants[0].instances[0].iterations[0].start_ns = 10;
  EXPECT_TRUE(check_values(iteration_backwards).ok());  // an end of 0 was not recorded
  iteration_backwards.variants[0].instances[0].iterations[0].end_ns = 9;
  EXPECT_FALSE(check_values(iteration_backwards).ok());
  RunData cpu = one_iteration("wall_time", 1);
  cpu.variants[0].instances[0].user_s = -0.1;
  EXPECT_FALSE(check_values(cpu).ok());
  RunData run = one_iteration("wall_time", 1);
  run.run.started_at = 100;
  run.run.finished_at = 50;
  EXPECT_FALSE(check_values(run).ok());
}

TEST(Model, AtLaunchFloorIsMemoryNoBetterThanTheLaunchersSize) {
  InstanceRecord in;
  in.rss_floor_bytes = 1000;
  in.max_rss_bytes = 1000;  // at the floor: an upper bound
  in.mem_peak_bytes = 1000;
  in.mem_samples = 0;
  EXPECT_TRUE(at_launch_floor(in, "max_rss"));
  EXPECT_TRUE(at_launch_floor(in, "peak_memory"));
  EXPECT_TRUE(at_launch_floor(in, "avg_memory"));
  EXPECT_FALSE(at_launch_floor(in, "wall_time"));
  in.mem_samples = 2;  // glimpses of a tree that lived 20 ms: still not its peak
  EXPECT_TRUE(at_launch_floor(in, "peak_memory"));
  EXPECT_TRUE(at_launch_floor(in, "avg_memory"));
  in.mem_samples = kMinTreeSamples;  // the tree was sampled enough: its peak is its own
  EXPECT_TRUE(at_launch_floor(in, "max_rss"));
  EXPECT_FALSE(at_launch_floor(in, "peak_memory"));
  EXPECT_FALSE(at_launch_floor(in, "avg_memory"));
  in.mem_samples = 1;
  in.max_rss_bytes = 1001;  // one glimpse, but ru_maxrss is the process's own and bounds it
  EXPECT_FALSE(at_launch_floor(in, "peak_memory"));
  in.max_rss_bytes = 1001;  // above the floor: the process's own
  EXPECT_FALSE(at_launch_floor(in, "max_rss"));
  in.max_rss_bytes = 10;
  in.rss_floor_bytes = 0;  // not recorded (older or imported): taken as measured
  EXPECT_FALSE(at_launch_floor(in, "max_rss"));
}

TEST(Model, TheKernelsPeakIsNeverAtTheFloor) {
  InstanceRecord in;
  in.rss_floor_bytes = 1000;
  in.max_rss_bytes = 1000;
  in.mem_peak_bytes = 300;
  in.mem_samples = 0;  // never sampled
  for (const char* source : {"", "sampled"}) {
    in.mem_source = source;
    EXPECT_FALSE(exact_peak_memory(in));
    EXPECT_TRUE(at_launch_floor(in, "peak_memory")) << source;
  }
  for (const char* source : {"cgroup1", "cgroup2"}) {
    in.mem_source = source;
    EXPECT_TRUE(exact_peak_memory(in));
    EXPECT_FALSE(at_launch_floor(in, "peak_memory")) << source;
    // ru_maxrss and the sampled average are what they were.
    EXPECT_TRUE(at_launch_floor(in, "max_rss")) << source;
    EXPECT_TRUE(at_launch_floor(in, "avg_memory")) << source;
  }
}

}  // namespace
}  // namespace benchguard
