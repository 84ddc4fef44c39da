// Runs a suite: checks every command can start, records the run, launches the instances in
// schedule order and stores each one the moment it ends.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "measure/host.hpp"
#include "schedule/order.hpp"
#include "store/store.hpp"

namespace benchguard::schedule {

struct RunOptions {
  std::string schedule;  // empty: the suite's
  uint64_t seed = 0;
  std::vector<int> cpus;  // pin every instance here; empty: no pinning
  bool counters = true;
  bool show_output = false;  // let benchmarks write to the terminal
  double kill_grace_s = 1.0;
  KeyValues labels;
  KeyValues artifacts;  // stored with the run's host facts (ab and bisect: refs, worktrees)
  std::string command_line;
  std::string uuid;  // the run's; empty: a new one
  // A shard of the run (cluster/): only the measured instances `select` accepts run, in their
  // place in the whole run's order and with their index there, and a benchmark's warmups only
  // where it has any. Empty: every instance.
  std::function<bool(const Slot&)> select;
  // False: the instances in flight when a stop is requested (request_stop), or ended by a
  // SIGTERM that was not a timeout's, are not stored and the run stops: the stop's signal
  // reaches the benchmarks too (cluster tasks under scancel or a time limit: a unit cut short
  // is missing, and a resubmission measures it again). True: stored as they ended.
  bool keep_cut_short = true;
  // Sequential runs (run --until-decided): called after each measured step of a benchmark
  // (index into the suite) is stored. True ends that benchmark: its remaining instances are
  // not run and it counts as decided.
  std::function<bool(int benchmark)> after_step;
  // Sequential runs: artifacts only the end of the run knows, stored by finish_run.
  std::function<KeyValues()> final_artifacts;
  // The working directory's commit, branch and state, when they are being read already
  // (measure::git_info_async, started before the store opens); unset: read as the run begins.
  // A commit measured in a worktree of its own (run --commits) gives that worktree's.
  std::shared_future<measure::GitInfo> git;
  // True: a run in which an instance failed or a benchmark was abandoned ends `failed`, not
  // `complete`, so that history leaves it out (run --commits: a commit whose benchmarks fail
  // is no point of its series, and the next backfill measures it again).
  bool failed_on_failure = false;
};

// Called before each instance starts (done = instances finished so far, total) and after
// the run; lets the CLI draw progress without the runner knowing about terminals.
struct ProgressEvent {
  int done = 0;
  int total = 0;
  const BenchmarkSpec* benchmark = nullptr;
  const VariantSpec* variant = nullptr;
  int instance = 0;  // negative for warmups
  bool finished = false;
  int benchmark_index = -1;  // of `benchmark` in the suite, of `benchmarks`
  int benchmarks = 0;
  int instances = 0;  // the benchmark's instances per variant
};
using ProgressFn = std::function<void(const ProgressEvent&)>;

struct BenchmarkOutcome {
  std::string name;
  int instances_ok = 0;
  int instances_failed = 0;
  bool abandoned = false;  // hit max_failures consecutive failures
  bool decided = false;    // after_step ended it
  std::string last_failure;
  // Variants whose setup hook failed, so that none of their instances ran: one line each,
  // "variant 'B' not run: setup exited 1: no server".
  std::vector<std::string> stopped;
};

struct RunOutcome {
  int64_t run_id = 0;
  std::string uuid;
  std::string status;  // complete | failed (nothing measured, or failed_on_failure) | interrupted
  std::vector<BenchmarkOutcome> benchmarks;
  // What the run could not measure, or measured under a condition that can mislead, each in
  // one line with what to do (hardware counters refused, address randomization off), and the
  // cleanup hooks that failed.
  std::vector<std::string> notes;
  bool any_failure() const;
  // Every instance that ran failed (and at least one ran): such a run is stored `failed`.
  bool nothing_measured() const;
};

// Fails before anything is stored when a command cannot be run.
Status preflight(const Suite& suite);

Result<RunOutcome> run_suite(const Suite& suite, store::Store& store, const RunOptions& options,
                             const ProgressFn& progress = {});

// Stores a run of `suite` that failed before any instance of it could start (run --commits: a
// commit that does not build), with what run_suite records of a run and options.artifacts
// (which say what failed); returns its id.
Result<int64_t> store_failed_run(const Suite& suite, store::Store& store,
                                 const RunOptions& options);

// Set from a signal handler: the runner stops after the instance in flight.
void request_stop();
// Whether request_stop was called: what measures several runs in a row stops between them.
bool stop_requested();

// Random version-4 UUID.
std::string new_uuid();

}  // namespace benchguard::schedule
