// A submitted job's folder: job.json (the manifest: suite, seed, run uuid, the units and which
// task of which attempt runs each), a copy of the suite, and per attempt the batch script and
// each task's database, log and exit code. The folder must be on a file system the compute
// nodes share (docs/cluster.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/shard.hpp"
#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::cluster {

// One sbatch --array submission: the first, or a resubmission of missing units.
struct Attempt {
  int number = 1;
  std::string slurm_job;  // the array job id
  int tasks = 1;
  std::vector<Unit> units;  // with their task
};

struct Job {
  std::string dir;   // absolute; not stored in job.json
  std::string uuid;  // of the run every task writes and collect stores
  uint64_t seed = 0;
  std::string schedule;
  std::string suite_path;  // absolute: relative working directories resolve against it
  std::string suite_text;
  std::string plan_path;  // a plan (`benchguard plan -o`) applied to the suite; empty: none
  std::string plan_text;
  int instances = 0;  // overrides of the suite's (and plan's) counts; 0: theirs
  int iterations = 0;
  KeyValues labels;
  std::string binary;  // the benchguard the tasks run
  // A PostgreSQL database the job's last task stores the joined run in (collect_if_complete);
  // empty: `benchguard collect` stores it.
  std::string db;
  std::string partition;
  std::vector<std::string> sbatch_args;
  std::vector<Unit> units;  // every unit of the run, task -1
  std::vector<Attempt> attempts;
};

// A location the tasks of a job can store into themselves: a PostgreSQL URL (a SQLite file
// on a shared file system is left to collect: its locks are not to be trusted there).
bool tasks_can_store(const std::string& location);

// Reads DIR/job.json; an Error naming the folder when it is not a job folder.
Result<Job> load_job(const std::string& dir);
// Writes DIR/job.json atomically (a resubmission rewrites it).
Status save_job(const Job& job);

// The suite the tasks run: the saved text parsed as the file it came from, the plan and counts
// applied (in that order, as `run --plan --instances` does),
// variants paired as the schedule needs (sharded_suite).
Result<Suite> job_suite(const Job& job);

// Attempt `attempt` of the job, when it has task `task`; an Error naming what it has.
Result<const Attempt*> find_task(const Job& job, int attempt, int task);

// Paths inside the folder.
std::string attempt_dir(const Job& job, int attempt);
std::string task_db(const Job& job, int attempt, int task);
std::string task_exit_file(const Job& job, int attempt, int task);

// "bench/variant#3".
std::string unit_name(const Suite& suite, const Unit& unit);

}  // namespace benchguard::cluster
