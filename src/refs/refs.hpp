// Measuring git refs (docs/bisect.md): `ab` runs a suite at two commits as variants A and B of
// one run; `bisect` measures commits between a good and a bad one until it finds the first
// bad. Each commit is checked out in a worktree of its own and built there (vcs/worktree.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bisect.hpp"
#include "analysis/samples.hpp"
#include "core/model.hpp"
#include "core/result.hpp"
#include "core/suite.hpp"
#include "schedule/runner.hpp"
#include "sequential/run.hpp"
#include "stats/verdict.hpp"
#include "store/store.hpp"

namespace benchguard::vcs {
class WorktreeLease;
}

namespace benchguard::refs {

struct RefsOptions {
  std::string repo;     // a directory in the repository; empty: the suite file's
  std::string build;    // shell command run in each worktree before measuring; empty: none
  std::string variant;  // the suite variant measured at each commit; empty: each benchmark's first
  schedule::RunOptions run;
  // ab --until-decided: the A/B run (not its A/A control) stops each benchmark once decided.
  std::optional<sequential::Settings> until_decided;
  sequential::LookFn on_look;
  // Told what is being done before each step the runner does not report: a side checked out
  // and built, the measuring of the sides.
  std::function<void(const std::string&)> on_step;
};

// One side: a ref, the commit it names and the worktree it is checked out and built in.
struct RefSide {
  std::string name;  // the variant name it runs under ("A", "B", "good", ...)
  std::string ref;   // as the user gave it
  std::string commit;
  std::string worktree;
  // Keeps the worktree from the cache's eviction while the side is in use.
  std::shared_ptr<vcs::WorktreeLease> lease;
};

// The repository of a suite and where the suite file sits in it.
struct Repository {
  std::string top;    // its top-level directory
  std::string suite;  // the suite file, relative to `top`
};
Result<Repository> repository_of(const Suite& suite, const RefsOptions& options);

// Resolves `ref`, checks it out and builds it. A failed build is an Error naming the commit
// and the build log.
Result<RefSide> prepare_side(const Repository& repo, const RefsOptions& options,
                             const std::string& name, const std::string& ref);

// `suite` with each benchmark's variant (options.variant, or its first) replaced by one variant
// per side, named after the side: the same command, run where the suite's directory is in the
// side's worktree (a cwd or program inside the repository is moved there too), with
// BENCHGUARD_REF, BENCHGUARD_COMMIT and BENCHGUARD_WORKTREE set. `benchmarks`: only these
// (empty: all); an unknown name is an Error.
Result<Suite> suite_at(const Suite& suite, const Repository& repo,
                       const std::vector<RefSide>& sides, const RefsOptions& options,
                       const std::vector<std::string>& benchmarks = {});

// `suite` as it runs at `side`'s commit: every benchmark and variant kept, under its own name,
// each moved into the side's worktree as suite_at moves them, with the same variables set.
Suite suite_in_worktree(const Suite& suite, const Repository& repo, const RefSide& side);

// The artifacts stored with a run of `sides` (ref, commit and worktree of each, the build).
KeyValues side_artifacts(const std::vector<RefSide>& sides, const RefsOptions& options);

// ---- ab

struct AbOutcome {
  RefSide a, b;
  schedule::RunOutcome run;                             // A and B
  std::optional<schedule::RunOutcome> null_run;         // A and A again, with --null
  std::vector<sequential::BenchmarkResult> sequential;  // with until_decided
};

Result<AbOutcome> run_ab(const Suite& suite, store::Store& store, const std::string& ref_a,
                         const std::string& ref_b, bool null, const RefsOptions& options,
                         const schedule::ProgressFn& progress = {});

// ---- bisect

struct BisectOptions {
  RefsOptions refs;
  std::string benchmark;  // empty: the suite's only benchmark
  std::string metric = "wall_time";
  int instances = 0;      // per side and round; 0: the suite's
  int max_instances = 0;  // per side over a candidate's rounds; 0: four times `instances`
  analysis::BurnInPolicy burn_in;
  stats::Statistic statistic = stats::Statistic::kRobustMean;
  double confidence = 0.95;
  int resamples = 2000;
  uint64_t seed = 1;
};

struct BisectStep {
  std::size_t index = 0;  // in BisectOutcome::commits
  std::string commit;
  bool skipped = false;
  std::string why_skipped;
  analysis::StepResult result;
  analysis::StepVerdict decided = analysis::StepVerdict::kInconclusive;  // what the search took
  bool uncertain = false;  // inconclusive at the budget: decided by the nearer endpoint
  int instances = 0;       // of the candidate, pooled over rounds and earlier sessions
  int rounds_run = 0;      // measured now (0: every measurement reused)
};

struct BisectOutcome {
  std::string session;  // the label `bisect` of every run it stored
  std::string good, bad;
  std::vector<std::string> commits;        // after good up to bad, oldest first
  std::vector<BisectStep> steps;           // in the order measured
  std::string culprit;                     // the first bad commit
  std::string parent;                      // its first parent
  std::vector<std::string> could_also_be;  // skipped commits that might be the first bad
  // The culprit against its first parent, measured alone: ratio culprit / parent and verdict.
  std::optional<stats::Comparison> final_check;
  std::vector<std::string> warnings;
};

// One line of progress: the commit, step k of about m, its verdict so far.
using BisectProgress = std::function<void(const std::string&)>;

// `progress` at each step; `run_progress`: the events of each run it measures.
Result<BisectOutcome> run_bisect(const Suite& suite, store::Store& store, const std::string& good,
                                 const std::string& bad, const BisectOptions& options,
                                 const BisectProgress& progress = {},
                                 const schedule::ProgressFn& run_progress = {});

}  // namespace benchguard::refs
