// benchguard run SUITE.yml | run [options] -- CMD ARGS... | run SUITE.yml --commits RANGE
#include <fmt/format.h>

#include <filesystem>

#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/run_commits.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/show_table.hpp"
#include "cli/stop_signals.hpp"
#include "cli/until_decided.hpp"
#include "core/names.hpp"
#include "measure/host.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cli {

namespace {

Result<int> do_run(Context& ctx, const RunFlags& f, const UntilDecidedFlags& until) {
  BG_TRY(until.check_statistic());
  // git runs while the suite is read and checked and the store opens (a new database's
  // schema takes about as long); a run that fails before it starts waits for git to end.
  auto git = measure::git_info_async(std::filesystem::current_path().string());
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f));
  BG_ASSIGN(schedule::RunOptions opts, run_options(ctx, f, suite));
  if (f.null) opts.labels.emplace_back("null", f.null_variant.empty() ? "first" : f.null_variant);
  opts.git = std::move(git);

  BG_TRY(schedule::preflight(suite));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));

  auto outcome = [&]() -> Result<schedule::RunOutcome> {
    const StopOnSignals stop;
    Progress bar(ctx, "run");
    if (until.active(suite)) {
      BG_ASSIGN(const auto settings, until.settings(suite));
      BG_ASSIGN(auto seq, sequential::run_until_decided(suite, *store, opts, settings,
                                                        look_printer(ctx), std::ref(bar)));
      print_sequential(ctx, seq);
      return std::move(seq.run);
    }
    return schedule::run_suite(suite, *store, opts, std::ref(bar));
  }();
  if (!outcome.ok()) return outcome.error();

  ctx.cache_series(*store, {outcome->run_id});
  if (!ctx.globals.quiet) {
    BG_ASSIGN(const RunData data, store->load_run(std::to_string(outcome->run_id)));
    print_run(ctx, data);
  }
  for (const auto& b : outcome->benchmarks) {
    for (const auto& stopped : b.stopped)
      ctx.err << fmt::format("benchguard: {}: {}\n", b.name, escape_text(stopped));
    if (b.abandoned)
      ctx.err << fmt::format("benchguard: {}: abandoned after {} failed instances in a row: {}\n",
                             b.name, b.instances_failed, escape_text(b.last_failure));
    else if (b.instances_failed > 0)
      ctx.err << fmt::format("benchguard: {}: {} instance(s) failed; last: {}\n", b.name,
                             b.instances_failed, escape_text(b.last_failure));
  }
  for (const auto& note : outcome->notes) ctx.err << "benchguard: note: " << note << "\n";
  if (outcome->nothing_measured())
    ctx.err << "benchguard: every instance failed: the run is stored as failed (history and "
               "compare leave it out)\n";
  ctx.err << fmt::format("benchguard: stored run {} ({}) in {}\n", outcome->uuid.substr(0, 8),
                         outcome->status, ctx.db_name());
  if (outcome->status == "interrupted") return 130;
  return outcome->any_failure() ? static_cast<int>(ExitCode::kBenchmarkFailure) : 0;
}

}  // namespace

Action add_run(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<RunFlags>();
  auto until = std::make_shared<UntilDecidedFlags>();
  auto* c = app.add_subcommand("run", "Measure a suite, or one command given after --");
  c->add_option("suite", f->suite, "Suite YAML file");
  c->add_option("--name", f->name, "Benchmark name for `run -- CMD` (default: program name)");
  c->add_flag("--shell", f->shell, "Run the command after -- through /bin/sh -c");
  add_parameter_flags(c, f->params);
  add_null(c, f->null);
  c->add_option("--null-variant", f->null_variant,
                "With --null: the variant to run twice (default: each benchmark's first)")
      ->needs("--null");
  add_run_flags(c, *f);
  until->add_to(c, /*verdict=*/true);
  auto commits = std::make_shared<CommitsFlags>();
  commits->add_to(c);
  return [&ctx, f, until, commits]() {
    if (!commits->commits.empty()) return run_commits(ctx, *f, *commits, *until);
    return do_run(ctx, *f, *until);
  };
}

}  // namespace benchguard::cli
