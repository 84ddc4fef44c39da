// Measuring a suspected change again (refs/confirm.hpp): the flags `confirm` and
// `gate --confirm` share, and the confirmer the gate calls.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analysis/gate.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/run_flags.hpp"

namespace benchguard::cli {

struct ConfirmFlags {
  RunFlags run;  // the suite and its counts; --instances: per side (default: what the change needs)
  std::string build;
  std::string repo;
  AnalysisFlags analysis;
  VerdictFlags verdict;
  bool fixed = false;  // --fixed: the instance count, not sequential

  // --build, --repo and the run and verdict flags; the suite is the caller's to add.
  void add_to(CLI::App* c);
};

// For each change: the newest stored confirmation run of it (label confirm = its id), else a
// new one, measured through `store`; progress on ctx.err (cli/progress.hpp).
Result<analysis::Confirmer> make_confirmer(Context& ctx, const ConfirmFlags& f,
                                           store::Store& store);

}  // namespace benchguard::cli
