// The CI gate (docs/history.md), and what the history commands share with it: change points
// detected and stored, acknowledgements applied, a change measured again. Loading the series
// is history_load.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "analysis/detection.hpp"
#include "analysis/history.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace benchguard::analysis {

// Detects change points in every series of `history`, reusing and replacing what `store`
// holds for them (incremental, detection.hpp), and stores the result. Returns the change
// points of these series.
Result<Detection> detect_and_store(store::Store& store, const History& history,
                                   const DetectOptions& options, int64_t now);

// A change point with its acknowledgement, if any.
struct ChangeRow {
  store::ChangeRecord change;
  const store::AckRecord* ack = nullptr;
};

// Pairs each change with its acknowledgement (`acks` must outlive the rows).
std::vector<ChangeRow> with_acks(const std::vector<store::ChangeRecord>& changes,
                                 const std::vector<store::AckRecord>& acks);

// A change measured again (refs/confirm.hpp does it; the gate only asks): confirmed, refuted
// or inconclusive, the run that decided it, and what it measured: the relative change B/A - 1
// of the change's metric between its last good and first bad commits, with its interval, and
// the instances a side (NaN and 0 when the run has no comparison for it).
struct Confirmation {
  std::string verdict;
  std::string run_uuid;
  double change = std::numeric_limits<double>::quiet_NaN();
  double lower = std::numeric_limits<double>::quiet_NaN();
  double upper = std::numeric_limits<double>::quiet_NaN();
  int instances = 0;
};
// Stores `status` (confirmed or refuted, from measuring the change again) with the stored
// change `id`, which then keeps it: detection leaves a change measured again with its verdict,
// and keeps a confirmed one open after newer commits (detection.hpp). Nothing when no change
// of that id is stored.
Status set_change_status(store::Store& store, const std::string& id, const std::string& status);

// What a confirmation measured, as the gate's notes and `confirm` say it: "+10.3% [+1.1%,
// +20.3%], 8 instances a side"; "" when it measured no change.
std::string measured_text(const Confirmation& c);
using Confirmer = std::function<Result<Confirmation>(const store::ChangeRecord&)>;

// What the gate compares the newest run with.
struct GateOptions {
  // "history": the change points of each series; anything else names a branch (the newest
  // run recorded on it) or a commit (its newest run).
  std::string against = "history";
  // The full commit `against` names (the caller asks git), or "" when it names a branch.
  std::string against_commit;
  // The first-parent ancestors of against_commit, newest first, the commit itself first (the
  // caller asks git): when that commit has no run, the newest ancestor that has one is the
  // baseline.
  std::vector<std::string> against_ancestors;
  HistoryOptions history;
  DetectOptions detect;
  std::string where = "the store";  // names the store in errors
  // Against history: each regression suspected at the newest point is measured again by
  // this, and fails the gate when confirmed (not when refuted). Unset: a suspected regression
  // fails when its head check stays significant after Holm's adjustment over the series.
  Confirmer confirm;
  // The channels (metrics) that must pass (gate --require): each must be measured for every
  // benchmark at the newest run (a result, not only values), and a regression in one fails
  // the gate; a regression in any
  // other metric is reported and does not fail. Empty: every metric examined must pass.
  std::vector<std::string> require;
  // When set, the history is read on connections of its own, several runs at once
  // (load_history).
  store::StoreOpener open_reader;
  // Against history: a series at the newest commit with fewer points before it is an Error
  // (gate --min-history: no pass the head check could not judge). 0: a note says so.
  std::size_t min_history = 0;
  // What the note on too short a history names in the command that would fill it (`run
  // --commits`): the suite file (empty: SUITE), the build (empty: CMD), and the commit HEAD
  // names where the gate runs (the range counts back from HEAD when it is the newest commit).
  std::string suite_file, build, checkout_head;
};

// One channel (metric) at the newest run: where it was examined, and whether it moved.
struct ChannelResult {
  std::string metric;
  bool required = false;
  std::size_t benchmarks = 0;                     // benchmarks at the newest run that have it
  std::size_t regressions = 0, improvements = 0;  // at the newest run
  // Required, but with no result for these benchmarks: not measured, or values that give no
  // ratio (memory at the launch floor, counts refused).
  std::vector<std::string> missing;
};

struct GateReport {
  std::string against;             // "history", or the branch or commit compared with
  std::string head;                // the newest run's commit (or run uuid)
  std::vector<ChangeRow> alerts;   // what fails the gate
  std::vector<ChangeRow> results;  // everything examined, alerts included
  std::vector<std::string> notes;
  std::vector<store::AckRecord> acks;   // what the rows point into
  std::size_t head_checks = 0;          // series whose newest point was checked
  std::vector<ChannelResult> channels;  // every metric examined at the newest run, and required
  bool failed() const {
    return !alerts.empty() ||
           std::any_of(channels.begin(), channels.end(),
                       [](const ChannelResult& c) { return !c.missing.empty(); });
  }
};

// The gate. Against history: detects (and stores) change points, then fails on every
// unacknowledged confirmed regression still open at the newest run: the newest change point of
// a series that has a point at the newest run's commit, when that change is a regression.
// Against a branch or commit: compares the newest run with that one, benchmark by benchmark
// (the verdict of `compare`), and fails on every unacknowledged `slower`. An Error when there is
// nothing to gate (no runs, or nothing to compare with).
Result<GateReport> run_gate(store::Store& store, const GateOptions& options, int64_t now);

}  // namespace benchguard::analysis
