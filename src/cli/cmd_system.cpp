// benchguard system check [--strict] | tune [--dry-run] [--yes]: what makes timings noisy on
// this machine, and the fixes that are one write to /sys or /proc (docs/system.md).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "core/json_error.hpp"
#include "measure/system.hpp"
#include "report/system.hpp"
#include "report/write.hpp"

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

Result<int> check(Context& ctx, const SystemFlags& f) {
  const auto findings = measure::check_system(measure::SystemRoot(f.root), kSwapInterval);
  report::write(report::system_check_document(findings), ctx.globals.format, ctx.out);
  const bool warned = std::any_of(findings.begin(), findings.end(), [](const auto& x) {
    return x.severity == measure::Severity::kWarning;
  });
  return f.strict && warned ? static_cast<int>(ExitCode::kRegression) : 0;
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
  if (writes.empty()) {
    report::write(report::tune_outcome_document(f.dry_run, root, writes, {}), ctx.globals.format,
                  ctx.out);
    return 0;
  }
  report::write(report::tune_plan_document(root, writes), ctx.globals.format, ctx.out);

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
  if (apply)
    for (size_t i = 0; i < writes.size(); ++i)
      errors[i] = root.write(writes[i].path, writes[i].value);
  report::write(report::tune_outcome_document(f.dry_run, root, writes, errors), ctx.globals.format,
                ctx.out);

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
