// Memory of an instance: ru_maxrss of the largest process, and the sampled sum over its tree.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <optional>
#include <thread>
#include <vector>

#include "launch_test_util.hpp"
#include "measure/memory_sampler.hpp"
#include "measure/process.hpp"
#include "measure/wait.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::helper;

constexpr double kMiB = 1024.0 * 1024.0;

TEST(MeasureMemory, HogPeakFromRusageAndSamples) {
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "200", "250"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);
  EXPECT_NEAR(static_cast<double>(r->max_rss_bytes) / kMiB, 200, 20);
  EXPECT_GE(r->mem_samples, 10);
  EXPECT_NEAR(static_cast<double>(r->mem_peak_bytes) / kMiB, 200, 20);
  EXPECT_LE(r->mem_avg_bytes, static_cast<double>(r->mem_peak_bytes));
  EXPECT_GT(r->mem_avg_bytes, 50 * kMiB);
}

// Samples a running child with a sampler of its own until its root exits, sleeping until each
// sample is due, as wait() does.
MemoryStats sample_until_exit(pid_t pid, std::chrono::nanoseconds interval) {
  TreeSampler sampler(pid, monotonic_ns(), interval);
  while (sampler.due_ns() >= 0) {
    std::this_thread::sleep_for(std::chrono::nanoseconds(sampler.due_ns() - monotonic_ns()));
    sampler.sample();
  }
  return sampler.stats();
}

TEST(MeasureMemory, SamplerAloneSeesHogPeak) {
  // A sampler of its own, checked without ru_maxrss mixed in.
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "200", "250"};
  spec.sample_memory = false;
  auto child = Child::start(spec);
  ASSERT_TRUE(child.ok()) << child.error().message;
  const MemoryStats seen = sample_until_exit((*child)->pid(), std::chrono::milliseconds(5));
  ASSERT_TRUE((*child)->wait().ok());
  EXPECT_GE(seen.samples, 10);
  EXPECT_NEAR(static_cast<double>(seen.peak_bytes) / kMiB, 200, 20);
  EXPECT_LE(seen.avg_bytes, static_cast<double>(seen.peak_bytes));
}

TEST(MeasureMemory, TreePeakCoversParentAndChild) {
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "100", "300", "100"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);
  // ru_maxrss is the largest single process; the tree holds both at once. The kernel folds the
  // address space the child execs from (the launcher's, a large one under ASan) into its
  // ru_maxrss, so it can be read as the child's own only when the launcher is smaller.
  const double floor_mib = static_cast<double>(r->rss_floor_bytes) / kMiB;
  if (floor_mib < 90)
    EXPECT_NEAR(static_cast<double>(r->max_rss_bytes) / kMiB, 100, 10) << "floor " << floor_mib;
  else
    EXPECT_GE(static_cast<double>(r->max_rss_bytes) / kMiB, 90) << "floor " << floor_mib;
  EXPECT_GT(r->mem_samples, 5);
  EXPECT_NEAR(static_cast<double>(r->mem_peak_bytes) / kMiB, 200, 20);
}

TEST(MeasureMemory, ConcurrentInstancesAreKeptApart) {
  // Duet schedules run two trees at once: each must be charged only its own memory.
  LaunchSpec big;
  big.argv = {helper("memory_hog"), "120", "300"};
  LaunchSpec small;
  small.argv = {helper("memory_hog"), "30", "300", "30"};
  auto a = Child::start(big);
  auto b = Child::start(small);
  ASSERT_TRUE(a.ok() && b.ok());
  // As the duet runner does: each side is waited for, and sampled, on a thread of its own.
  std::optional<Result<LaunchResult>> rb_result;
  std::thread waiter([&] { rb_result.emplace((*b)->wait()); });
  auto ra = (*a)->wait();
  waiter.join();
  auto& rb = *rb_result;
  ASSERT_TRUE(ra.ok() && rb.ok());
  ASSERT_GT(ra->mem_samples, 5);
  ASSERT_GT(rb->mem_samples, 5);
  EXPECT_NEAR(static_cast<double>(ra->mem_peak_bytes) / kMiB, 120, 12);
  EXPECT_NEAR(static_cast<double>(rb->mem_peak_bytes) / kMiB, 60, 8);
}

