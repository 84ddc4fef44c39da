// `calibrate`: repeated A/A runs of a suite (core/suite.hpp null_suite) compared with the
// verdict rule of `compare`, as it would be applied to an A/B run of the same configuration.
// Every slower or faster verdict is a false alarm; per benchmark and metric the count, its
// Clopper-Pearson interval, and the calibrated threshold (stats/null_calibration.hpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "core/calibration.hpp"
#include "core/model.hpp"

namespace benchguard::analysis {

// The two sides of one A/A run: every variant that has a null_variant_again twin in the same
// benchmark is side A, the twin side B.
struct NullSides {
  Side a, b;
};
NullSides null_sides(const RunData& run);

// One A/A comparison per run, with `options` (its calibration, if any, is ignored: the
// calibration measures the rule with the configured threshold).
Calibration calibrate_runs(std::span<const RunData> runs, const CompareOptions& options);

// calibrate --randomize-layout: `fixed` are the same A/A runs with the layout fixed. Sets
// c.layout to "randomized" and, per entry of `c`, the fixed runs' comparisons, false alarms
// and spread, and the share of the spread's variance that layout causes.
void add_fixed_layout(Calibration& c, std::span<const RunData> fixed,
                      const CompareOptions& options);

}  // namespace benchguard::analysis
