// Which data `compare` puts on its A and B sides: two variants of one run, two runs, the
// latest runs with two labels or at two git commits, the latest runs of two database files,
// or result files of other harnesses (imported in memory, nothing stored), several per side.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "cli/app.hpp"

namespace benchguard::cli {

struct CompareInputs {
  std::vector<std::unique_ptr<RunData>> runs;  // keeps the sides' data alive
  analysis::Side a, b;
  std::string description;  // one line: what is compared with what
  // The artifacts of each run or result file of a side (analysis/conditions.hpp); empty when
  // both sides come from one run.
  std::vector<KeyValues> conditions_a, conditions_b;
  // The Python packages that differ between A and B, as one note (analysis::packages_note),
  // where both sides' runs record theirs; else "".
  std::string packages_note;
  // A and B are the two variants of a sequential run (run --until-decided): its record.
  std::optional<analysis::SequentialRecord> sequential;
  // Two runs with several variants of a benchmark: each variant is compared with its namesake
  // (analysis::CompareOptions::by_variant).
  bool by_variant = false;
  // What the comparison should say about how the sides were chosen (a note of the report).
  std::vector<std::string> notes;
};

// The store of --db, opened on first use: comparing result files needs no database.
class LazyStore {
 public:
  explicit LazyStore(const Context& ctx) : ctx_(ctx) {}
  Result<store::Store*> get();

 private:
  const Context& ctx_;
  std::unique_ptr<store::Store> store_;
};

struct CompareRequest {
  // Empty, one reference, two references, or `FILE... vs FILE...` (several result files a
  // side; see `benchguard compare --help` and docs/compare.md).
  std::vector<std::string> refs;
  std::string variant_a, variant_b;   // pick variants by name when a run has several
  std::string input_format = "auto";  // how result files are read
  // Two labels, each side every run with its label, their instances pooled (--pool).
  bool pool = false;
};

// Import warnings go to `warnings`, one line each, naming the file.
Result<CompareInputs> resolve_compare_inputs(const Context& ctx, LazyStore& store,
                                             const CompareRequest& request,
                                             std::vector<std::string>& warnings);

}  // namespace benchguard::cli
