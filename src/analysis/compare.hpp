// A against B: for every benchmark both sides measured, per metric, the ratio B / A with
// its interval, the U test beside it, and a verdict; Holm across the benchmarks of the
// comparison; the geometric mean of the ratios.
#pragma once

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
  std::string label;                         // how the user named it ("A", a run id, a label, ...)
  std::vector<const VariantData*> variants;  // one per benchmark
};

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
  MetricInfo metric;
  MetricSample a, b;  // for a duet row, data holds the paired values, one instance per run
  std::optional<DuetSummary> duet;
  // The calibration entry that set result.threshold; nullptr when none did.
  const CalibrationEntry* calibrated = nullptr;
  // Both sides counted instructions under Valgrind (counted_by_simulation): the counts are
  // exact, and when each side's agree within kExactSpread the verdict is exact too.
  bool simulated = false;
  stats::Comparison result;
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
  bool any(stats::Verdict v) const;
};

CompareReport compare_sides(const Side& a, const Side& b, const CompareOptions& options);

}  // namespace benchguard::analysis
