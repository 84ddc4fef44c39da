// What `history`, `detect` and `gate` print: series point by point, change points, and the
// gate's verdict as a pull-request comment (docs/history.md).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/gate.hpp"
#include "analysis/history.hpp"
#include "report/document.hpp"
#include "store/store.hpp"

namespace benchguard::report {

// Every point of every series: commit, date, runs, instances, centre and its interval.
Document history_document(const analysis::History& history);

// Change points: id, series, commit range, before and after, change with its interval,
// p-value, kind (regression | improvement), status (confirmed | suspected) and the
// acknowledgement.
Document changes_document(const std::vector<analysis::ChangeRow>& rows);

// Markdown for a pull-request comment: a line saying pass or fail, a short table of the alerts,
// then every result inside a collapsible <details> section.
void render_gate_markdown(const analysis::GateReport& gate, std::ostream& out);
// What `confirm` found: the change, confirmed, refuted or inconclusive, what measuring it
// again showed and the run that decided it; for scripts, the change as a row of changes.
Document confirmation_document(const store::ChangeRecord& change,
                               const analysis::Confirmation& confirmation);

// What a team pastes into an issue about a change (`report --issue ID`), in Markdown: the
// benchmark and metric, the size with its interval, the commits, how it was found and whether
// measuring again confirmed it, the runs, and the commands that reproduce it. `culprit`: the
// first bad commit when the range is that one commit (the caller asks git), else "".
struct IssueFacts {
  analysis::ChangeRow change;
  std::vector<store::RunSummary> confirmations;  // runs labelled confirm = the id, newest first
  // What the newest complete one of them measured, when there is one.
  std::optional<analysis::Confirmation> measured;
  std::string culprit;
  // When a bisect named the culprit: what its final check measured, culprit against parent.
  std::optional<analysis::Confirmation> culprit_measured;
  std::size_t commits_in_range = 0;  // 0: not known
};
void render_issue(const IssueFacts& facts, std::ostream& out);

// The gate: for people a line saying pass or fail with the channels, notes and alerts (text)
// or render_gate_markdown (Markdown); for scripts every result as a row of changes, and JSON.
Document gate_document(const analysis::GateReport& gate);

}  // namespace benchguard::report