TEST(MeasureMemory, ShortInstanceIsNotSampled) {
  LaunchSpec spec;
  spec.argv = {helper("exit_code"), "0"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->mem_samples, 0);
  EXPECT_EQ(r->mem_peak_bytes, r->max_rss_bytes);
  EXPECT_EQ(r->mem_avg_bytes, static_cast<double>(r->max_rss_bytes));
}

TEST(MeasureMemory, SamplingCanBeTurnedOff) {
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "20", "100"};
  spec.sample_memory = false;
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->mem_samples, 0);
  EXPECT_EQ(r->mem_peak_bytes, r->max_rss_bytes);
}

TEST(MeasureMemory, ExitedRootIsNotSampled) {
  // A child reaped late must not have its zombie phase averaged in as zero.
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "50", "100"};
  spec.sample_memory = false;
  auto child = Child::start(spec);
  ASSERT_TRUE(child.ok());
  TreeSampler sampler((*child)->pid(), monotonic_ns(), std::chrono::milliseconds(5));
  sampler.sample();
  ASSERT_EQ(sampler.stats().samples, 1);
  ASSERT_GT(sampler.due_ns(), 0);
  wait_exit((*child)->pid(), -1, -1);  // a zombie now, not yet reaped
  sampler.sample();
  sampler.sample();
  EXPECT_EQ(sampler.stats().samples, 1);
  EXPECT_EQ(sampler.due_ns(), -1);
  ASSERT_TRUE((*child)->wait().ok());
}

TEST(MeasureMemory, SamplesKeepTheirCadenceThroughATimeout) {
  // The waiting thread samples until the timeout and stops at the kill.
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "40", "5000"};
  spec.timeout_s = 0.3;
  spec.kill_grace_s = 0.1;
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_GE(r->mem_samples, 10);
  EXPECT_LE(r->mem_samples, 45);
  EXPECT_NEAR(static_cast<double>(r->mem_peak_bytes) / kMiB, 40, 8);
  EXPECT_LT(r->wall_s(), 2.0);
}

// The floor is the launching process's peak, whichever of its threads made it.
TEST(MeasureMemory, TheFloorIsTheLaunchersPeakWhicheverThreadMadeIt) {
  std::thread([] {
    std::vector<char> touched(96 * 1024 * 1024);
    for (std::size_t i = 0; i < touched.size(); i += 4096) touched[i] = 1;
    volatile char keep = touched[touched.size() / 2];
    (void)keep;
  }).join();
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  ASSERT_GT(static_cast<int64_t>(self.ru_maxrss) * 1024, 96 * 1024 * 1024);
  LaunchSpec spec;
  spec.argv = {"/bin/true"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(r->rss_floor_bytes, static_cast<int64_t>(self.ru_maxrss) * 1024);
}

TEST(MeasureMemory, LaunchersOwnRssStaysOutOfTheTreePeak) {
  // The kernel counts the RSS of the address space a child execs from (ours) in its
  // ru_maxrss; a small sampled program must still show its own size.
  LaunchSpec spec;
  spec.argv = {helper("spin"), "80"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GT(r->mem_samples, 0);
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  EXPECT_GT(r->rss_floor_bytes, 0);
  EXPECT_LE(r->rss_floor_bytes, static_cast<int64_t>(self.ru_maxrss) * 1024);
  if (r->max_rss_bytes <= r->rss_floor_bytes) {
    EXPECT_LT(r->mem_peak_bytes, r->rss_floor_bytes);
  }
  EXPECT_LT(r->mem_peak_bytes, 16 * 1024 * 1024);
}

}  // namespace
}  // namespace benchguard::measure
