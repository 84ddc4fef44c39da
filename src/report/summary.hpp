// What `summary` prints of a run: per benchmark, variant and metric the intervals,
// variability, steady state, burn-in and outliers (text, Markdown, CSV), the duet balance,
// then the warnings and notes; or all of it as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "analysis/summary.hpp"
#include "report/document.hpp"

namespace benchguard::report {

nlohmann::json summary_json(const RunData& run, const analysis::RunSummary& s);

// The table (records: one row per benchmark, variant and metric, numbers in the metric's
// unit, fractions as fractions), the duet balance, warnings and notes, and summary_json.
Document summary_document(const RunData& run, const analysis::RunSummary& s);

}  // namespace benchguard::report
