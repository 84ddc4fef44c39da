// What `plan` prints: a table (text, Markdown, CSV) of the recommendation per benchmark, with
// -v the grid behind it; or, with --format json, everything including the full grid for both
// selections and both decisions (for the dashboard).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analysis/plan.hpp"
#include "cli/app.hpp"

namespace benchguard::cli {

void print_plan(Context& ctx, const RunData& run, std::span<const analysis::BenchmarkPlan> plans,
                const analysis::PlanOptions& options);

// The comment lines on top of the plan file: where it came from and what it asked for.
std::vector<std::string> plan_comment(const RunData& run, const analysis::PlanOptions& options);

}  // namespace benchguard::cli
