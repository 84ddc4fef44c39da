// benchguard system check [--strict] | tune [--dry-run] [--yes]: what makes timings noisy on
// this machine, and the fixes that are one write to /sys or /proc (docs/system.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "core/json_error.hpp"
#include "measure/system.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

namespace {

struct SystemFlags {
  std::string root = "/";
  bool strict = false;
  bool dry_run = false;
  bool yes = false;
};

// How long swap traffic is watched for.
constexpr std::chrono::milliseconds kSwapInterval{200};

std::string table_format(const std::string& format) {
  return format == "jsonl" ? "csv" : format;
}

Result<int> check(Context& ctx, const SystemFlags& f) {
  using measure::Severity;
  const auto findings = measure::check_system(measure::SystemRoot(f.root), kSwapInterval);
  int counts[4] = {0, 0, 0, 0};
  for (const auto& x : findings) ++counts[static_cast<int>(x.severity)];
  const int warnings = counts[static_cast<int>(Severity::kWarning)];
  const int code = f.strict && warnings > 0 ? static_cast<int>(ExitCode::kRegression) : 0;
  const std::string& format = ctx.globals.format;

  if (format == "json") {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& x : findings)
      checks.push_back({{"key", x.key},
                        {"value", x.value},
                        {"severity", measure::to_string(x.severity)},
                        {"why", x.why},
                        {"fix", x.fix}});
    const nlohmann::json j = {{"checks", checks}, {"warnings", warnings}};
    ctx.out << json_text(j, 2) << "\n";
    return code;
  }

  const bool machine = format == "csv" || format == "jsonl";
  const bool md = format == "md";
  report::Table t;
  t.header = {"check", "value", "status", "why it matters"};
  if (machine) t.header.emplace_back("fix");
  for (const auto& x : findings) {
    std::vector<std::string> row{x.key, x.value, measure::to_string(x.severity), x.why};
    if (machine) {
      std::string fix;
      for (const auto& c : x.fix) fix += (fix.empty() ? "" : "; ") + c;
      row.push_back(fix);
    }
    t.add_row(std::move(row));
  }
  if (md) ctx.out << "**benchguard system check**\n\n";
  report::render(t, table_format(format), ctx.out);
  if (machine) return code;

  report::Table fixes;
  fixes.header = {"check", "status", "fix"};
  for (const auto& x : findings)
    for (const auto& c : x.fix)
      fixes.add_row({x.key, measure::to_string(x.severity), md ? "`" + c + "`" : c});
  if (!fixes.rows.empty()) {
    ctx.out << (md ? "\n**To fix**\n\n" : "\nto fix:\n");
    report::render(fixes, format, ctx.out);
  }
  ctx.out << fmt::format("\n{} warning{}, {} info, {} unknown; {} ok\n", warnings,
                         warnings == 1 ? "" : "s", counts[static_cast<int>(Severity::kInfo)],
                         counts[static_cast<int>(Severity::kUnknown)],
                         counts[static_cast<int>(Severity::kOk)]);
  return code;
}

bool confirmed(Context& ctx, size_t writes) {
  ctx.err << fmt::format("write these {} file{}? [y/N] ", writes, writes == 1 ? "" : "s");
  ctx.err.flush();
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes";
}

