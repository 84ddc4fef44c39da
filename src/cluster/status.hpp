// Where a job stands: each task's state (its exit file, else Slurm's word) and what its
// database holds, and the units no task has stored yet.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/job.hpp"
#include "cluster/slurm.hpp"
#include "core/model.hpp"

namespace benchguard::cluster {

struct TaskReport {
  int attempt = 1;
  int task = 0;
  std::string slurm_job;
  TaskState state = TaskState::kUnknown;
  int assigned = 0;  // units
  int stored = 0;    // of them, in its database
  std::string host;
  std::string note;  // why failed, what Slurm said
};

struct JobStatus {
  std::vector<TaskReport> tasks;  // by attempt, then task
  std::vector<Unit> missing;      // units no task has stored, in the run's order
  int units = 0;
  bool active() const;  // a task still pending or running
};

// A task's state from what it left (`exit_code`: the code it wrote on its way out), what Slurm
// says (`slurm`) and whether Slurm was asked at all. A task that wrote its exit code is done
// (0, or 3: some benchmark instances failed, and were stored) or failed; one without is what
// Slurm says, and failed when Slurm no longer knows it.
TaskState task_state(std::optional<int> exit_code, std::optional<TaskState> slurm,
                     bool slurm_answered);

// The run a task database holds (by the job's uuid); nullopt when there is none yet.
Result<std::optional<RunData>> read_task_run(const std::string& path, const std::string& uuid);

// The status of every task of every attempt. `slurm` holds Slurm's answers by array job id
// (slurm_task_states); a job id missing there counts as not asked.
Result<JobStatus> job_status(const Job& job, const Suite& suite,
                             const std::map<std::string, std::map<int, TaskState>>& slurm);

// Asks Slurm every `poll_s` seconds until no task is pending or running, for at most
// `timeout_s` seconds (0: no limit); an Error when the time is up.
Result<JobStatus> wait_for_job(const Job& job, const Suite& suite, double timeout_s,
                               double poll_s = 2.0);

// Slurm's answers for every attempt of the job.
std::map<std::string, std::map<int, TaskState>> ask_slurm(const Job& job);

}  // namespace benchguard::cluster
