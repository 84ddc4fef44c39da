#include "analysis/history_runs.hpp"

namespace benchguard::analysis {

bool is_history_run(std::string_view status, const KeyValues& labels) {
  if (status != "complete" && status != "imported") return false;
  return !is_probe_run(labels);
}

}  // namespace benchguard::analysis
