// Running sbatch, squeue and sacct (through measure::capture_output).
#pragma once

#include <map>
#include <string>

#include "cluster/slurm.hpp"
#include "core/result.hpp"

namespace benchguard::cluster {

// Submits the batch script; returns the job id. An Error when sbatch is missing or refuses it
// (with what it said).
Result<std::string> sbatch(const std::string& script_path);

// What Slurm knows of the tasks of array job `job`: squeue for those still queued or running,
// sacct (where accounting is on) for those that ended. Empty when neither answers.
std::map<int, TaskState> slurm_task_states(const std::string& job);

}  // namespace benchguard::cluster
