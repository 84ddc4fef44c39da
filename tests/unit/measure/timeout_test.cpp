// Timeouts end the whole process group, and no process of an instance outlives it.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>

#include "launch_test_util.hpp"
#include "measure/process.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::helper;
using benchguard::testing::launch_with;
using benchguard::testing::process_gone;
using benchguard::testing::TempDir;
using benchguard::testing::wait_for_file;

class MeasureTimeoutTest : public ::testing::TestWithParam<LaunchMethod> {};

// How long the sleeper runs by itself. A timeout or a parent's exit ends it long before: the
// tests ask for less than a quarter of it, not for a latency, which depends on how busy the
// machine is.
constexpr double kSleeperSeconds = 30;

TEST_P(MeasureTimeoutTest, TimeoutEndsSleeperAndItsChild) {
  TempDir dir;
  const std::string pidfile = dir.file("child.pid");
  LaunchSpec spec;
  spec.argv = {helper("sleeper"), "30", pidfile};
  spec.timeout_s = 0.3;
  auto r = launch_with(spec, GetParam());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGTERM);
  EXPECT_GE(r->wall_s(), 0.3);
  EXPECT_LT(r->wall_s(), kSleeperSeconds / 4);
  const pid_t child = std::atoi(wait_for_file(pidfile).c_str());
  ASSERT_GT(child, 0);
  EXPECT_TRUE(process_gone(child));
}

TEST_P(MeasureTimeoutTest, SigkillAfterGraceWhenSigtermIsIgnored) {
  TempDir dir;
  const std::string pidfile = dir.file("child.pid");
  LaunchSpec spec;
  spec.argv = {helper("sleeper"), "30", pidfile, "--ignore-term"};
  spec.timeout_s = 0.2;
  spec.kill_grace_s = 0.2;
  auto r = launch_with(spec, GetParam());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_GE(r->wall_s(), 0.4);  // the grace was given
  EXPECT_LT(r->wall_s(), kSleeperSeconds / 4);
  const pid_t child = std::atoi(wait_for_file(pidfile).c_str());
  ASSERT_GT(child, 0);
  EXPECT_TRUE(process_gone(child));
}

TEST_P(MeasureTimeoutTest, InstanceWithinTimeoutIsNotMarked) {
  LaunchSpec spec;
  spec.argv = {helper("exit_code"), "0"};
  spec.timeout_s = 5;
  auto r = launch_with(spec, GetParam());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->exit_code, 0);
}

TEST_P(MeasureTimeoutTest, StrayGrandchildIsKilledWhenTheInstanceEnds) {
  TempDir dir;
  const std::string pidfile = dir.file("child.pid");
  LaunchSpec spec;
  spec.argv = {helper("sleeper"), "30", pidfile, "--parent-exits"};
  auto r = launch_with(spec, GetParam());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_LT(r->wall_s(), kSleeperSeconds / 4);
  const pid_t child = std::atoi(wait_for_file(pidfile).c_str());
  ASSERT_GT(child, 0);
  EXPECT_TRUE(process_gone(child));
}

TEST_P(MeasureTimeoutTest, AbandonedChildIsKilled) {
  TempDir dir;
  const std::string pidfile = dir.file("child.pid");
  LaunchSpec spec;
  spec.argv = {helper("sleeper"), "30", pidfile};
  LaunchOptions options;
  options.method = GetParam();
  pid_t pid = 0;
  {
    auto c = start_child(spec, options);
    ASSERT_TRUE(c.ok()) << c.error().message;
    pid = (*c)->pid();
    ASSERT_FALSE(wait_for_file(pidfile).empty());
  }  // destroyed without wait()
  EXPECT_TRUE(process_gone(pid));
  EXPECT_TRUE(process_gone(std::atoi(wait_for_file(pidfile).c_str())));
}

INSTANTIATE_TEST_SUITE_P(Measure, MeasureTimeoutTest,
                         ::testing::Values(LaunchMethod::kVfork, LaunchMethod::kFork),
                         [](const auto& info) {
                           return benchguard::testing::method_name(info.param);
                         });

}  // namespace
}  // namespace benchguard::measure
