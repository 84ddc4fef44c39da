#include "cli/run_commits.hpp"

#include <fmt/format.h>

#include <optional>
#include <set>

#include "cli/progress.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/names.hpp"
#include "refs/backfill.hpp"

namespace benchguard::cli {

void CommitsFlags::add_to(CLI::App* c) {
  auto* commits_opt = c->add_option(
      "--commits", commits,
      "Measure the suite at past commits instead, each built in a worktree of its own (--build) "
      "and stored as that commit's history run: A..B or a revision (its first-parent line, "
      "oldest first), or a file of hashes (one a line, # comments); exit 1 when one failed");
  c->add_option("--every", every, "With --commits: only the newest and every N-th commit before it")
      ->check(whole_number("--every", 1))
      ->needs(commits_opt);
  c->add_option("--last", last, "With --commits: only the newest N commits (after --every)")
      ->check(whole_number("--last", 1))
      ->needs(commits_opt);
  add_build(c, build)->needs(commits_opt);
  add_repo(c, repo)->needs(commits_opt);
  auto* skip = c->add_flag("--skip-existing", skip_existing,
                           "With --commits, the default: skip commits that have a finished run "
                           "of this suite on this machine class, so a rerun goes on where an "
                           "interrupted one stopped")
                   ->needs(commits_opt);
  c->add_flag("--remeasure", remeasure,
              "With --commits: measure commits that have a run too (their points pool both)")
      ->needs(commits_opt)
      ->excludes(skip);
}

namespace {

std::string seconds_text(double s) {
  return s < 10 ? fmt::format("{:.1f} s", s) : fmt::format("{:.0f} s", s);
}

// One line per step of each commit: "commit 3/8 abc1234567: measured 40 instances in 12 s".
void print_step(Context& ctx, const refs::BackfillEvent& e) {
  using Step = refs::BackfillEvent::Step;
  std::string what;
  switch (e.step) {
    case Step::kSkipped:
      what = fmt::format("skipped: run {} measured it", e.detail.substr(0, 8));
      break;
    case Step::kBuilding:
      what = "building";
      break;
    case Step::kMeasuring:
      what = "measuring";
      break;
    case Step::kMeasured:
      what = fmt::format("measured {} instance{} in {}", e.instances, e.instances == 1 ? "" : "s",
                         seconds_text(e.seconds));
      break;
    case Step::kFailed:
      what = "FAILED: " + escape_text(e.detail);
      break;
  }
  ctx.err << fmt::format("benchguard: commit {}/{} {}: {}\n", e.index, e.total,
                         e.commit.substr(0, 10), what);
}

}  // namespace

Result<int> run_commits(Context& ctx, const RunFlags& f, const CommitsFlags& c,
                        const UntilDecidedFlags& until) {
  if (f.suite.empty() || !ctx.trailing.empty())
    return Error{
        "--commits measures a suite file at each commit: benchguard run SUITE.yml --commits "
        "RANGE --build CMD"};
  if (f.null)
    return Error{
        "--null measures A against itself, which is no history: leave it out of --commits"};
  BG_TRY(until.check_statistic());
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f));
  refs::BackfillOptions o;
  BG_ASSIGN(o.refs.run, run_options(ctx, f, suite));
  o.refs.build = c.build;
  o.refs.repo = c.repo;
  o.commits = c.commits;
  o.every = c.every;
  o.last = c.last;
  o.skip_existing = !c.remeasure;
  if (until.active(suite)) {
    BG_ASSIGN(o.refs.until_decided, until.settings(suite));
    o.refs.on_look = look_printer(ctx);
  }
  // Git is asked before the store opens: a range that names nothing creates no database.
  BG_ASSIGN(const refs::BackfillPlan plan, refs::plan_backfill(suite, o));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  if (!ctx.globals.quiet)
    ctx.err << fmt::format("benchguard: measuring {} commit{} of {}{} into {}\n",
                           plan.commits.size(), plan.commits.size() == 1 ? "" : "s", plan.repo.top,
                           plan.branch.empty() ? "" : " (branch " + plan.branch + ")",
                           ctx.db_name());

  // Each commit's build and measurement under a progress bar of its own (without a terminal,
  // a line at least every interval while one lasts), cleared before each step's line.
  std::optional<Progress> bar;
  std::set<std::string> noted;  // each of the runs' notes once
  const auto on_step = [&](const refs::BackfillEvent& e) {
    using Step = refs::BackfillEvent::Step;
    bar.reset();
    if (e.step == Step::kMeasured) ctx.cache_series(*store, {e.run_id});
    if (ctx.globals.quiet) return;
    print_step(ctx, e);
    for (const auto& note : e.notes)
      if (noted.insert(note).second) ctx.err << "benchguard: note: " << note << "\n";
    if (e.step == Step::kBuilding || e.step == Step::kMeasuring) {
      bar.emplace(ctx, "run");
      bar->step(fmt::format("commit {}/{} {}: {}", e.index, e.total, e.commit.substr(0, 10),
                            e.step == Step::kBuilding ? "building" : "measuring"));
    }
  };
  const auto on_instance = [&](const schedule::ProgressEvent& e) {
    if (bar) (*bar)(e);
  };
  auto outcome = [&] {
    const StopOnSignals stop;
    return refs::run_backfill(suite, *store, plan, o, on_step, on_instance);
  }();
  if (!outcome.ok()) return outcome.error();
  const std::string counts = fmt::format("{} measured, {} skipped, {} failed", outcome->measured,
                                         outcome->skipped, outcome->failed);
  if (outcome->interrupted) {
    ctx.err << fmt::format(
        "benchguard: interrupted at commit {}/{}: {}; the same command again goes on from "
        "there (commits measured are skipped)\n",
        outcome->reached, plan.commits.size(), counts);
    return 130;
  }
  ctx.err << fmt::format("benchguard: {} commit{}: {}\n", plan.commits.size(),
                         plan.commits.size() == 1 ? "" : "s", counts);
  return outcome->failed > 0 ? 1 : 0;
}

}  // namespace benchguard::cli
