#include "cli/app.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>

#include "analysis/series_cache.hpp"
#include "core/names.hpp"
#include "core/version.hpp"
#include "store/run_ref.hpp"
#include "vcs/git.hpp"

namespace benchguard::cli {

Result<std::unique_ptr<store::Store>> Context::open_store(bool create) const {
  store::OpenOptions opts;
  opts.create = create;
  return store::open_store(globals.db, opts);
}

Result<std::unique_ptr<store::Store>> Context::open_store_read_only() const {
  store::OpenOptions opts;
  opts.create = false;
  opts.read_only = true;
  return store::open_store(globals.db, opts);
}

Result<RunData> Context::resolve_run(store::Store& store, const std::string& ref,
                                     const store::LoadOptions& load) const {
  return store::resolve_run(store, ref, load, db_name(), [](const std::string& r) {
    return vcs::rev_parse(std::filesystem::current_path().string(), r);
  });
}

namespace {

// The runs are stored: a series cache that could not be saved is a warning.
void warn_not_cached(std::ostream& err, const Error& e) {
  err << "benchguard: warning: the series cache was not saved (" << e.message
      << "); history reads the runs' instances until `gate` or `detect` saves it\n";
}

}  // namespace

void Context::cache_all_series(store::Store& store) const {
  if (const auto saved = analysis::cache_store_series(store); !saved.ok())
    warn_not_cached(err, saved.error());
}

void Context::cache_series(store::Store& store, const std::vector<int64_t>& ids) const {
  const auto saved = analysis::cache_run_series(store, ids);
  if (!saved.ok()) warn_not_cached(err, saved.error());
}

std::string Context::db_name() const {
  return store::display_location(globals.db);
}

bool Context::interactive() const {
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0' && std::string(ci) != "false" && std::string(ci) != "0")
    return false;
  return !globals.quiet && isatty(STDERR_FILENO) == 1;
}

Result<KeyValues> parse_labels(const std::vector<std::string>& labels) {
  KeyValues kv;
  for (const auto& l : labels) {
    const auto eq = l.find('=');
    if (eq == std::string::npos || eq == 0) return Error{"--label '" + l + "' must be KEY=VALUE"};
    std::string key = l.substr(0, eq);
    std::string value = l.substr(eq + 1);
    BG_TRY(check_name("--label", key));
    if (!value.empty()) BG_TRY(check_name("--label " + key + " value", value));
    kv.emplace_back(std::move(key), std::move(value));
  }
  return kv;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Context ctx{out, err, {}, {}, {}};
  if (const char* db = std::getenv("BENCHGUARD_DB"); db != nullptr && *db != '\0')
    ctx.globals.db = db;

  // `run -- CMD ARGS...`: everything after the first `--` is the command, untouched by
  // option parsing.
  std::vector<std::string> own;
  bool after = false;
  for (const auto& a : args) {
    if (!after && a == "--") {
      after = true;
      continue;
    }
    (after ? ctx.trailing : own).push_back(a);
  }
  // The command line is stored with runs: a database URL in it is kept without its password.
  for (const auto& a : args) {
    const std::string shown = a.starts_with("--db=")
                                  ? "--db=" + store::display_location(a.substr(5))
                                  : store::display_location(a);
    ctx.command_line += (ctx.command_line.empty() ? "" : " ") + shown;
  }

  CLI::App app{"benchguard: statistically rigorous performance-regression testing", "benchguard"};
  app.set_version_flag("--version", std::string("benchguard ") + kVersion);
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  app.option_defaults()->always_capture_default();
  app.add_option("--db", ctx.globals.db, "Database file or postgresql:// URL (or $BENCHGUARD_DB)");
  app.add_option("--format", ctx.globals.format, "Output format")
      ->check(CLI::IsMember({"table", "md", "json", "csv", "jsonl"}));
  app.add_flag("-q,--quiet", ctx.globals.quiet, "No progress output");
  app.add_flag("-v,--verbose", ctx.globals.verbose, "More detail");

  std::vector<std::pair<CLI::App*, Action>> commands;
  auto add = [&](auto adder) {
    const size_t before = app.get_subcommands({}).size();
    Action a = adder(app, ctx);
    commands.emplace_back(app.get_subcommands({})[before], std::move(a));
  };
  add(add_run);
  add(add_runs);
  add(add_show);
  add(add_summary);
  add(add_compare);
  add(add_plan);
  add(add_calibrate);
  add(add_history);
  add(add_detect);
  add(add_ack);
  add(add_unack);
  add(add_gate);
  add(add_confirm);
  add(add_ab);
  add(add_bisect);
  add(add_submit);
  add(add_task);
  add(add_status);
  add(add_collect);
  add(add_report);
  add(add_serve);
  add(add_import);
  add(add_export);
  add(add_db);
  add(add_system);

  // The first word that is neither an option nor a global option's value names the command:
  // one that names none is an error that suggests the closest, not CLI11's "A subcommand is
  // required".
  for (std::size_t i = 0; i < own.size(); ++i) {
    const std::string& w = own[i];
    if (w == "--db" || w == "--format") {
      ++i;
      continue;
    }
    if (w.starts_with("-")) continue;
    std::vector<std::string> names;
    names.reserve(commands.size());
    for (const auto& [sub, action] : commands) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), w) != names.end()) break;
    const std::string near = closest_name(w, names);
    err << "benchguard: unknown command '" << escape_name(w) << "'"
        << (near.empty() ? "" : "; did you mean '" + near + "'?") << " (see benchguard --help)\n";
    return static_cast<int>(ExitCode::kInput);
  }

  std::vector<std::string> reversed(own.rbegin(), own.rend());  // CLI11 wants them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << "benchguard: " << escape_text(e.what()) << " (see benchguard --help)\n";
    return static_cast<int>(ExitCode::kInput);
  }

  for (auto& [sub, action] : commands) {
    if (!sub->parsed()) continue;
    // The last line of defence: every known failure is an Error where it starts; what still
    // escapes becomes one line and exit code 2, never std::terminate.
    Result<int> r = Error{"no result"};
    try {
      r = action();
    } catch (const std::bad_alloc&) {
      r = Error{"out of memory: an input or a count is larger than this machine can hold"};
    } catch (const std::exception& e) {
      r = Error{std::string("internal error: ") + e.what() + " (please report it)"};
    }
    if (!r.ok()) {
      err << "benchguard: " << escape_text(r.error().message) << "\n";
      return static_cast<int>(r.error().code);
    }
    return r.value();
  }
  err << "benchguard: no command given (see benchguard --help)\n";
  return static_cast<int>(ExitCode::kInput);
}

}  // namespace benchguard::cli
