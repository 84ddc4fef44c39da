// Joins the runs the tasks of a job stored in their databases into the one run the job
// stands for, and stores it: every unit once (the first attempt that stored it), instances
// ordered by when they started. Idempotent: a run already stored is left as it is.
#pragma once

#include <optional>

#include "cluster/job.hpp"
#include "store/store.hpp"

namespace benchguard::cluster {

struct Collected {
  bool already = false;  // the run was stored before; nothing stored now
  int64_t run_id = 0;
  int units = 0;
  int tasks = 0;  // task databases read
};

struct Joined {
  RunData run;
  int tasks = 0;  // task databases it came from
};

// The joined run (not stored). An Error lists how many units are missing and how to get them.
Result<Joined> join_task_runs(const Job& job, const Suite& suite);

Result<Collected> collect(const Job& job, store::Store& target);

// What a task does on its way out when the job names a database (Job::db): once every unit is
// stored, the joined run is stored there. nullopt while units are missing. Two tasks ending
// together store it once (the run's uuid is unique; the second finds it there).
Result<std::optional<Collected>> collect_if_complete(const Job& job);

}  // namespace benchguard::cluster
