// Shared by the two halves of the duet CSV importer: duet_csv.cpp reads the rows into
// instances, duet_schedule.cpp puts them in order and pairs them.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::ingest {

struct Source;

// The rows of one (run, benchmark, type, runid, pair).
struct DuetInstance {
  std::string run;  // benchguard's export: the run's uuid; "" in duet files
  std::string benchmark, type, runid, pair, tag;
  int64_t epoch_start_ms = -1;  // -1: no such column
  int first_line = 0;
  InstanceRecord inst;
};

struct DuetColumns {
  bool type = false;             // a `type` column says how each instance was scheduled
  bool iteration_times = false;  // iteration_start_ns / iteration_end_ns columns
};

// Iteration times derived where the file gives only the instance start, schedules
// inferred where it has no `type`, `order` positions shared by duet pairs, and variants
// sorted by name within their benchmark (A before B, whatever came first in the file).
// An Error, at an instance's first line, when its times do not fit in int64 nanoseconds.
Result<RunData> assemble_duet_run(const Source& src, std::vector<DuetInstance> instances,
                                  const DuetColumns& columns, RunRecord run);

}  // namespace benchguard::ingest
