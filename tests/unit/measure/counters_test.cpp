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

TEST(MeasureCounters, CountsWholeTreeFromExec) {
  // task-clock (ns on CPU) stands in for instructions: a parent and two children spin for
  // 60 ms of CPU each, so an event that missed exec or the children would fall far short.
  LaunchSpec spec;
  spec.argv = {helper("spin"), "60", "2"};
  LaunchOptions options;
  options.method = LaunchMethod::kFork;
  options.events = {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
                    {PERF_TYPE_SOFTWARE, 12345}};  // no such event: left unset
  auto child = start_child(spec, options);
  ASSERT_TRUE(child.ok()) << child.error().message;
  auto r = (*child)->wait();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);
  ASSERT_TRUE(r->instructions.has_value()) << "software task-clock was refused";
  EXPECT_FALSE(r->cycles.has_value());
  const double counted_s = static_cast<double>(*r->instructions) * 1e-9;
  const double cpu_s = r->user_s + r->sys_s;
  EXPECT_GT(counted_s, 0.15);
  EXPECT_NEAR(counted_s, cpu_s, 0.25 * cpu_s);
}

TEST(MeasureCounters, RefusedEventsAreUnsetNotErrors) {
  auto set = CounterSet::open_on_exec(getpid(), {{PERF_TYPE_SOFTWARE, 12345}});
  const auto counts = set.read();
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_FALSE(counts[0].has_value());
}

}  // namespace
}  // namespace benchguard::measure
