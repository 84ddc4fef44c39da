// The command line: `int run(args, out, err)` parses and dispatches, so tests can run the
// whole CLI in-process. Each subcommand lives in its own cmd_*.cpp, is declared here and named
// in app.cpp's command table, which sets up only the one a command line names.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "report/format.hpp"
#include "store/store.hpp"

namespace benchguard::cli {

// Options every subcommand shares.
struct Globals {
  std::string db = "benchguard.db";                // --db, or $BENCHGUARD_DB
  report::Format format = report::Format::kTable;  // --format, offered per command
  bool quiet = false;                              // -q
  int verbose = 0;                                 // -v
};

struct Context {
  std::ostream& out;
  std::ostream& err;
  Globals globals;
  std::vector<std::string> trailing;  // arguments after `--` (run -- CMD ...)
  std::string command_line;

  // Opens the store named by --db for writing, or an Error naming the path and what to do.
  Result<std::unique_ptr<store::Store>> open_store(bool create = false) const;
  // Opens it read-only (store::OpenOptions::read_only): commands that only read it work on
  // a read-only file or directory, and write nothing.
  Result<std::unique_ptr<store::Store>> open_store_read_only() const;
  // --db as messages and output show it: a URL without its password.
  std::string db_name() const;
  // Ok when --format is one of `formats`, else the error (exit 2) naming them: for a part of
  // a command that writes fewer formats than the command (`db status` beside `db check`).
  Status offers(const std::string& what, report::Formats formats) const;
  // A line may be redrawn in place: standard error is a terminal, CI is not set (or "false" or
  // "0") and -q is not given (cli/progress.hpp).
  bool interactive() const;
  // A run by reference (store/run_ref.hpp), git refs resolved in the current directory.
  Result<RunData> resolve_run(store::Store& store, const std::string& ref,
                              const store::LoadOptions& load = {}) const;
  // Saves the series cache entries (analysis/series_cache.hpp) of the runs of `ids` just
  // stored; cache_all_series of every run that has none (after merge and prune). The runs are
  // stored whatever happens here: a failure is a warning (history reads those runs'
  // instances until gate or detect saves their entries).
  void cache_series(store::Store& store, const std::vector<int64_t>& ids) const;
  void cache_all_series(store::Store& store) const;
};

// What a run reference may be, for --help (store/run_ref.hpp).
inline constexpr const char* kRunRefHelp =
    "Run: latest, an id, a uuid (prefix), a KEY=VALUE label, a git commit or ref (the newest "
    "run at it), or a database file (its newest run)";

// --label KEY=VALUE options (run, import) as key-value pairs, in the order given.
Result<KeyValues> parse_labels(const std::vector<std::string>& labels);

// A subcommand's action: returns the process exit code, or an Error (printed as one line).
using Action = std::function<Result<int>()>;

// One per cmd_*.cpp.
Action add_run(CLI::App& app, Context& ctx);
Action add_runs(CLI::App& app, Context& ctx);
Action add_show(CLI::App& app, Context& ctx);
Action add_export(CLI::App& app, Context& ctx);
Action add_db(CLI::App& app, Context& ctx);
Action add_worktrees(CLI::App& app, Context& ctx);
Action add_system(CLI::App& app, Context& ctx);
Action add_summary(CLI::App& app, Context& ctx);
Action add_compare(CLI::App& app, Context& ctx);
Action add_plan(CLI::App& app, Context& ctx);
Action add_import(CLI::App& app, Context& ctx);
Action add_calibrate(CLI::App& app, Context& ctx);
Action add_confirm(CLI::App& app, Context& ctx);
Action add_history(CLI::App& app, Context& ctx);
Action add_detect(CLI::App& app, Context& ctx);
Action add_ack(CLI::App& app, Context& ctx);
Action add_unack(CLI::App& app, Context& ctx);
Action add_gate(CLI::App& app, Context& ctx);
Action add_ab(CLI::App& app, Context& ctx);
Action add_pytest(CLI::App& app, Context& ctx);
Action add_bisect(CLI::App& app, Context& ctx);
Action add_submit(CLI::App& app, Context& ctx);
Action add_task(CLI::App& app, Context& ctx);
Action add_status(CLI::App& app, Context& ctx);
Action add_collect(CLI::App& app, Context& ctx);
Action add_report(CLI::App& app, Context& ctx);
Action add_serve(CLI::App& app, Context& ctx);

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The commands' names, in the order --help lists them (hidden ones too).
std::vector<std::string> command_names();

}  // namespace benchguard::cli
