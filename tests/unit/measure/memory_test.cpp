// Memory of an instance: ru_maxrss of the largest process, and the sampled sum over its tree.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "launch_test_util.hpp"
#include "measure/launch_options.hpp"
#include "measure/memory_group.hpp"
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
  // The sampled launch (a memory cgroup would give the kernel's peak instead).
  LaunchOptions options;
  options.memory_source = MemorySourceRequest::kSampled;
  auto r = start_child(spec, options).value()->wait();
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

// ---- where peak memory comes from (memory_group.hpp)

TEST(MemorySource, RequestsByName) {
  EXPECT_EQ(*parse_memory_source(""), MemorySourceRequest::kAuto);
  EXPECT_EQ(*parse_memory_source("auto"), MemorySourceRequest::kAuto);
  EXPECT_EQ(*parse_memory_source("cgroup"), MemorySourceRequest::kCgroup);
  EXPECT_EQ(*parse_memory_source("cgroup1"), MemorySourceRequest::kCgroup1);
  EXPECT_EQ(*parse_memory_source("cgroup2"), MemorySourceRequest::kCgroup2);
  EXPECT_EQ(*parse_memory_source("sampled"), MemorySourceRequest::kSampled);
  EXPECT_EQ(*parse_memory_source("rusage"), MemorySourceRequest::kSampled);
  EXPECT_FALSE(parse_memory_source("cgroup3").ok());
  EXPECT_STREQ(memory_source_name(MemorySource::kCgroup1), "cgroup1");
  EXPECT_STREQ(memory_source_name(MemorySource::kCgroup2), "cgroup2");
  EXPECT_STREQ(memory_source_name(MemorySource::kSampled), "sampled");
}

TEST(MemorySource, PlacesFromProcFiles) {
  // Both hierarchies, as in a container with cgroup v1 controllers and an empty v2 mount.
  const std::string cgroup =
      "9:name=systemd:/\n4:memory:/jobs/abc\n3:cpuset:/\n0::/user.slice/x.scope\n";
  const std::string mountinfo =
      "30 25 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
      "35 30 0:31 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
      "36 30 0:32 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
      "40 30 0:36 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
  const CgroupPlaces p = find_cgroup_places(cgroup, mountinfo);
  EXPECT_EQ(p.v1_dir, "/sys/fs/cgroup/memory/jobs/abc");
  EXPECT_EQ(p.v2_dir, "/sys/fs/cgroup/unified/user.slice/x.scope");
  // A v2-only system, its group seen from a namespace whose root is a bind mount of it.
  const CgroupPlaces v2 = find_cgroup_places(
      "0::/ns/bench\n", "50 1 0:40 /ns /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n");
  EXPECT_EQ(v2.v1_dir, "");
  EXPECT_EQ(v2.v2_dir, "/sys/fs/cgroup/bench");
  // The root group itself; nothing mounted.
  EXPECT_EQ(
      find_cgroup_places("0::/\n", "50 1 0:40 / /sys/fs/cgroup rw - cgroup2 none rw\n").v2_dir,
      "/sys/fs/cgroup");
  const CgroupPlaces none = find_cgroup_places("4:memory:/a\n0::/\n", "");
  EXPECT_EQ(none.v1_dir, "");
  EXPECT_EQ(none.v2_dir, "");
}

Result<LaunchResult> launch_from(const LaunchSpec& spec, std::optional<MemorySourceRequest> req) {
  LaunchOptions options;
  options.memory_source = req;
  BG_ASSIGN(auto child, start_child(spec, options));
  return child->wait();
}

// Sets an environment variable for the scope of a test.
class ScopedMemorySourceEnv {
 public:
  explicit ScopedMemorySourceEnv(const char* value) {
    if (const char* old = std::getenv("BENCHGUARD_MEMORY_SOURCE")) old_ = old;
    setenv("BENCHGUARD_MEMORY_SOURCE", value, 1);
  }
  ~ScopedMemorySourceEnv() {
    if (old_)
      setenv("BENCHGUARD_MEMORY_SOURCE", old_->c_str(), 1);
    else
      unsetenv("BENCHGUARD_MEMORY_SOURCE");
  }
  ScopedMemorySourceEnv(const ScopedMemorySourceEnv&) = delete;
  ScopedMemorySourceEnv& operator=(const ScopedMemorySourceEnv&) = delete;

 private:
  std::optional<std::string> old_;
};

