// A against B: for every benchmark both sides measured, per metric, the ratio B / A with
// its interval, the U test beside it, and a verdict; Holm across the benchmarks of the
// comparison; the geometric mean of the ratios.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/duet.hpp"
#include "analysis/samples.hpp"
#include "analysis/sequential.hpp"
#include "core/calibration.hpp"
#include "stats/verdict.hpp"

namespace benchguard::analysis {

struct Side {
  std::string label;  // how the user named it ("A", a run id, a label, ...)
  // One per benchmark; or, compared with CompareOptions::by_variant, any number per benchmark
  // (each paired with its namesake).
  std::vector<const VariantData*> variants;
};

// A run's variant names, in the order of its first benchmark variants.
std::vector<std::string> variant_names(const RunData& run);

// One variant per benchmark of `run`: the one named `variant`, or the first when empty.
Side variant_side(const RunData& run, const std::string& variant, const std::string& label);

// Two runs (or result files) as `compare RUN RUN` puts them on its sides. With a variant named
// for either side, or one variant name on each, one variant per benchmark a side (variant_side).
// Otherwise every variant of both, each to be compared with its namesake (by_variant), or, when
// the two share no variant name, the first of each, which a note says.
struct RunSides {
  Side a, b;
  bool by_variant = false;
  std::vector<std::string> notes;
};
RunSides run_sides(const RunData& a, const RunData& b, const std::string& label_a,
                   const std::string& label_b, const std::string& variant_a = "",
                   const std::string& variant_b = "");

// Which metrics a comparison covers when none are named: wall time and peak memory
// (peak_memory: the benchmark's process tree at its largest, sampled; max_rss is the largest
// single process and never below benchguard's own size at launch, docs/measurement.md) where
// both sides have them, plus every metric a benchmark reported itself (not built in:
// items_per_second, B/op, ...).
inline constexpr const char* kDefaultMetrics[] = {"wall_time", "peak_memory"};

// How far apart (max / min - 1) a side's simulated instruction counts may be and still be one
// count: Valgrind gives the same count on every run of the same program and input.
inline constexpr double kExactSpread = 1e-4;

struct CompareOptions {
  // Empty: the default selection above. {"all"}: every metric both sides of a benchmark have.
  // Otherwise these metrics, in this order.
  std::vector<std::string> metrics;
  // Compared too, where both sides have them, whatever `metrics` selects (gate --require).
  std::vector<std::string> also;
  BurnInPolicy burn_in;
  stats::VerdictOptions verdict;
  // What if B were this much slower: with_slowdown() on B's variants (timestamps included).
  double simulate_slowdown = 0;
  // A benchmark whose A and B ran as concurrent pairs (duet, sync-duet) is analysed by its
  // overlapping iterations (stats/duet.hpp) unless this is false.
  bool duet = true;
  double min_overlap = kDefaultMinOverlap;
  // From `calibrate`: a benchmark and metric it has an entry for gets the larger of
  // verdict.threshold and the calibrated threshold, so A/A changes of the size measured on
  // this machine are not called slower or faster.
  const Calibration* calibration = nullptr;
  // The record of a sequential run whose A and B are compared (run --until-decided): its
  // benchmarks get the ratio, interval and verdict of the look that stopped them.
  const SequentialRecord* sequential = nullptr;
  // Pair each variant of A with B's variant of the same benchmark and the same name (two runs
  // of a suite with several variants), instead of with B's only variant of the benchmark. Rows
  // then carry the variant's name.
  bool by_variant = false;
};

// How a duet row was formed: runs (concurrent pairs of instances) and iterations paired.
struct DuetSummary {
  std::size_t runs = 0;
  std::size_t paired = 0;
  std::size_t unpaired_a = 0;
  std::size_t unpaired_b = 0;
};

struct BenchmarkComparison {
  std::string benchmark;
  std::string variant;  // the paired variants' name under CompareOptions::by_variant, else ""
  MetricInfo metric;
  MetricSample a, b;  // for a duet row, data holds the paired values, one instance per run
  std::optional<DuetSummary> duet;
  // The calibration entry that set result.threshold; nullptr when none did.
  const CalibrationEntry* calibrated = nullptr;
  // Both sides counted instructions under Valgrind (counted_by_simulation): the counts are
  // exact, and when each side's agree within kExactSpread the verdict is exact too.
  bool simulated = false;
  stats::Comparison result;
  // P(B/A is worse than 1 + result.threshold) from the distribution the interval comes from
  // (stats::probability_beyond): what the dashboard's heat map shows. For an exact row, 1 or 0.
  double p_worse = std::numeric_limits<double>::quiet_NaN();
  // "benchmark", or "benchmark [variant]" when the row is of a named variant.
  std::string name() const;
};

struct MetricComparison {
  MetricInfo metric;
  std::vector<BenchmarkComparison> rows;
  stats::Estimate geomean;  // of the ratios; NaN when fewer than two benchmarks
};

struct CompareReport {
  std::string label_a, label_b;
  std::vector<MetricComparison> metrics;
  std::vector<std::string> only_in_a, only_in_b;  // benchmarks without a counterpart
  std::vector<std::string> warnings;
  // Benchmarks whose every value of a memory metric was at benchguard's launch floor: the
  // metric's row left out, its warning (benchmark + ": " + floor_note) in `warnings`.
  struct Floored {
    std::string benchmark, metric, warning;
    int64_t floor_bytes = 0;
  };
  std::vector<Floored> floored;
  bool any(stats::Verdict v) const;
};

CompareReport compare_sides(const Side& a, const Side& b, const CompareOptions& options);

// The warning a row gets when its memory is at benchguard's launch floor (no verdict): said
// once for all such rows when a comparison is shown (report/compare.cpp).
std::string floor_note(const BenchmarkComparison& row);

}  // namespace benchguard::analysis
