// Which stored runs are points of history (docs/history.md): a unit of its own below
// history.hpp, so that what reads runs for history (the series cache among them) can ask
// without including history itself.
#pragma once

#include <string_view>

#include "core/model.hpp"

namespace benchguard::analysis {

// Runs that are not history: probe runs (calibrate, run --null, ab, bisect, confirm:
// core/model.hpp is_probe_run), and runs that did not finish (running, interrupted, failed).
bool is_history_run(std::string_view status, const KeyValues& labels);
inline bool is_history_run(const RunRecord& run) {
  return is_history_run(run.status, run.labels);
}

}  // namespace benchguard::analysis
