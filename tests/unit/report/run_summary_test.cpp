#include "report/run_summary.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/write.hpp"

namespace benchguard::report {
namespace {

InstanceRecord inst(std::vector<double> times, bool ok = true) {
  InstanceRecord r;
  if (!ok) r.failure = "exit code 1";
  for (size_t i = 0; i < times.size(); ++i) {
    IterationRecord it;
    it.index = static_cast<int>(i);
    it.burn_in = i == 0;
    it.metrics = {{"wall_time", times[i]}};
    r.iterations.push_back(it);
  }
  return r;
}

TEST(ReportRunSummary, PeakMemoryPrefersTheSampledTreePeak) {
  InstanceRecord r;
  r.max_rss_bytes = 300 << 20;  // includes the launcher's own size
  r.mem_peak_bytes = 20 << 20;
  r.mem_samples = 4;
  EXPECT_EQ(instance_peak_memory(r), 20 << 20);
  r.mem_samples = 0;  // too short to sample, above the launch floor: the upper bound is known
  r.rss_floor_bytes = 100 << 20;
  EXPECT_EQ(instance_peak_memory(r), 300 << 20);
  // At the launch floor it says nothing of the benchmark: unknown, as compare has it.
  r.max_rss_bytes = 90 << 20;
  EXPECT_EQ(instance_peak_memory(r), std::nullopt);
  r.mem_samples = 3;  // sampled often enough: the tree's own peak
  EXPECT_EQ(instance_peak_memory(r), 20 << 20);
  // Nothing measured it (an imported instance): unknown, not 0 B.
  EXPECT_EQ(instance_peak_memory(InstanceRecord{}), std::nullopt);
}

TEST(ReportRunSummary, ShowSaysOnceWhyPeakMemoryIsLeftOut) {
  RunData run;
  run.run.uuid = "12345678-aaaa";
  for (const char* name : {"a", "b"}) {
    VariantData v;
    v.variant.benchmark = name;
    v.variant.name = "default";
    for (int i = 0; i < 3; ++i) {
      InstanceRecord r = inst({0.001, 0.001});
      r.max_rss_bytes = 10 << 20;
      r.rss_floor_bytes = 11 << 20;
      r.mem_samples = 1;
      v.instances.push_back(r);
    }
    run.variants.push_back(v);
  }
  std::ostringstream text, json;
  write(run_document(run), Format::kTable, text);
  write(run_document(run), Format::kJson, json);
  const std::string t = text.str();
  EXPECT_EQ(t.find("10.0 MiB"), std::string::npos) << t;
  const auto first = t.find("note: peak memory: 6 of 6 instances ended before");
  EXPECT_NE(first, std::string::npos) << t;
  EXPECT_EQ(t.find("note: peak memory", first + 1), std::string::npos) << t;
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_TRUE(j["benchmarks"][0]["peak_memory_bytes"].is_null());
  EXPECT_EQ(j["benchmarks"][0]["instances_memory_at_launch_floor"], 3);
}

TEST(ReportRunSummary, CountsAndStatisticsLeaveOutBurnInAndFailures) {
  RunData run;
  VariantData v;
  v.variant.benchmark = "b";
  v.variant.name = "A";
  v.instances = {inst({9, 1, 3}), inst({9, 2, 4}), inst({100, 100}, false)};
  run.variants.push_back(v);
  const auto rows = summarize_run(run);
  ASSERT_EQ(rows.size(), 1u);
  const auto& s = rows[0];
  EXPECT_EQ(s.instances_ok, 2);
  EXPECT_EQ(s.instances_failed, 1);
  EXPECT_EQ(s.iterations, 4);
  EXPECT_EQ(s.burn_in, 3);  // flagged iterations of every instance
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

}  // namespace
}  // namespace benchguard::report
