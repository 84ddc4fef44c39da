#include "cluster/job.hpp"

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace benchguard::cluster {
namespace {

using testing::TempDir;
using testing::write_file;

Job sample(const std::string& dir) {
  Job job;
  job.dir = dir;
  job.uuid = "0123abcd-0000-4000-8000-000000000000";
  job.seed = 18446744073709551615ULL;  // every bit of a seed survives
  job.schedule = "alternate";
  job.suite_path = dir + "/s.yml";
  job.suite_text =
      "name: t\ninstances: 2\nbenchmarks:\n  - name: x\n    command: [/bin/true]\n"
      "    variants:\n      A: {}\n      B: {env: {Y: \"1\"}}\n";
  job.instances = 3;
  job.labels = {{"pr", "17"}};
  job.binary = "/opt/benchguard";
  job.db = "postgresql:///bench";
  job.partition = "fast";
  job.sbatch_args = {"--time=30"};
  job.units = {{0, 0, 0, -1}, {0, 1, 0, -1}};
  job.attempts = {{1, "77", 2, {{0, 0, 0, 1}, {0, 1, 0, 1}}}};
  return job;
}

TEST(ClusterJobTest, SavedJobReadsBackTheSame) {
  TempDir dir;
  const Job job = sample(dir.path().string());
  ASSERT_TRUE(save_job(job).ok());
  auto back = load_job(dir.path().string());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->uuid, job.uuid);
  EXPECT_EQ(back->seed, job.seed);
  EXPECT_EQ(back->schedule, job.schedule);
  EXPECT_EQ(back->suite_text, job.suite_text);
  EXPECT_EQ(back->instances, 3);
  EXPECT_EQ(back->labels, job.labels);
  EXPECT_EQ(back->binary, job.binary);
  EXPECT_EQ(back->db, job.db);
  EXPECT_EQ(back->sbatch_args, job.sbatch_args);
  EXPECT_EQ(back->units, job.units);
  ASSERT_EQ(back->attempts.size(), 1u);
  EXPECT_EQ(back->attempts[0].slurm_job, "77");
  EXPECT_EQ(back->attempts[0].units, job.attempts[0].units);
}

TEST(ClusterJobTest, TheSuiteGetsTheJobsCountsAndSchedule) {
  TempDir dir;
  auto suite = job_suite(sample(dir.path().string()));
  ASSERT_TRUE(suite.ok()) << suite.error().message;
  EXPECT_EQ(suite->schedule, "alternate");
  ASSERT_EQ(suite->benchmarks.size(), 1u);
  EXPECT_EQ(suite->benchmarks[0].instances, 3);
  EXPECT_EQ(unit_name(*suite, {0, 1, 2, 0}), "x/B#2");
}

TEST(ClusterJobTest, NotAJobFolderSaysWhatToGive) {
  TempDir dir;
  auto none = load_job(dir.path().string());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("not a job folder"), std::string::npos);

  write_file(dir.file("job.json"), "{\"format\": \"something else\", \"version\": 1}\n");
  auto other = load_job(dir.path().string());
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("not a job manifest"), std::string::npos);

  write_file(dir.file("job.json"), "{\n\"format\": \n");
  auto broken = load_job(dir.path().string());
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("job.json:"), std::string::npos) << broken.error().message;
}

TEST(ClusterJobTest, FindTaskNamesWhatTheJobHas) {
  TempDir dir;
  const Job job = sample(dir.path().string());
  EXPECT_TRUE(find_task(job, 1, 1).ok());
  EXPECT_NE(find_task(job, 1, 2).error().message.find("has tasks 0 to 1, not 2"),
            std::string::npos);
  EXPECT_NE(find_task(job, 2, 0).error().message.find("no attempt 2"), std::string::npos);
}

TEST(ClusterJobTest, OnlyPostgresIsStoredIntoByTasks) {
  EXPECT_TRUE(tasks_can_store("postgresql:///bench?host=/tmp"));
  EXPECT_TRUE(tasks_can_store("postgres://u@h/db"));
  EXPECT_FALSE(tasks_can_store("/shared/bench.db"));
  EXPECT_FALSE(tasks_can_store("benchguard.db"));
}

}  // namespace
}  // namespace benchguard::cluster
