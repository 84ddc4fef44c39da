// Exporters of stored runs, one file each: csv (the duet unified per-iteration schema),
// json (everything, nested), jsonl (Hail's instance schema, one instance per line).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "report/format.hpp"

namespace benchguard::report {

// suite,benchmark,type,order,pair,runid,iteration,iteration_start_ns,iteration_end_ns,
// iteration_time_ns, then metric and failure columns, then the runs' artifacts.
void export_csv(const std::vector<RunData>& runs, std::ostream& out);
void export_json(const std::vector<RunData>& runs, std::ostream& out);
void export_jsonl(const std::vector<RunData>& runs, std::ostream& out);

// By format: csv (also for table, export's default), json or jsonl.
void export_runs(const std::vector<RunData>& runs, Format format, std::ostream& out);

}  // namespace benchguard::report
