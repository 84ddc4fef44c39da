// The sync-duet barrier of include/benchguard/barrier.hpp, across two real processes.
#include "benchguard/barrier.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace benchguard {
namespace {

std::string unique_name(const char* what) {
  return "/benchguard-test-" + std::to_string(getpid()) + "-" + what;
}

TEST(SharedBarrier, TwoProcessesMeetEveryRound) {
  const std::string name = unique_name("rounds");
  SharedBarrier barrier = SharedBarrier::create(name, 2);
  ASSERT_TRUE(barrier.valid());
  constexpr int kRounds = 200;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    SharedBarrier mine = SharedBarrier::attach(name);
    int met = 0;
    for (int i = 0; i < kRounds; ++i) met += mine.wait() ? 1 : 0;
    _exit(met == kRounds ? 0 : 1);
  }
  int met = 0;
  for (int i = 0; i < kRounds; ++i) met += barrier.wait() ? 1 : 0;
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(met, kRounds);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(SharedBarrier, BreakingReleasesAWaiterForGood) {
  SharedBarrier barrier = SharedBarrier::create(unique_name("break"), 2);
  ASSERT_TRUE(barrier.valid());
  bool met = true;
  std::thread waiter([&] { met = barrier.wait(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  barrier.break_barrier();
  waiter.join();
  EXPECT_FALSE(met);
  EXPECT_TRUE(barrier.broken());
  EXPECT_FALSE(barrier.wait());  // at once, without a partner
}

TEST(SharedBarrier, AttachingToNothingGivesAnInvalidBarrierThatNeverWaits) {
  SharedBarrier none = SharedBarrier::attach(unique_name("absent"));
  EXPECT_FALSE(none.valid());
  EXPECT_FALSE(none.wait());
}

TEST(SharedBarrier, CreatorRemovesTheName) {
  const std::string name = unique_name("unlink");
  { SharedBarrier b = SharedBarrier::create(name, 2); }
  EXPECT_FALSE(SharedBarrier::attach(name).valid());
  // A second creator of a live name is refused rather than sharing it.
  SharedBarrier first = SharedBarrier::create(name, 2);
  ASSERT_TRUE(first.valid());
  EXPECT_FALSE(SharedBarrier::create(name, 2).valid());
}

}  // namespace
}  // namespace benchguard
