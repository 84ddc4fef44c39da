// `confirm`: a change suspected in history (a head check, a detector's change point) measured
// again: its last good and first bad commits, each built in a worktree of its own as `ab` does,
// run interleaved on this machine as variants A and B of one run (label `confirm` = the
// change's id: a probe run, no point of history), and compared with `compare`'s verdict rule.
// The run is sequential by default: it stops as soon as the change is confirmed or refuted
// (docs/sequential.md), and its verdict is that of the look that stopped it.
// The run is the record of the decision: a later `gate` finds it by its label and does not
// measure again (docs/history.md, "Confirming").
#pragma once

#include <optional>
#include <string>

#include "analysis/compare.hpp"
#include "analysis/gate.hpp"
#include "refs/refs.hpp"
#include "store/store.hpp"

namespace benchguard::refs {

struct ConfirmOptions {
  RefsOptions refs;
  // Instances per side; 0: what the threshold (or the change's size, when smaller) and the
  // spread need (needed_instances), and at least the suite's.
  int instances = 0;
  analysis::CompareOptions compare;
  // Sequential (docs/sequential.md): A and B in rounds, stopping at the first look that
  // decides, up to twice the instances above; false: exactly those instances.
  bool sequential = true;
};

// confirmed: the comparison calls B slower (a regression; faster for an improvement) than A;
// refuted: unchanged or the other way; inconclusive: neither (too few instances, an interval
// that straddles).
struct ConfirmOutcome {
  std::string verdict;
  std::string run_uuid;
  int instances = 0;  // per side
  std::optional<analysis::BenchmarkComparison> row;
};

// The outcome as the gate takes it: verdict, run, and the change B/A - 1 it measured with its
// interval (from `row`).
analysis::Confirmation to_confirmation(const ConfirmOutcome& outcome);

// Instances per side for a two-sided test at 5% with 90% power to see a relative change d
// when an instance mean spreads by `cv` (relative): 2 (z_0.975 + z_0.9)^2 (cv / d)^2, at least
// 5, at most 30. d is the smaller of |change| and `threshold` (when positive): the size a change
// was found with is selected (the largest the search saw, so biased away from 0: +62.7% found,
// +10.3% measured again), and the threshold is the smallest change the verdict acts on.
int needed_instances(double change, double cv, double threshold);

// The verdict of a confirmation run of `change` already stored (label confirm = its id), the
// newest; nullopt when there is none.
Result<std::optional<ConfirmOutcome>> stored_confirmation(store::Store& store,
                                                          const store::ChangeRecord& change,
                                                          const analysis::CompareOptions& compare);

// The culprit a bisect found in the change's range, from the final check it stored (label
// bisect.step = "final COMMIT"; the newest such run whose COMMIT is in `range`, the commits
// after the change's last good up to its first bad): that commit, the run, and the change
// culprit / parent it measured (verdict confirmed when the run calls the culprit slower for a
// regression, faster for an improvement). nullopt when no bisect named one there.
struct Culprit {
  std::string commit;
  analysis::Confirmation measured;
};
Result<std::optional<Culprit>> stored_culprit(store::Store& store,
                                              const store::ChangeRecord& change,
                                              const std::vector<std::string>& range,
                                              const analysis::CompareOptions& compare);

// Measures the change's two commits again and judges it.
Result<ConfirmOutcome> confirm_change(const Suite& suite, store::Store& store,
                                      const store::ChangeRecord& change,
                                      const ConfirmOptions& options,
                                      const schedule::ProgressFn& progress = {});

}  // namespace benchguard::refs