Result<int> tune(Context& ctx, const SystemFlags& f) {
  const measure::SystemRoot root(f.root);
  const auto writes = measure::tune_writes(measure::read_system_facts(root));
  const std::string& format = ctx.globals.format;
  const bool json = format == "json";
  const bool md = format == "md";
  if (writes.empty()) {
    if (json)
      ctx.out << json_text(
                     nlohmann::json({{"dry_run", f.dry_run}, {"writes", nlohmann::json::array()}}),
                     2)
              << "\n";
    else
      ctx.out << "nothing to tune: the CPU governor, turbo, ASLR and perf_event_paranoid are as "
                 "benchmarks want them or cannot be read (see benchguard system check)\n";
    return 0;
  }

  if (!json) {
    report::Table t;
    t.header = {"check", "file", "now", "new"};
    for (const auto& w : writes) t.add_row({w.key, root.path(w.path), w.previous, w.value});
    report::render(t, table_format(format), ctx.out);
    const auto list = [&](const char* title, auto command) {
      ctx.out << (md ? fmt::format("\n**{}**\n\n", title) : fmt::format("\n{}:\n", title));
      for (const auto& w : writes)
        ctx.out << (md ? "- `" + command(w) + "`" : "  " + command(w)) << "\n";
    };
    list("commands", [](const measure::TuneWrite& w) { return w.command(); });
    list("to restore", [](const measure::TuneWrite& w) { return w.restore(); });
  }

  if (root.root() == "/" && geteuid() != 0)
    ctx.err << "benchguard: note: not running as root, so the kernel will most likely refuse "
               "these writes (sudo benchguard system tune)\n";

  std::vector<int> errors(writes.size(), -1);  // -1: not attempted
  bool apply = false;
  if (!f.dry_run) {
    if (!f.yes && isatty(STDIN_FILENO) != 1)
      return Error{
          "system tune: not on a terminal and no --yes, so nothing was written (--dry-run only "
          "shows the writes)"};
    apply = f.yes || confirmed(ctx, writes.size());
  }
  if (apply) {
    if (!json) ctx.out << "\n";
    for (size_t i = 0; i < writes.size(); ++i) {
      errors[i] = root.write(writes[i].path, writes[i].value);
      if (json) continue;
      if (errors[i] == 0)
        ctx.out << fmt::format("written  {}: {} -> {}\n", root.path(writes[i].path),
                               writes[i].previous, writes[i].value);
      else
        ctx.out << fmt::format("failed   {}: {}\n", root.path(writes[i].path),
                               std::strerror(errors[i]));
    }
  } else if (!json) {
    ctx.out << (f.dry_run ? "\ndry run: nothing written\n" : "\nnothing written\n");
  }

  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < writes.size(); ++i) {
      const auto& w = writes[i];
      nlohmann::json j = {{"key", w.key},
                          {"path", root.path(w.path)},
                          {"previous", w.previous},
                          {"value", w.value},
                          {"command", w.command()},
                          {"restore", w.restore()},
                          {"written", errors[i] == 0}};
      if (errors[i] > 0) j["error"] = std::strerror(errors[i]);
      list.push_back(std::move(j));
    }
    ctx.out << json_text(nlohmann::json({{"dry_run", f.dry_run}, {"writes", list}}), 2) << "\n";
  }

  int failed = 0;
  bool denied = false;
  for (int e : errors) {
    failed += e > 0 ? 1 : 0;
    denied = denied || e == EACCES || e == EPERM || e == EROFS;
  }
  if (failed > 0)
    return Error{fmt::format("system tune: {} of {} writes failed{}", failed, writes.size(),
                             denied ? " (not permitted: run it as root, e.g. sudo benchguard "
                                      "system tune)"
                                    : "")};
  return 0;
}

}  // namespace

Action add_system(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<SystemFlags>();
  auto* sys =
      app.add_subcommand("system", "What makes timings noisy on this machine, and tuning it");
  sys->require_subcommand(1);
  auto* check_cmd = sys->add_subcommand(
      "check",
      "Report CPU governor, turbo, SMT, isolation, load, swap, throttling, ASLR, "
      "perf_event_paranoid, VM, container and CPU quota, with fixes");
  check_cmd->add_flag("--strict", f->strict, "Exit 1 when any check warns (for CI)");
  auto* tune_cmd = sys->add_subcommand(
      "tune",
      "Fix the governor, turbo, ASLR and perf_event_paranoid by writing /sys and /proc "
      "(asks first; needs root)");
  tune_cmd->add_flag("--dry-run", f->dry_run, "Only show the writes and how to undo them");
  tune_cmd->add_flag("-y,--yes", f->yes, "Write without asking");
  check_cmd->add_option("--root", f->root,
                        "Read /sys and /proc under this directory instead of / (a fake tree, "
                        "for tests)");
  tune_cmd->add_option("--root", f->root,
                       "Read and write /sys and /proc under this directory instead of / (a fake "
                       "tree, for tests)");
  return [&ctx, f, check_cmd]() -> Result<int> {
    if (check_cmd->parsed()) return check(ctx, *f);
    return tune(ctx, *f);
  };
}

}  // namespace benchguard::cli
