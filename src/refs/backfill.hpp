// History measured after the fact (`run SUITE --commits RANGE --build CMD`, docs/history.md):
// each commit checked out in a worktree of its own and built there (vcs/worktree.hpp, as `ab`
// does), the suite run in it, and the run stored as that commit's history run on this
// machine class, as if CI had run it then: the commit, its time and author from git, the run's
// own time now. Each run is stored as it ends, so an interrupted backfill loses only the
// commit in flight, and the next one skips what is stored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/suite.hpp"
#include "refs/refs.hpp"
#include "schedule/runner.hpp"
#include "store/store.hpp"

namespace benchguard::refs {

struct BackfillOptions {
  RefsOptions refs;           // the repository, the build, the run's options (labels: machine)
  std::string commits;        // A..B, one revision, or a file of hashes
  std::size_t every = 0;      // above 1: the newest commit and every every-th before it
  std::size_t last = 0;       // above 0: only the newest `last` (after `every`)
  bool skip_existing = true;  // leave out commits with a history run of the suite here
};

// What a backfill is to measure, read from git before anything is stored.
struct BackfillPlan {
  Repository repo;
  std::vector<std::string> commits;  // full hashes, in the order measured (oldest first)
  // Recorded with each run, as a run in a checkout of it would record it: the branch the
  // range ends on when it names one (main for main~20..main), else the branch checked out
  // in the repository (empty when detached).
  std::string branch;
};

// An Error (exit 2) when the repository, the range or the file cannot be read, or names no
// commit.
Result<BackfillPlan> plan_backfill(const Suite& suite, const BackfillOptions& options);

struct BackfillEvent {
  enum class Step { kSkipped, kBuilding, kMeasuring, kMeasured, kFailed };
  Step step = Step::kMeasuring;
  std::size_t index = 0;  // 1-based, of `total`
  std::size_t total = 0;
  std::string commit;
  std::string detail;              // skipped: the run there; failed: what failed
  int64_t run_id = 0;              // measured and failed: the run stored
  int instances = 0;               // measured: instances stored
  double seconds = 0;              // measured: the build and the run
  std::vector<std::string> notes;  // measured: what the run could not measure (RunOutcome)
};
using BackfillProgress = std::function<void(const BackfillEvent&)>;

struct BackfillOutcome {
  std::size_t measured = 0, skipped = 0, failed = 0;
  bool interrupted = false;  // stopped by a signal (schedule::request_stop)
  std::size_t reached = 0;   // commits begun, of the plan's
};

// Measures the plan's commits one after the other into `store`. A commit whose build fails,
// or whose suite cannot start or has a failed instance, is stored as a `failed` run (history
// leaves it out) and the backfill goes on; without a build command, a suite that cannot start
// in a commit's worktree is an Error instead (it needs one). `progress` hears each step,
// `instances` each instance (a progress bar).
Result<BackfillOutcome> run_backfill(const Suite& suite, store::Store& store,
                                     const BackfillPlan& plan, const BackfillOptions& options,
                                     const BackfillProgress& progress,
                                     const schedule::ProgressFn& instances = {});

}  // namespace benchguard::refs
