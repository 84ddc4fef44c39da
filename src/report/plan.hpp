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

namespace benchguard::report {

// The JSON document of `plan --format json`.
nlohmann::json plan_json(const RunData& run, std::span<const analysis::BenchmarkPlan> plans,
                         const analysis::PlanOptions& options);

// `format`: text, md, csv or json (jsonl is written as csv).
void print_plan(std::ostream& out, const std::string& format, int verbose, const RunData& run,
                std::span<const analysis::BenchmarkPlan> plans,
                const analysis::PlanOptions& options);

// The comment lines on top of the plan file: where it came from and what it asked for.
std::vector<std::string> plan_comment(const RunData& run, const analysis::PlanOptions& options);

}  // namespace benchguard::report
