#include "cluster/slurm.hpp"

#include <gtest/gtest.h>

namespace benchguard::cluster {
namespace {

TEST(ClusterSlurmTest, ScriptHasTheArrayAndOptionsAndQuotedCommand) {
  ScriptOptions o;
  o.job_name = "benchguard-1234abcd";
  o.tasks = 8;
  o.partition = "fast";
  o.sbatch_args = {"--time=30", "--exclusive"};
  o.log_pattern = "/jobs/x/attempt-1/task-%a.log";
  o.command = {"/opt/bin/benchguard", "task", "/jobs/my job", "--attempt", "1"};
  EXPECT_EQ(sbatch_script(o),
            "#!/bin/sh\n"
            "#SBATCH --job-name=benchguard-1234abcd\n"
            "#SBATCH --array=0-7\n"
            "#SBATCH --output=/jobs/x/attempt-1/task-%a.log\n"
            "#SBATCH --partition=fast\n"
            "#SBATCH --time=30\n"
            "#SBATCH --exclusive\n"
            "exec /opt/bin/benchguard task '/jobs/my job' --attempt 1\n");
}

TEST(ClusterSlurmTest, NoPartitionLineWithoutPartition) {
  ScriptOptions o;
  o.job_name = "j";
  o.tasks = 1;
  o.command = {"true"};
  EXPECT_EQ(sbatch_script(o).find("--partition"), std::string::npos);
  EXPECT_NE(sbatch_script(o).find("--array=0-0\n"), std::string::npos);
}

TEST(ClusterSlurmTest, ShellQuote) {
  EXPECT_EQ(shell_quote("plain/path-1.db"), "plain/path-1.db");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
}

TEST(ClusterSlurmTest, SbatchOutput) {
  EXPECT_EQ(parse_sbatch_output("123\n").value(), "123");
  EXPECT_EQ(parse_sbatch_output("4567;cluster\n").value(), "4567");
  EXPECT_EQ(parse_sbatch_output("sbatch: warning: x\n89\n").value(), "89");
  EXPECT_FALSE(parse_sbatch_output("sbatch: error: Batch job submission failed\n").ok());
  EXPECT_FALSE(parse_sbatch_output("").ok());
}

TEST(ClusterSlurmTest, SqueueLinesWithPendingRanges) {
  const auto s = parse_task_states(
      "17_0|RUNNING\n17_1|COMPLETED\n17_[3-5%2]|PENDING\n17_[7,9]|PENDING\n"
      "18_0|RUNNING\n17_2.batch|FAILED\ngarbage\n",
      "17");
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s.at(0), TaskState::kRunning);
  EXPECT_EQ(s.at(1), TaskState::kDone);
  EXPECT_EQ(s.at(3), TaskState::kPending);
  EXPECT_EQ(s.at(4), TaskState::kPending);
  EXPECT_EQ(s.at(5), TaskState::kPending);
  EXPECT_EQ(s.at(7), TaskState::kPending);
  EXPECT_EQ(s.at(9), TaskState::kPending);
  EXPECT_EQ(s.count(2), 0u);  // a step line, not a task
}

TEST(ClusterSlurmTest, SacctStates) {
  const auto s = parse_task_states(
      "5_0|COMPLETED\n5_1|CANCELLED by 0\n5_2|TIMEOUT\n5_3|NODE_FAIL\n5_4|OUT_OF_MEMORY\n", "5");
  EXPECT_EQ(s.at(0), TaskState::kDone);
  for (int t = 1; t <= 4; ++t) EXPECT_EQ(s.at(t), TaskState::kFailed) << t;
  EXPECT_EQ(from_slurm_state("WHATEVER"), TaskState::kUnknown);
}

}  // namespace
}  // namespace benchguard::cluster
