// The resampling engine of the hierarchical bootstrap (see bootstrap.hpp for the method).
//
// One resample: draw as many instances as the data has, with replacement; from each drawn
// instance draw as many iterations as it has, with replacement; apply the statistic to the
// pooled drawn iterations. Resample b draws from Rng(seed, b) only, in that order (instance,
// then its iterations; an instance with one iteration needs no draw), and resamples run in
// parallel (oneTBB) into fixed slots, so results depend on the seed, never on the threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "stats/hierarchical.hpp"

namespace benchguard::stats {

// kTrimmedMean: the mean of the middle values, kTrimFraction of them (rounded down) cut off at
// each end: as efficient as the mean on clean data, as indifferent to a few spikes as the
// median (docs/compare.md has the simulation that chose it).
enum class Statistic { kMean, kMedian, kTrimmedMean };

inline constexpr double kTrimFraction = 0.10;

const char* to_string(Statistic statistic);  // "mean", "median", "trimmed mean"

// The statistic over all iterations pooled: their mean, their median (type 7), or their
// trimmed mean.
double statistic_of(const Hierarchical& data, Statistic statistic);

// The mean of sorted[cut .. n - cut), cut = floor(kTrimFraction * n).
double trimmed_mean_sorted(std::span<const double> sorted);

// `resamples` bootstrap replicates of the statistic, replicate b in slot b. Empty for empty
// data.
std::vector<double> hierarchical_replicates(const Hierarchical& data, Statistic statistic,
                                            int resamples, uint64_t seed);

}  // namespace benchguard::stats
