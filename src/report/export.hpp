// Exporters of stored runs, one file each: csv (the duet unified per-iteration schema),
// json (everything, nested), jsonl (Hail's instance schema, one instance per line).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace benchguard::report {

// suite,benchmark,type,order,pair,runid,iteration,iteration_start_ns,iteration_end_ns,
// iteration_time_ns, then metric and failure columns, then the runs' artifacts.
void export_csv(const std::vector<RunData>& runs, std::ostream& out);
void export_json(const std::vector<RunData>& runs, std::ostream& out);
void export_jsonl(const std::vector<RunData>& runs, std::ostream& out);

// Dispatch by name; false for an unknown format.
bool export_runs(const std::vector<RunData>& runs, const std::string& format, std::ostream& out);

}  // namespace benchguard::report
