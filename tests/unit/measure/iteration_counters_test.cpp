// Per-iteration counters of the C++ client (include/benchguard/iteration_counters.hpp): the
// arithmetic on a fake source, then the kernel's software events, which work where hardware
// counters are refused (this VM has no PMU).
#include "benchguard/iteration_counters.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <map>

namespace benchguard {
namespace {

// Gives the readings queued in `readings`, one vector per read().
class FakeSource final : public CounterSource {
 public:
  FakeSource(std::vector<std::string> names,
             std::vector<std::vector<std::optional<CounterValue>>> readings)
      : names_(std::move(names)), readings_(std::move(readings)) {}
  const std::vector<std::string>& names() const override { return names_; }
  std::vector<std::optional<CounterValue>> read() override { return readings_.at(next_++); }

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<std::optional<CounterValue>>> readings_;
  std::size_t next_ = 0;
};

std::map<std::string, double> as_map(const std::vector<std::pair<std::string, double>>& m) {
  return {m.begin(), m.end()};
}

TEST(IterationCounters, ReportTheDifferenceAcrossTheIteration) {
  IterationCounters counters(
      std::make_unique<FakeSource>(std::vector<std::string>{"instructions", "cycles"},
                                   std::vector<std::vector<std::optional<CounterValue>>>{
                                       {CounterValue{1000, 10, 10}, CounterValue{5000, 10, 10}},
                                       {CounterValue{1600, 30, 30}, CounterValue{5900, 30, 30}},
                                       {CounterValue{1600, 30, 30}, CounterValue{5900, 30, 30}},
                                       {CounterValue{2600, 50, 50}, CounterValue{7900, 50, 50}}}));
  ASSERT_TRUE(counters.active());
  std::vector<std::pair<std::string, double>> first;
  counters.begin();
  counters.end(first);
  EXPECT_EQ(as_map(first), (std::map<std::string, double>{{"instructions", 600}, {"cycles", 900}}));
  // A batch of 4 calls reports one call's share; metrics already there are kept.
  std::vector<std::pair<std::string, double>> second = {{"wall_time", 1.0}};
  counters.begin();
  counters.end(second, 4);
  EXPECT_EQ(as_map(second), (std::map<std::string, double>{
                                {"wall_time", 1.0}, {"instructions", 250}, {"cycles", 500}}));
}

TEST(IterationCounters, MultiplexedEventsAreScaledByEnabledOverRunningTime) {
  // Counting 40 of the 100 ns it was enabled: 400 counted stand for 1,000.
  IterationCounters counters(std::make_unique<FakeSource>(
      std::vector<std::string>{"branch_misses"},
      std::vector<std::vector<std::optional<CounterValue>>>{{CounterValue{100, 1000, 500}},
                                                            {CounterValue{500, 1100, 540}}}));
  std::vector<std::pair<std::string, double>> m;
  counters.begin();
  counters.end(m);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].first, "branch_misses");
  EXPECT_DOUBLE_EQ(m[0].second, 1000.0);
}

TEST(IterationCounters, UnreadableOrIdleEventsAreLeftOut) {
  // cycles cannot be read after the iteration; cache_misses was never scheduled during it
  // (its running time did not move): neither is reported, instructions is.
  IterationCounters counters(std::make_unique<FakeSource>(
      std::vector<std::string>{"instructions", "cycles", "cache_misses"},
      std::vector<std::vector<std::optional<CounterValue>>>{
          {CounterValue{10, 5, 5}, CounterValue{10, 5, 5}, CounterValue{7, 5, 5}},
          {CounterValue{30, 9, 9}, std::nullopt, CounterValue{7, 9, 5}}}));
  std::vector<std::pair<std::string, double>> m;
  counters.begin();
  counters.end(m);
  EXPECT_EQ(as_map(m), (std::map<std::string, double>{{"instructions", 20}}));
}

TEST(IterationCounters, InactiveWithoutEvents) {
  IterationCounters none(std::make_unique<FakeSource>(
      std::vector<std::string>{}, std::vector<std::vector<std::optional<CounterValue>>>{}));
  EXPECT_FALSE(none.active());
  std::vector<std::pair<std::string, double>> m;
  none.begin();
  none.end(m);
  EXPECT_TRUE(m.empty());
  // Outside benchguard (BENCHGUARD_COUNTERS unset) nothing is opened.
  unsetenv("BENCHGUARD_COUNTERS");
  EXPECT_FALSE(IterationCounters().active());
}

TEST(IterationCounters, UnknownNamesAreLeftOutOfTheKernelsEvents) {
  PerfCounterSource source("bogus,,task_clock");
  // Software events open wherever perf_event_open is allowed at all (paranoid <= 2).
  if (source.names().empty()) GTEST_SKIP() << "perf_event_open is refused here";
  EXPECT_EQ(source.names(), std::vector<std::string>{"task_clock"});
}

TEST(IterationCounters, SoftwareEventsCountTheIterationsOwnWork) {
  setenv("BENCHGUARD_COUNTERS", "page_faults,task_clock", 1);
  IterationCounters counters;
  unsetenv("BENCHGUARD_COUNTERS");
  if (!counters.active()) GTEST_SKIP() << "perf_event_open is refused here";
  // Touching 64 fresh pages faults each of them in (no huge pages for the mapping).
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 64 * page;
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  madvise(mem, bytes, MADV_NOHUGEPAGE);
  std::vector<std::pair<std::string, double>> touched;
  counters.begin();
  for (std::size_t off = 0; off < bytes; off += page) static_cast<volatile char*>(mem)[off] = 1;
  counters.end(touched);
  // Touching them again faults none in.
  std::vector<std::pair<std::string, double>> again;
  counters.begin();
  for (std::size_t off = 0; off < bytes; off += page) static_cast<volatile char*>(mem)[off] = 2;
  counters.end(again);
  munmap(mem, bytes);
  const auto t = as_map(touched);
  const auto a = as_map(again);
  ASSERT_TRUE(t.count("page_faults")) << "page faults not reported";
  EXPECT_GE(t.at("page_faults"), 64);
  EXPECT_LT(t.at("page_faults"), 80);
  ASSERT_TRUE(a.count("page_faults"));
  EXPECT_LE(a.at("page_faults"), 2);
  ASSERT_TRUE(t.count("task_clock"));
  EXPECT_GT(t.at("task_clock"), 0);
}

}  // namespace
}  // namespace benchguard
