// Memory of an instance: ru_maxrss of the largest process, and the sampled sum over its tree.
#include <gtest/gtest.h>
#include <sys/resource.h>

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

TEST(MeasureMemory, SamplerAloneSeesHogPeak) {
  // A sampler of its own, checked without ru_maxrss mixed in.
  MemorySampler sampler(std::chrono::milliseconds(5));
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "200", "250"};
  spec.sample_memory = false;
  auto child = Child::start(spec);
  ASSERT_TRUE(child.ok()) << child.error().message;
  const uint64_t ticket = sampler.watch((*child)->pid());
  wait_exit((*child)->pid(), -1, -1);  // exited, not yet reaped
  const MemoryStats seen = sampler.unwatch(ticket);
  ASSERT_TRUE((*child)->wait().ok());
  EXPECT_GE(seen.samples, 10);
  EXPECT_NEAR(static_cast<double>(seen.peak_bytes) / kMiB, 200, 20);
}

TEST(MeasureMemory, TreePeakCoversParentAndChild) {
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "100", "300", "100"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);
  // ru_maxrss is the largest single process; the tree holds both at once.
  EXPECT_NEAR(static_cast<double>(r->max_rss_bytes) / kMiB, 100, 10);
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
  auto rb = (*b)->wait();
  auto ra = (*a)->wait();
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

TEST(MeasureMemory, ExitedRootStopsSampling) {
  // A child reaped late must not have its zombie phase averaged in as zero.
  MemorySampler sampler(std::chrono::milliseconds(5));
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "50", "100"};
  spec.sample_memory = false;
  auto child = Child::start(spec);
  ASSERT_TRUE(child.ok());
  const uint64_t ticket = sampler.watch((*child)->pid());
  wait_exit((*child)->pid(), -1, -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a zombie, still watched
  const MemoryStats seen = sampler.unwatch(ticket);
  ASSERT_TRUE((*child)->wait().ok());
  EXPECT_GT(seen.samples, 5);
  EXPECT_GT(seen.avg_bytes, 0.6 * static_cast<double>(seen.peak_bytes));
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

TEST(MeasureMemory, UnknownTicketGivesNothing) {
  MemorySampler sampler;
  EXPECT_EQ(sampler.unwatch(12345).samples, 0);
}

}  // namespace
}  // namespace benchguard::measure
