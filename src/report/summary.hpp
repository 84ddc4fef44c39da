// What `summary` prints of a run: per benchmark, variant and metric the intervals,
// variability, steady state, burn-in and outliers (text, Markdown, CSV), the duet balance,
// then the warnings and notes; or all of it as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "analysis/summary.hpp"

namespace benchguard::report {

nlohmann::json summary_json(const RunData& run, const analysis::RunSummary& s);

// `format`: text, md or csv (jsonl is written as csv); json is summary_json.
void print_summary(std::ostream& out, const std::string& format, const RunData& run,
                   const analysis::RunSummary& s);

}  // namespace benchguard::report
