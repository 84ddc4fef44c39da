#include "report/run_summary.hpp"

#include <gtest/gtest.h>

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
  EXPECT_DOUBLE_EQ(instance_peak_memory(r), 20 << 20);
  r.mem_samples = 0;  // too short to sample: the upper bound is all there is
  EXPECT_DOUBLE_EQ(instance_peak_memory(r), 300 << 20);
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
