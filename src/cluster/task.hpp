// One array task: runs the units the job gave it into its own database in the job folder
// (the run's uuid is the job's, so collect can join the tasks' runs into one), then writes its
// exit code beside it.
#pragma once

#include "cluster/job.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cluster {

struct TaskOutcome {
  schedule::RunOutcome run;
  int units = 0;
  std::string db;
};

// Runs task `task` of attempt `attempt`; an Error when the job has no such task. The exit
// code is written by write_task_exit, so that a task that fails before running writes one too.
Result<TaskOutcome> run_task(const Job& job, int attempt, int task, const std::string& command_line,
                             const schedule::ProgressFn& progress = {});

void write_task_exit(const Job& job, int attempt, int task, int code);

}  // namespace benchguard::cluster
