#include "refs/backfill.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <numeric>

#include "analysis/history.hpp"
#include "measure/host.hpp"
#include "vcs/log.hpp"
#include "vcs/worktree.hpp"

namespace benchguard::refs {
namespace {

namespace fs = std::filesystem;

// The newest revision `range` ends on: B of A..B (HEAD when B is empty), else `range` itself.
std::string range_tip(const std::string& range) {
  const auto dots = range.rfind("..");
  if (dots == std::string::npos) return range;
  const std::string tip = range.substr(dots + 2);
  return tip.empty() || tip == "." ? "HEAD" : tip;
}

// This machine's class (analysis::machine_class) for runs with `labels`.
std::string this_machine(const KeyValues& labels) {
  RunRecord here;
  here.labels = labels;
  here.artifacts = measure::host_artifacts();
  here.hostname = measure::hostname();
  return analysis::machine_class(here);
}

// The commits that have a history run of `suite` on machine class `machine`, each with the
// uuid of one such run.
Result<std::map<std::string, std::string>> measured_commits(store::Store& store,
                                                            const std::string& suite,
                                                            const std::string& machine) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  std::map<std::string, std::string> out;
  for (const auto& r : runs) {
    if (r.git_commit.empty() || r.suite != suite || out.contains(r.git_commit) ||
        !analysis::is_history_run(r.status, r.labels))
      continue;
    std::string cls;
    if (const std::string* m = find_value(r.labels, analysis::kMachineLabel); m && !m->empty()) {
      cls = *m;
    } else {  // the host fingerprint is in the run's artifacts
      BG_ASSIGN(const RunData data, store.load_run(std::to_string(r.id), {.columns = true}));
      cls = analysis::machine_class(data.run);
    }
    if (cls == machine) out.emplace(r.git_commit, r.uuid);
  }
  return out;
}

std::shared_future<measure::GitInfo> ready(measure::GitInfo info) {
  std::promise<measure::GitInfo> p;
  p.set_value(std::move(info));
  return p.get_future().share();
}

// What the runs of one backfilled commit record beside what `run` does.
KeyValues backfill_artifacts(const RefSide& side, const RefsOptions& options) {
  KeyValues out{{"backfill.worktree", side.worktree}};
  if (!options.build.empty()) out.emplace_back("backfill.build", options.build);
  return out;
}

// One line of the benchmarks that failed in `run`: "spin: 3 instance(s) failed; last: exit 1".
std::string failures(const schedule::RunOutcome& run) {
  std::string out;
  for (const auto& b : run.benchmarks) {
    if (b.instances_failed == 0 && !b.abandoned) continue;
    out += fmt::format("{}{}: {} instance(s) failed{}; last: {}", out.empty() ? "" : "; ", b.name,
                       b.instances_failed, b.abandoned ? ", abandoned" : "", b.last_failure);
  }
  return out;
}

}  // namespace

Result<BackfillPlan> plan_backfill(const Suite& suite, const BackfillOptions& options) {
  BackfillPlan plan;
  BG_ASSIGN(plan.repo, repository_of(suite, options.refs));
  std::error_code ec;
  std::vector<std::string> commits;
  if (fs::is_regular_file(options.commits, ec)) {
    BG_ASSIGN(commits, vcs::commits_in_file(plan.repo.top, options.commits));
  } else {
    BG_ASSIGN(commits, vcs::first_parent_range(plan.repo.top, options.commits));
    plan.branch = vcs::branch_named(plan.repo.top, range_tip(options.commits));
  }
  plan.commits = vcs::thin_commits(std::move(commits), options.every, options.last);
  if (plan.branch.empty()) plan.branch = measure::git_info(plan.repo.top).branch;
  return plan;
}

