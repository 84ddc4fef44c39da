// Duet analysis (Bulej et al., "Duet Benchmarking", ICPE 2020; the asynchronous duet of
// Drozdik, 2023): A and B run at the same time on one machine, so an iteration of A and an
// iteration of B that overlap in time met the same disturbances. Their ratio cancels what the
// machine did to both; the spread that remains is the benchmark's own.
//
// pair_overlapping() pairs the iterations of one concurrent pair of instances; each pair of
// instances (a "run") gives the geometric mean of its paired ratios B / A; the estimate is
// their geometric mean over runs, with a bootstrap over runs, the independent units. Geometric,
// not arithmetic: under load the two sides' iterations are slowed independently (each side's
// CPU time-sliced with other work), and the arithmetic mean of b / a then exceeds the true
// ratio by about half the variance of log(b / a): +2% for A/A at the 0.19 log-sd measured by
// bench/noise_bench (on/off CPU noise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "stats/bootstrap.hpp"

namespace benchguard::stats {

struct TimeSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// Pairs iteration i of A with iteration j of B when the time they share covers at least
// `min_overlap` (a fraction, 0 < min_overlap <= 1) of each one's duration. Both lists are in
// time order and each iteration pairs at most once: a sweep that, when the current two do not
// qualify, moves past the one that ends first. Returns (i, j) in time order.
std::vector<std::pair<std::size_t, std::size_t>> pair_overlapping(std::span<const TimeSpan> a,
                                                                  std::span<const TimeSpan> b,
                                                                  double min_overlap);

// The paired iterations of one run: a[k] ran alongside b[k].
struct DuetRun {
  std::vector<double> a, b;
  // The cell of the schedule's balanced design the run belongs to (which side had which CPU
  // set, which side started first); runs of one cell met the same conditions.
  int stratum = 0;
};

// The geometric mean over runs of each run's geometric mean of b[k] / a[k], and `resamples`
// bootstrap replicates of it over runs (seeded; runs without pairs are left out). Variance
// term `a` describes the log run ratios, for the expanded percentile interval; `b` adds
// nothing. A zero a[k] makes its ratio +infinity.
//
// When the runs fall in several strata with at least 2 runs each, the bootstrap resamples
// runs within each stratum, keeping its size (a stratified bootstrap; Davison & Hinkley 1997,
// 3.7), and the variance term is the within-stratum one with N - H degrees of freedom. The
// schedule fixes how many runs each cell gets, so a condition that slows one side of a
// cell (a slower CPU) is balanced out of the estimate by design and must not widen its
// interval either.
RatioSample duet_ratio_sample(std::span<const DuetRun> runs, int resamples, uint64_t seed);

// The paired values as two-level data, one instance per run (for means and the U test).
Hierarchical duet_side(std::span<const DuetRun> runs, bool b_side);

// The mean log of a run's paired ratios B / A (NaN for a run without pairs, a zero or a
// negative value).
double run_log_ratio(const DuetRun& run);

// How much a condition of the machine (a CPU set, being started second) slows the side that
// has it, from runs where B had it and runs where A had it. If the condition slows its side
// by a factor c and B/A is theta otherwise, B/A is theta c in the first runs and theta / c in
// the second, so c = exp((mean log ratio with - mean log ratio without) / 2): a factor, 1 for
// no effect. The interval is Welch's t interval of the difference of mean log ratios, mapped
// the same way. NaN with fewer than 2 runs in either group.
struct SideEffect {
  double factor = std::numeric_limits<double>::quiet_NaN();
  Interval ci{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  std::size_t runs_b_has = 0;  // runs in which B had the condition
  std::size_t runs_a_has = 0;
};
SideEffect side_effect(std::span<const double> log_ratios_b_has,
                       std::span<const double> log_ratios_a_has, double confidence);

}  // namespace benchguard::stats
