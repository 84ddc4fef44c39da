// Duet analysis (Bulej et al., "Duet Benchmarking", ICPE 2020; the asynchronous duet of
// Drozdik, 2023): A and B run at the same time on one machine, so an iteration of A and an
// iteration of B that overlap in time met the same disturbances. Their ratio cancels what the
// machine did to both; the spread that remains is the benchmark's own.
//
// pair_overlapping() pairs the iterations of one concurrent pair of instances; each pair of
// instances (a "run") gives the mean of its paired ratios B / A; the estimate is the mean
// over runs, with a bootstrap over runs, the independent units.
#pragma once

#include <cstddef>
#include <cstdint>
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
};

// The mean over runs of each run's mean paired ratio b[k] / a[k], and `resamples` bootstrap
// replicates of it over runs (seeded; runs without pairs are left out). Variance term `a`
// describes the run ratios, for the expanded percentile interval; `b` adds nothing. A zero
// a[k] makes its ratio +infinity.
RatioSample duet_ratio_sample(std::span<const DuetRun> runs, int resamples, uint64_t seed);

// The paired values as two-level data, one instance per run (for means and the U test).
Hierarchical duet_side(std::span<const DuetRun> runs, bool b_side);

}  // namespace benchguard::stats
