#include "cluster/status.hpp"

#include <gtest/gtest.h>

namespace benchguard::cluster {
namespace {

TEST(ClusterStatusTest, TaskStateFromExitCodeThenSlurm) {
  EXPECT_EQ(task_state(0, std::nullopt, false), TaskState::kDone);
  EXPECT_EQ(task_state(3, TaskState::kDone, true), TaskState::kDone);  // benchmark failures
  EXPECT_EQ(task_state(2, TaskState::kDone, true), TaskState::kFailed);
  EXPECT_EQ(task_state(std::nullopt, TaskState::kRunning, true), TaskState::kRunning);
  EXPECT_EQ(task_state(std::nullopt, TaskState::kPending, true), TaskState::kPending);
  // Ended without its exit code: killed.
  EXPECT_EQ(task_state(std::nullopt, TaskState::kDone, true), TaskState::kFailed);
  EXPECT_EQ(task_state(std::nullopt, std::nullopt, true), TaskState::kFailed);
  EXPECT_EQ(task_state(std::nullopt, std::nullopt, false), TaskState::kUnknown);
}

}  // namespace
}  // namespace benchguard::cluster