TEST(MemorySource, FallbackWhenForcedOrUnavailable) {
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "4", "2"};
  // Forced, by the launch's options and by the environment.
  auto forced = launch_from(spec, MemorySourceRequest::kSampled);
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_EQ(forced->mem_source, "sampled");
  {
    const ScopedMemorySourceEnv env("rusage");
    EXPECT_EQ(memory_source_from_environment(), MemorySourceRequest::kSampled);
    auto r = launch(spec);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->mem_source, "sampled");
  }
  {
    const ScopedMemorySourceEnv env("nonsense");  // not understood: auto
    EXPECT_EQ(memory_source_from_environment(), MemorySourceRequest::kAuto);
  }
  // A kind this machine cannot give falls back silently.
  for (const auto req : {MemorySourceRequest::kCgroup1, MemorySourceRequest::kCgroup2}) {
    if (memory_group_parent(req)) continue;
    auto r = launch_from(spec, req);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->exit_code, 0);
    EXPECT_EQ(r->mem_source, "sampled");
  }
}

TEST(MemorySource, ExactPeakOfShortInstancesAndTheirTrees) {
  const auto parent = memory_group_parent(MemorySourceRequest::kAuto);
  if (!parent) GTEST_SKIP() << "no memory cgroup can be made here";
  const char* kind = memory_source_name(parent->kind);
  const auto peak_mib = [&](std::vector<std::string> argv) {
    LaunchSpec spec;
    spec.argv = std::move(argv);
    auto r = launch_from(spec, MemorySourceRequest::kAuto);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return 0.0;
    EXPECT_EQ(r->exit_code, 0);
    EXPECT_EQ(r->mem_source, kind);
    return static_cast<double>(r->mem_peak_bytes) / kMiB;
  };
  // 2 ms, never sampled: the kernel's peak is the program's own, not benchguard's.
  double fours = 0, fives = 0;
  for (int k = 0; k < 4; ++k) {
    const double four = peak_mib({helper("memory_hog"), "4", "2"});
    const double five = peak_mib({helper("memory_hog"), "5", "2"});
    // Exact to the kernel's charge batches (64 pages, 256 KiB, per CPU).
    EXPECT_GE(four, 3.5);
    EXPECT_LT(four, 5.5);
    EXPECT_GE(five, 4.5);
    EXPECT_LT(five, 6.5);
    fours += four;
    fives += five;
  }
  EXPECT_GT(fives / 4, fours / 4 + 0.5);
  // A parent and its child at once: the tree's peak, above either one's (20 MiB) by most of
  // the other's (the charge batches leave it anywhere from about 29.5 to 31 MiB).
  const double tree = peak_mib({helper("memory_hog"), "20", "30", "10"});
  EXPECT_GT(tree, 28.0);
  EXPECT_LT(tree, 36.0);
  // Through the fork path too (the one hardware counters take).
  LaunchSpec spec;
  spec.argv = {helper("memory_hog"), "4", "2"};
  LaunchOptions options;
  options.method = LaunchMethod::kFork;
  options.memory_source = MemorySourceRequest::kAuto;
  auto child = start_child(spec, options);
  ASSERT_TRUE(child.ok()) << child.error().message;
  auto r = (*child)->wait();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mem_source, kind);
  EXPECT_GE(static_cast<double>(r->mem_peak_bytes) / kMiB, 3.75);
  EXPECT_LT(static_cast<double>(r->mem_peak_bytes) / kMiB, 5.5);
}

TEST(MemorySource, GroupsAreReusedNotPiledUp) {
  const auto parent = memory_group_parent(MemorySourceRequest::kAuto);
  if (!parent) GTEST_SKIP() << "no memory cgroup can be made here";
  LaunchSpec spec;
  spec.argv = {"/bin/true"};
  for (int k = 0; k < 20; ++k) ASSERT_TRUE(launch_from(spec, MemorySourceRequest::kAuto).ok());
  // Ours are named benchguard-PID-N: a few at most (one per launching thread, and retired ones
  // whose stray processes have not gone yet), never one per instance.
  const std::string prefix = "benchguard-" + std::to_string(getpid()) + "-";
  int ours = 0;
  if (DIR* d = opendir(parent->dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::string(e->d_name).rfind(prefix, 0) == 0) ++ours;
    closedir(d);
  }
  EXPECT_GE(ours, 1);
  EXPECT_LE(ours, 3);
}

}  // namespace
}  // namespace benchguard::measure