Result<BackfillOutcome> run_backfill(const Suite& suite, store::Store& store,
                                     const BackfillPlan& plan, const BackfillOptions& options,
                                     const BackfillProgress& progress,
                                     const schedule::ProgressFn& instances) {
  using Step = BackfillEvent::Step;
  std::map<std::string, std::string> existing;
  if (options.skip_existing) {
    BG_ASSIGN(existing, measured_commits(store, suite.name, this_machine(options.refs.run.labels)));
  }
  BackfillOutcome out;
  const std::size_t total = plan.commits.size();
  for (std::size_t i = 0; i < total && !schedule::stop_requested(); ++i) {
    const std::string& commit = plan.commits[i];
    out.reached = i + 1;
    BackfillEvent e;
    e.index = i + 1;
    e.total = total;
    e.commit = commit;
    const auto tell = [&](Step step) {
      e.step = step;
      if (progress) progress(e);
    };
    if (const auto it = existing.find(commit); it != existing.end()) {
      ++out.skipped;
      e.detail = it->second;
      tell(Step::kSkipped);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    RefSide side{"", commit, commit, "", nullptr};
    schedule::RunOptions opts = options.refs.run;
    opts.failed_on_failure = true;
    // The commit's facts as `run` records them of a checkout; until it is one, the commit.
    measure::GitInfo git;
    git.commit = commit;
    git.branch = plan.branch;
    // A commit that cannot be measured: a failed run of its own, and on to the next.
    const auto fail = [&](const std::string& why) -> Status {
      opts.git = ready(git);
      opts.artifacts.emplace_back("backfill.failure", why);
      BG_ASSIGN(e.run_id, schedule::store_failed_run(suite, store, opts));
      ++out.failed;
      e.detail = why;
      tell(Step::kFailed);
      return ok_status();
    };
    if (!options.refs.build.empty()) tell(Step::kBuilding);
    auto worktree = vcs::checkout(plan.repo.top, commit);
    if (!worktree.ok()) {
      BG_TRY(fail(worktree.error().message));
      continue;
    }
    side.worktree = worktree->path;
    side.lease = worktree->lease;  // held until this commit is measured
    const KeyValues where = backfill_artifacts(side, options.refs);
    opts.artifacts.insert(opts.artifacts.end(), where.begin(), where.end());
    git = measure::git_info(side.worktree);
    if (git.commit.empty()) git.commit = commit;
    git.branch = plan.branch;  // detached in the worktree: the range's
    if (!options.refs.build.empty()) {
      BG_ASSIGN(const auto built,
                vcs::build(plan.repo.top, commit, side.worktree, options.refs.build));
      if (!built.ok) {
        BG_TRY(fail(fmt::format("the build failed{}; its output is in {}",
                                built.cached ? " before (the same command)"
                                             : fmt::format(" (exit {})", built.exit_code),
                                built.log)));
        continue;
      }
    }
    if (schedule::stop_requested()) break;  // built, not measured: the next backfill goes on
    const Suite at = suite_in_worktree(suite, plan.repo, side);
    if (auto ready_to_run = schedule::preflight(at); !ready_to_run.ok()) {
      if (options.refs.build.empty())
        return Error{fmt::format(
            "{}: {} (in its worktree {}; nothing was built there: give --build CMD that builds "
            "the benchmarks of a checked-out commit)",
            commit.substr(0, 10), ready_to_run.error().message, side.worktree)};
      BG_TRY(fail(ready_to_run.error().message));
      continue;
    }
    opts.git = ready(git);
    tell(Step::kMeasuring);
    auto run = [&]() -> Result<schedule::RunOutcome> {
      if (!options.refs.until_decided) return schedule::run_suite(at, store, opts, instances);
      BG_ASSIGN(auto seq,
                sequential::run_until_decided(at, store, opts, *options.refs.until_decided,
                                              options.refs.on_look, instances));
      return std::move(seq.run);
    }();
    if (!run.ok()) {  // a benchmark that could not be launched: the runner stored it failed
      ++out.failed;
      e.detail = run.error().message;
      tell(Step::kFailed);
      continue;
    }
    e.run_id = run->run_id;
    if (run->status == "interrupted") {
      out.interrupted = true;
      break;
    }
    if (run->status == "failed") {
      ++out.failed;
      e.detail = failures(*run);
      tell(Step::kFailed);
      continue;
    }
    ++out.measured;
    e.instances = std::accumulate(
        run->benchmarks.begin(), run->benchmarks.end(), 0,
        [](int n, const schedule::BenchmarkOutcome& b) { return n + b.instances_ok; });
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    e.notes = run->notes;
    tell(Step::kMeasured);
  }
  out.interrupted = schedule::stop_requested() && out.measured + out.skipped + out.failed < total;
  return out;
}

}  // namespace benchguard::refs
