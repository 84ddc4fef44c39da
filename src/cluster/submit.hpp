// Writing a job folder and submitting it as one sbatch --array job; resubmitting the units
// a job has not stored.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cluster/job.hpp"
#include "cluster/status.hpp"

namespace benchguard::cluster {

struct SubmitOptions {
  std::string suite_path;
  std::string job_dir;  // empty: slurm-jobs/UUID8 under the current directory
  int tasks = 8;
  std::string schedule;  // empty: the suite's
  uint64_t seed = 0;
  std::string plan_path;  // --plan
  int instances = 0, iterations = 0;
  KeyValues labels;
  std::string partition;
  std::vector<std::string> sbatch_args;
  std::string binary;    // the benchguard the tasks run
  std::string db;        // where the run goes (--db); tasks store it themselves when they can
  bool dry_run = false;  // write the folder and script, do not call sbatch
};

// Sends the script of an attempt to Slurm; returns the job id. Tests replace it.
using SubmitFn = std::function<Result<std::string>(const std::string& script_path)>;

// Checks the suite (every command runnable; plan entries that match no benchmark go to
// `warnings`), writes the folder and attempt 1's script, and
// submits it. Returns the job as saved.
Result<Job> submit(const SubmitOptions& options, const SubmitFn& send,
                   std::vector<std::string>* warnings = nullptr);

// A new attempt of the units no task has stored, over at most `tasks` tasks (0: as many as the
// first attempt). An Error while a task is still pending or running, or when nothing is missing.
Result<Attempt> resubmit(Job& job, const JobStatus& status, int tasks, const SubmitFn& send,
                         bool dry_run = false);

}  // namespace benchguard::cluster
