// What `plan` prints: a table (text, Markdown, CSV) of the recommendation per benchmark, with
// verbose > 0 the grid behind it; or, as JSON, everything including the full grid for both
// selections and both decisions.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "analysis/plan.hpp"
#include "report/document.hpp"

namespace benchguard::report {

// The JSON document of `plan --format json`.
nlohmann::json plan_json(const RunData& run, std::span<const analysis::BenchmarkPlan> plans,
                         const analysis::PlanOptions& options);

// The recommendation per benchmark (records), with -v the grid of each, the warnings, and
// plan_json.
Document plan_document(int verbose, const RunData& run,
                       std::span<const analysis::BenchmarkPlan> plans,
                       const analysis::PlanOptions& options);

// The comment lines on top of the plan file: where it came from and what it asked for.
std::vector<std::string> plan_comment(const RunData& run, const analysis::PlanOptions& options);

}  // namespace benchguard::report
