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

#include "stats/confidence.hpp"
#include "stats/hierarchical.hpp"

namespace benchguard::stats {

// kTrimmedMean: the mean of the middle values, kTrimFraction of them (rounded down) cut off at
// each end.
// kRobustMean: the mean of the iterations that are not spikes (without_spikes): on clean data
// the mean itself, as efficient as a t-test on instance means; a spike (an interrupt, a page
// fault storm, a GC pause) is left out instead of moving it. docs/compare.md has the
// simulation that chose it as the default.
enum class Statistic { kMean, kMedian, kTrimmedMean, kRobustMean };

inline constexpr double kTrimFraction = 0.10;

// "mean", "median", "trimmed mean", "robust mean".
const char* to_string(Statistic statistic);

// A spike is an iteration more than kSpikeMads robust standard deviations from the median of
// its own instance, the robust standard deviation being 1.4826 times the median absolute
// deviation of every iteration from its instance's median (the noise within instances, pooled
// over the side). Differences between instances are never spikes: they are the variation the
// verdict must see. Instances of fewer than 3 iterations are checked against the median and
// MAD of all values instead when no instance has 3 (one iteration per process launch), and
// not at all otherwise. When the robust standard deviation is 0 (a coarse timer) nothing is a
// spike. Normal noise gives a spike once in 1.7 million iterations.
// With one value an instance, those values are the instances themselves, and instances
// differ for reasons the verdict must see (address layout, frequency states: several
// instances alike, far from the rest): there a far value is a spike only when no other value
// lies within the limit of it, among them or among `neighbours` (the values of the other side
// of a comparison, whose instances may hold the same mode; docs/compare.md).
inline constexpr double kSpikeMads = 5.0;
// Which values of data.values() are spikes, in that order.
std::vector<bool> spike_flags(const Hierarchical& data, std::span<const double> neighbours = {});
// The data without its spikes; instances left empty disappear.
Hierarchical without_spikes(const Hierarchical& data, std::span<const double> neighbours = {});

// The statistic over all iterations pooled: their mean, their median (type 7), their trimmed
// mean, or the mean of those that are not spikes.
double statistic_of(const Hierarchical& data, Statistic statistic);

// The mean of sorted[cut .. n - cut), cut = floor(kTrimFraction * n).
double trimmed_mean_sorted(std::span<const double> sorted);

// `resamples` bootstrap replicates of the statistic, replicate b in slot b. Empty for empty
// data. Every iteration is drawn: the cost is resamples x iterations. The robust mean's
// replicates are the mean's of the data without its spikes (which iterations are spikes is
// decided once, on the data).
std::vector<double> hierarchical_replicates(const Hierarchical& data, Statistic statistic,
                                            int resamples, uint64_t seed);

// Large samples (docs/statistics.md, "Large samples"). Drawing every iteration of every
// resample costs resamples x iterations: minutes at a million iterations. Two methods whose
// cost does not grow with the iterations stand in for it:
//  - kNormalWithin: instances are drawn as in the full bootstrap; the redrawing of a drawn
//    instance's iterations is replaced by its limit, a normal draw. A replicate is the statistic
//    of the drawn instances' iterations pooled (each drawn instance counted as often as drawn,
//    no iteration redrawn) plus Z sqrt(sum m_k v_k) / sum m_k over the drawn instances, v_k the
//    variance (denominator m_k) of instance k's influence values: x for the mean, x winsorized
//    at the trimming quantiles / (1 - 2 kTrimFraction) for the trimmed mean, 1{x > median} / f
//    for the median (f the density at the median, from quantile spacings with the Hall-Sheather
//    bandwidth). For the mean this is exact in the first two moments of each inner draw.
//  - kNormal: with many instances the bootstrap distribution is normal to a good approximation;
//    replicates are normal draws with the two-stage bootstrap variance of the influence values
//    (variance_term's bootstrap_variance).
// Both match the full bootstrap's variance, so the expanded percentile interval reads them the
// same way.
enum class ResampleMethod { kFull, kNormalWithin, kNormal };
const char* to_string(ResampleMethod method);  // "full", "normal within instances", "normal"

// The variance terms (bootstrap.hpp, variance_term) of the pooled mean of `statistic`'s
// influence values above, the median's scaled by 1/f: the two-stage bootstrap variance kNormal
// draws with, and the median's terms. All zero when the median's f is not finite (ties at the
// median).
VarianceTerm influence_terms(const Hierarchical& data, Statistic statistic);

// Up to this many iterations every iteration is redrawn (kFull).
inline constexpr std::size_t kFullResampleLimit = 20000;
// Above kFullResampleLimit iterations, up to this many instances are redrawn (kNormalWithin);
// beyond it, kNormal.
inline constexpr std::size_t kInstanceResampleLimit = 1000;

ResampleMethod choose_resample_method(const Hierarchical& data);

struct Replicates {
  std::vector<double> values;
  ResampleMethod method = ResampleMethod::kFull;
};
// Replicates by choose_resample_method(data).
Replicates bootstrap_replicates(const Hierarchical& data, Statistic statistic, int resamples,
                                uint64_t seed);
// Replicates by the given method, whatever the size (to compare the methods on one sample).
// Resample b draws from Rng(seed, b) only.
std::vector<double> replicates_by(const Hierarchical& data, Statistic statistic, int resamples,
                                  uint64_t seed, ResampleMethod method);

}  // namespace benchguard::stats
