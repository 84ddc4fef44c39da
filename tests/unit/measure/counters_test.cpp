// Hardware counters when the machine has them; the counting machinery (attach before exec,
// inherit to children) checked with a software event where it has not.
#include "measure/counters.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>

#include "launch_test_util.hpp"
#include "measure/process.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::helper;

TEST(MeasureCounters, SetOrUnsetByAvailability) {
  LaunchSpec spec;
  spec.argv = {helper("spin"), "20"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  if (counters_available()) {
    ASSERT_TRUE(r->instructions.has_value());
    ASSERT_TRUE(r->cycles.has_value());
    EXPECT_GT(*r->instructions, 1000000);
    EXPECT_GT(*r->cycles, 1000000);
  } else {
    EXPECT_FALSE(r->instructions.has_value());
    EXPECT_FALSE(r->cycles.has_value());
  }
}

// Why counters are refused, in words that say what to do, for each errno the kernel gives.
TEST(MeasureCounters, RefusalsAreExplained) {
  EXPECT_EQ(describe_counter_refusal(0, 2), "");
  for (const int err : {ENOENT, EOPNOTSUPP, ENODEV})
    EXPECT_NE(describe_counter_refusal(err, 2).find("no hardware performance counters"),
              std::string::npos);
  EXPECT_EQ(describe_counter_refusal(EACCES, 3),
            "kernel.perf_event_paranoid is 3 (2 or lower allows it: sysctl "
            "kernel.perf_event_paranoid=2)");
  EXPECT_NE(describe_counter_refusal(EPERM, 1).find("CAP_PERFMON"), std::string::npos);
  EXPECT_NE(describe_counter_refusal(EPERM, std::nullopt).find("CAP_PERFMON"), std::string::npos);
  EXPECT_NE(describe_counter_refusal(EINVAL, 2).find("perf_event_open: "), std::string::npos);
  // The probe agrees with availability.
  EXPECT_EQ(counters_refusal().empty(), counters_available());
}

TEST(MeasureCounters, NotCountedWhenNotAsked) {
  LaunchSpec spec;
  spec.argv = {helper("exit_code"), "0"};
  spec.counters = false;
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->instructions.has_value());
  EXPECT_FALSE(r->cycles.has_value());
}

// `argv` launched by the fork path with `events` opened on it, run to its end.
LaunchResult launch_with_events(std::vector<std::string> argv, std::vector<CounterEvent> events) {
  LaunchSpec spec;
  spec.argv = std::move(argv);
  LaunchOptions options;
  options.method = LaunchMethod::kFork;
  options.events = std::move(events);
  auto child = start_child(spec, options);
  EXPECT_TRUE(child.ok()) << child.error().message;
  if (!child.ok()) return {};
  auto r = (*child)->wait();
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : LaunchResult{};
}

TEST(MeasureCounters, CountsWholeTreeFromExec) {
  // task-clock (ns on CPU) stands in for instructions: a parent and two children spin for
  // 60 ms of CPU each, so an event that missed exec or the children would fall far short.
  const auto r = launch_with_events({helper("spin"), "60", "2"},
                                    {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
                                     {PERF_TYPE_SOFTWARE, 12345}});  // no such event: left unset
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.instructions.has_value()) << "software task-clock was refused";
  EXPECT_FALSE(r.cycles.has_value());
  const double counted_s = static_cast<double>(*r.instructions) * 1e-9;
  const double cpu_s = r.user_s + r.sys_s;
  EXPECT_GT(counted_s, 0.15);
  EXPECT_NEAR(counted_s, cpu_s, 0.25 * cpu_s);
}

// The further hardware events reach LaunchResult::counts by name, in hardware_counter_events()'
// order; software events stand in for them on a machine without a PMU (as this test's VM).
TEST(MeasureCounters, FurtherEventsAreNamedCountsAndRefusedOnesAreLeftOut) {
  const auto events = hardware_counter_events();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[2].config, static_cast<uint64_t>(PERF_COUNT_HW_BRANCH_MISSES));
  EXPECT_EQ(events[3].config, static_cast<uint64_t>(PERF_COUNT_HW_CACHE_MISSES));
  const auto r = launch_with_events({helper("spin"), "30"},
                                    {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
                                     {PERF_TYPE_SOFTWARE, 12345},  // refused: cycles unset
                                     {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
                                     {PERF_TYPE_SOFTWARE, 12346}});  // refused: no cache_misses
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.instructions.has_value()) << "software task-clock was refused";
  EXPECT_FALSE(r.cycles.has_value());
  ASSERT_EQ(r.counts.size(), 1u);
  EXPECT_EQ(r.counts[0].first, "branch_misses");
  EXPECT_GT(r.counts[0].second, 0);  // a process faults in its pages
}

TEST(MeasureCounters, RefusedEventsAreUnsetNotErrors) {
  auto set = CounterSet::open_on_exec(getpid(), {{PERF_TYPE_SOFTWARE, 12345}});
  const auto counts = set.read();
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_FALSE(counts[0].has_value());
}

}  // namespace
}  // namespace benchguard::measure
