// What `system check` and `system tune` print: the machine's findings with their fixes, and
// the writes tuning makes (text, Markdown, CSV, JSON).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "measure/system.hpp"

namespace benchguard::report {

void print_system_check(std::ostream& out, const std::string& format,
                        const std::vector<measure::Finding>& findings);

// The writes `system tune` would make, with the commands that make and undo them (not JSON).
void print_tune_plan(std::ostream& out, const std::string& format, const measure::SystemRoot& root,
                     const std::vector<measure::TuneWrite>& writes);

// Each write's outcome: errors[i] is 0 when written, an errno when it failed, -1 when not
// attempted. Text prints the attempted ones; JSON prints everything.
void print_tune_outcome(std::ostream& out, const std::string& format, bool dry_run,
                        const measure::SystemRoot& root,
                        const std::vector<measure::TuneWrite>& writes,
                        const std::vector<int>& errors);

}  // namespace benchguard::report
