// The resampling engine of the hierarchical bootstrap (see bootstrap.hpp for the method).
//
// One resample: draw as many instances as the data has, with replacement; from each drawn
// instance draw as many iterations as it has, with replacement; apply the statistic to the
// pooled drawn iterations. Resample b draws from Rng(seed, b) only, in that order (instance,
// then its iterations; an instance with one iteration needs no draw), and resamples run in
// parallel (oneTBB) into fixed slots, so results depend on the seed, never on the threads.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/hierarchical.hpp"

namespace benchguard::stats {

enum class Statistic { kMean, kMedian };

// The statistic over all iterations pooled: their mean, or their median (type 7).
double statistic_of(const Hierarchical& data, Statistic statistic);

// `resamples` bootstrap replicates of the statistic, replicate b in slot b. Empty for empty
// data.
std::vector<double> hierarchical_replicates(const Hierarchical& data, Statistic statistic,
                                            int resamples, uint64_t seed);

}  // namespace benchguard::stats
