// Change points over history (docs/history.md): each series' points searched for changes
// (stats/series_changes.hpp), each change judged by the metric's better direction and, where
// both sides hold instance-level data, confirmed when the point means around it show it beyond
// the threshold with margins for the search that chose it (stats/series_confirm.hpp).
// Incremental: a series whose past is unchanged is re-examined only where new points can
// change the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/history.hpp"
#include "stats/head_check.hpp"
#include "stats/series_changes.hpp"
#include "stats/series_confirm.hpp"
#include "stats/verdict.hpp"
#include "store/store.hpp"

namespace benchguard::analysis {

struct DetectOptions {
  stats::ChangeMethod method = stats::ChangeMethod::kEDivisiveTTest;
  // E-divisive (both tests): the options of stats/series_changes.hpp with their defaults.
  std::optional<double> max_p_value;  // unset: 0.001 (t-test), 0.05 (permutation)
  std::size_t window = 50;
  double min_magnitude = 0.0;
  std::size_t permutations = 100;
  uint64_t seed = 0;
  // Threshold rule: the floor in the metric's unit (0: none).
  double absolute_floor = 0.0;
  // Confirmation by the history (stats::confirm_in_series): the point means around a change,
  // before against after, the commits as units; its threshold is the larger of
  // verdict.threshold and min_magnitude, which the head check uses too.
  stats::VerdictOptions verdict;
  // Re-examine every series from the start, whatever was stored.
  bool full = false;
  // The head check (stats/head_check.hpp): the newest point of each series against the points
  // since its last change point (at most `window`), with a prediction interval of this
  // confidence; a change there is `suspected` at once, with method "head".
  bool head = true;
  double head_confidence = 0.99;
};

// "method=...;p=...;window=...": what stored change points were found with. Stored results
// found with other settings are not reused.
std::string detect_settings(const DetectOptions& options);

// The stable id of a change: 10 hex digits from the series key and the first point after the
// change. The same change found again keeps its id, and so its acknowledgement.
std::string change_id(const std::string& series_key, const std::string& first_bad);

// The head check of one series.
struct HeadResult {
  std::string series_key;
  stats::HeadCheck check;
  bool regression = false;  // the head moved the worse way (by the metric's direction)
  std::string change_id;    // of the change record when suspected
  // When the newest point moved the way of a change point fewer than min_baseline points
  // before it, to about that change's level: that change's id (the head is part of it, not a
  // new change; docs/history.md, "One change, one alarm").
  std::string part_of;
  // When the series' newest change is one kept open (confirmed by measuring again, an alarm,
  // or acknowledged), with newer points after it: that change, and whether the newest commits undid
  // it (stats::check_revert: the newest 2 points back within the threshold of the points before it,
  // and clearly below the points after it). Not being clearly worse than the points before it is no
  // evidence.
  std::string kept_id;
  stats::RevertCheck revert;
  // Alarms of the series closed at this detection because the commits between each and the
  // next change point (or the newest) no longer support it (stats::check_support).
  struct Closed {
    std::string id;
    stats::RevertCheck support;
  };
  std::vector<Closed> closed;
  bool undoes_kept() const { return !kept_id.empty() && revert.undone; }
};

struct Detection {
  std::vector<store::ChangeRecord> changes;  // every series, by series then index
  std::vector<store::SeriesState> states;    // of the series examined
  std::size_t series = 0;
  std::size_t reused = 0;         // series whose earlier results were kept in part or whole
  std::vector<HeadResult> heads;  // one per series examined, in order
};

// Finds the change points of every series of `history`. `stored_states` and `stored_changes`
// are what the store holds from earlier detections: for a series detected before with the
// same settings and the same points so far, only what new points can change is re-examined
// (the result is the same as a full detection). `now` stamps new records (unix ns). A change
// found at the head stays a change point for the points after it while it is kept: confirmed
// by measuring again, an alarm (it failed the gate: status "alarm"), or acknowledged (`acks`);
// an alarm the newest commits undo is closed (status "undone").
Detection detect_history(const History& history, const DetectOptions& options,
                         const std::vector<store::SeriesState>& stored_states,
                         const std::vector<store::ChangeRecord>& stored_changes, int64_t now,
                         const std::vector<store::AckRecord>& acks = {});

}  // namespace benchguard::analysis
