// Which data `compare` puts on its A and B sides: two variants of one run, two runs, the
// latest runs with two labels or at two git commits, or the latest runs of two database files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "cli/app.hpp"

namespace benchguard::cli {

struct CompareInputs {
  std::vector<std::unique_ptr<RunData>> runs;  // keeps the sides' data alive
  analysis::Side a, b;
  std::string description;  // one line: what is compared with what
};

// One run by reference: a run id or uuid (prefix), "latest", KEY=VALUE (the latest run with
// that label), a git commit or ref (the latest run at it), or a database file (its latest run).
Result<RunData> resolve_run(const Context& ctx, store::Store& store, const std::string& ref);

// refs: empty, one run, or two references (see `benchguard compare --help`).
// variant_a/variant_b pick variants by name when a run has several.
Result<CompareInputs> resolve_compare_inputs(const Context& ctx, store::Store& store,
                                             const std::vector<std::string>& refs,
                                             const std::string& variant_a,
                                             const std::string& variant_b);

}  // namespace benchguard::cli
