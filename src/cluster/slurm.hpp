// Slurm as text: the batch script of a job array, and what sbatch, squeue and sacct print.
// Pure; running the commands is in slurm_commands.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::cluster {

struct ScriptOptions {
  std::string job_name;
  int tasks = 1;                         // --array=0-(tasks-1)
  std::string partition;                 // empty: the cluster's default
  std::vector<std::string> sbatch_args;  // extra #SBATCH lines, e.g. --time=10
  std::string log_pattern;               // --output, with %a for the task
  std::vector<std::string> command;      // what each task runs
};

// An error naming `what` when `value` holds a line break (newline or carriage return), which
// would end its line of a job script and start a line of the attacker's; or a NUL byte.
Status check_script_value(const std::string& what, const std::string& value);

// An error when any value of the script's options fails check_script_value.
Status check_script(const ScriptOptions& options);

// The batch script: #SBATCH lines, then the command (each word shell-quoted).
std::string sbatch_script(const ScriptOptions& options);

// A word as the shell reads it back unchanged.
std::string shell_quote(const std::string& word);

// The job id `sbatch --parsable` printed ("123" or "123;cluster"), or an Error.
Result<std::string> parse_sbatch_output(const std::string& out);

// A task's state as Slurm knows it.
enum class TaskState { kPending, kRunning, kDone, kFailed, kUnknown };
std::string to_string(TaskState state);

// Slurm's state word (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED by 0, TIMEOUT, ...).
TaskState from_slurm_state(const std::string& word);

// Task states of array job `job` from `squeue -h -r -j JOB -o %i|%T` or
// `sacct -n -P -X -j JOB -o JobID,State` output: lines "JOB_TASK|STATE"; a pending range
// "JOB_[2-5%4]|PENDING" gives each task of the range. Lines of other jobs or steps are ignored.
std::map<int, TaskState> parse_task_states(const std::string& out, const std::string& job);

}  // namespace benchguard::cluster
