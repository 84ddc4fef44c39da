// `run SUITE --commits RANGE --build CMD`: the suite measured at past commits, each stored as
// that commit's history run (refs/backfill.hpp, docs/history.md "From day one").
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "cli/app.hpp"
#include "cli/run_flags.hpp"
#include "cli/until_decided.hpp"

namespace benchguard::cli {

struct CommitsFlags {
  std::string commits;  // A..B, a revision, or a file of hashes; empty: measure the checkout
  std::size_t every = 0;
  std::size_t last = 0;
  std::string build;
  std::string repo;
  bool skip_existing = false;  // the default with --commits; the flag says so
  bool remeasure = false;

  // --commits, --every, --last, --build, --repo, --skip-existing, --remeasure.
  void add_to(CLI::App* c);
};

// Measures the commits, one line each on ctx.err (unless -q), and a summary line. Exit 0 when
// every commit was measured or skipped, 1 when one failed (its build or benchmarks), 130 when
// interrupted; an Error (exit 2) for bad input.
Result<int> run_commits(Context& ctx, const RunFlags& f, const CommitsFlags& c,
                        const UntilDecidedFlags& until);

}  // namespace benchguard::cli
