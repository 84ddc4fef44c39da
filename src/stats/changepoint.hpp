// PELT (Killick, Fearnhead & Eckley 2012): the exact minimiser of a penalised segmentation
// cost, here for changes in mean and variance of a normal series, in close to linear time.
// Used per instance to find where warm-up ends (steady_state.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace benchguard::stats {

// A run of consecutive values [start, end) with its maximum-likelihood mean and variance
// (variance divides by the count, as in the cost).
struct SeriesSegment {
  std::size_t start = 0;
  std::size_t end = 0;
  double mean = 0;
  double variance = 0;

  std::size_t size() const { return end - start; }
};

struct PeltOptions {
  // Added to the cost for every change point; unset: 15 * ln(n), the penalty Barrett et al.
  // (2017) chose for VM warm-up so that only clear changes survive. Negative counts as 0.
  std::optional<double> penalty;
  // Shortest segment allowed. 2 is the least for which a variance can be estimated; it lets a
  // single slow first iteration be split off together with one neighbour.
  std::size_t min_segment_length = 2;
  // Soft floor added to every segment variance so that constant runs cost a finite amount;
  // 0 (the default): default_variance_floor(series).
  double variance_floor = 0;
};

struct PeltResult {
  std::vector<std::size_t> change_points;  // start of every segment but the first, ascending
  std::vector<SeriesSegment> segments;     // cover [0, n) in order; empty for an empty series
  double cost = 0;            // minimised sum of segment costs plus penalty per change point
  double penalty = 0;         // the penalty used
  double variance_floor = 0;  // the floor used
};

// 15 * ln(n) (0 for n < 2).
double default_penalty(std::size_t n);

// (1e-3 * median |x|)^2: variations below 0.1% of the typical value are treated as no
// variation, which keeps runs of identical timer readings from looking like a new regime.
// Falls back to max |x|, then 1, when the median (or every value) is 0.
double default_variance_floor(std::span<const double> series);

// Segments `series` by minimising
//   sum over segments S of |S| * ln(var(S) + floor)  +  penalty * (number of change points),
// the negative normal log-likelihood with mean and variance estimated per segment (constants
// dropped). The floor is added rather than taken as a maximum because it keeps the cost
// sub-additive (cost(A) + cost(B) <= cost(A u B)), which is what makes PELT's pruning exact.
// Values must be finite. Series shorter than 2 * min_segment_length get one segment.
PeltResult pelt(std::span<const double> series, const PeltOptions& options = {});

}  // namespace benchguard::stats
