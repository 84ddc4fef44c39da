#include "cli/app.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <string_view>

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

// Every command, in the order --help lists them, under the name its add_* function gives it
// (CliCommands.EachCommandIsSetUpUnderItsOwnName checks the two agree).
struct Command {
  std::string_view name;
  Action (*add)(CLI::App&, Context&);
  report::Formats formats;  // what --format may ask of it
};
// export writes the stored runs for scripts only (import reads them back); table, the
// default, is CSV.
constexpr report::Formats kExportFormats{report::Format::kTable, report::Format::kCsv,
                                         report::Format::kJson, report::Format::kJsonl};
constexpr std::array kCommands = {
    Command{"run", add_run, report::kAllFormats},
    Command{"runs", add_runs, report::kAllFormats},
    Command{"show", add_show, report::kAllFormats},
    Command{"summary", add_summary, report::kAllFormats},
    Command{"compare", add_compare, report::kAllFormats},
    Command{"plan", add_plan, report::kAllFormats},
    Command{"calibrate", add_calibrate, report::kAllFormats},
    Command{"history", add_history, report::kAllFormats},
    Command{"detect", add_detect, report::kAllFormats},
    Command{"ack", add_ack, report::kTextOnly},
    Command{"unack", add_unack, report::kTextOnly},
    Command{"gate", add_gate, report::kAllFormats},
    Command{"confirm", add_confirm, report::kAllFormats},
    Command{"ab", add_ab, report::kAllFormats},
    Command{"pytest", add_pytest, report::kAllFormats},
    Command{"bisect", add_bisect, report::kAllFormats},
    Command{"submit", add_submit, report::kTextOnly},
    Command{"task", add_task, report::kTextOnly},
    Command{"status", add_status, report::kAllFormats},
    Command{"collect", add_collect, report::kTextOnly},
    Command{"report", add_report, report::kTextOnly},
    Command{"serve", add_serve, report::kTextOnly},
    Command{"import", add_import, report::kTextOnly},
    Command{"export", add_export, kExportFormats},
    Command{"db", add_db, report::kAllFormats},
    Command{"worktrees", add_worktrees, report::kAllFormats},
    Command{"system", add_system, report::kAllFormats},
};

// What a parse error says. The checks of shared_flags.hpp name their flag themselves
// ("--instances must be at least 1, not 0"): CLI11's "--instances: " before that is dropped.
std::string parse_error_text(const CLI::ParseError& e) {
  std::string what = e.what();
  const auto colon = what.find(": ");
  if (colon != std::string::npos && what.starts_with("-") &&
      what.compare(colon + 2, colon + 1, what.substr(0, colon) + " ") == 0)
    return what.substr(colon + 2);
  return what;
}

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

Status Context::offers(const std::string& what, report::Formats formats) const {
  if (formats.has(globals.format)) return ok_status();
  return Error{what + " writes " + formats.names() + "; not --format " +
               std::string(report::format_name(globals.format))};
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

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  names.reserve(kCommands.size());
  for (const auto& c : kCommands) names.emplace_back(c.name);
  return names;
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
  // The command line is stored with runs: a database URL in it is kept without its secrets,
  // and those secrets are masked wherever else they appear in it.
  std::vector<std::string> secrets;
  if (store::is_postgres_url(ctx.globals.db)) secrets = store::url_secrets(ctx.globals.db);
  for (const auto& a : args) {
    const std::string url = a.starts_with("--db=") ? a.substr(5) : a;
    if (!store::is_postgres_url(url)) continue;
    for (auto& s : store::url_secrets(url)) secrets.push_back(std::move(s));
  }
  for (const auto& a : args) {
    const std::string shown = a.starts_with("--db=")
                                  ? "--db=" + store::display_location(a.substr(5))
                                  : store::display_location(a);
    ctx.command_line += (ctx.command_line.empty() ? "" : " ") + store::scrub(shown, secrets);
  }

  CLI::App app{"benchguard: statistically rigorous performance-regression testing", "benchguard"};
  app.set_version_flag("--version", std::string("benchguard ") + kVersion);
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  app.option_defaults()->always_capture_default();
  app.add_option("--db", ctx.globals.db, "Database file or postgresql:// URL (or $BENCHGUARD_DB)");
  std::string format = "table";
  std::vector<std::string> format_names;
  for (const report::Format f : report::kEveryFormat)
    format_names.emplace_back(report::format_name(f));
  app.add_option("--format", format, "Output format (each command says which it writes)")
      ->check(CLI::IsMember(format_names));
  app.add_flag("-q,--quiet", ctx.globals.quiet, "No progress output");
  app.add_flag("-v,--verbose", ctx.globals.verbose, "More detail");

  // The first word that is neither an option nor a global option's value names the command:
  // one that names none is an error that suggests the closest, not CLI11's "A subcommand is
  // required". Only the command named is set up (its options, their checks and help text:
  // most of the start-up of a short command when all 25 were); with none named (--help,
  // --version, nothing) all are, so that the help lists them.
  const Command* named = nullptr;
  for (std::size_t i = 0; i < own.size() && named == nullptr; ++i) {
    const std::string& w = own[i];
    if (w == "--db" || w == "--format") {
      ++i;
      continue;
    }
    if (w.starts_with("-")) continue;
    const auto found = std::find_if(kCommands.begin(), kCommands.end(),
                                    [&](const Command& c) { return c.name == w; });
    if (found != kCommands.end()) {
      named = &*found;
      continue;
    }
    const std::string near = closest_name(w, command_names());
    err << "benchguard: unknown command '" << escape_name(w) << "'"
        << (near.empty() ? "" : "; did you mean '" + near + "'?") << " (see benchguard --help)\n";
    return static_cast<int>(ExitCode::kInput);
  }

  std::vector<std::pair<CLI::App*, Action>> commands;
  for (const auto& c : kCommands) {
    if (named != nullptr && named != &c) continue;
    const size_t before = app.get_subcommands({}).size();
    Action a = c.add(app, ctx);
    commands.emplace_back(app.get_subcommands({})[before], std::move(a));
  }

  std::vector<std::string> reversed(own.rbegin(), own.rend());  // CLI11 wants them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << "benchguard: " << escape_text(parse_error_text(e)) << " (see benchguard --help)\n";
    return static_cast<int>(ExitCode::kInput);
  }

  ctx.globals.format = *report::parse_format(format);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    auto& [sub, action] = commands[i];
    if (!sub->parsed()) continue;
    const Command& command = named != nullptr ? *named : kCommands[i];
    if (const auto offered = ctx.offers(std::string(command.name), command.formats);
        !offered.ok()) {
      err << "benchguard: " << offered.error().message << "\n";
      return static_cast<int>(offered.error().code);
    }
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
