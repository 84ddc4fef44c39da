// What `system check` and `system tune` print: the machine's findings with their fixes, and
// the writes tuning makes.
#pragma once

#include <vector>

#include "measure/system.hpp"
#include "report/document.hpp"

namespace benchguard::report {

// The findings (records: check, value, status, why, fix), the fixes, the counts; and JSON.
Document system_check_document(const std::vector<measure::Finding>& findings);

// The writes `system tune` would make (records), with the commands that make and undo them.
// No JSON: tune_outcome_document has it.
Document tune_plan_document(const measure::SystemRoot& root,
                            const std::vector<measure::TuneWrite>& writes);

// Each write's outcome: errors[i] is 0 when written, an errno when it failed, -1 when not
// attempted. Text prints the attempted ones (or that there was nothing to tune); JSON prints
// everything.
Document tune_outcome_document(bool dry_run, const measure::SystemRoot& root,
                               const std::vector<measure::TuneWrite>& writes,
                               const std::vector<int>& errors);

}  // namespace benchguard::report
