// Reading confidence intervals and p-values off a bootstrap distribution.
//
// The plain percentile interval has the width of the bootstrap distribution, and that width
// is not the sampling spread of the estimate:
//  - with few independent units it is too narrow: the bootstrap variance of a mean is
//    (n - 1) / n times the unbiased one, and normal quantiles stand in for t quantiles. With 5
//    instances a "95%" percentile interval covers about 85% of the time;
//  - the two-stage (instances, then iterations) resampling counts iteration noise twice, once
//    in the spread of the instance means and again when iterations are redrawn, which makes it
//    too wide when instances differ little.
// The expanded percentile interval (Hesterberg, "What teachers should know about the
// bootstrap", The American Statistician 2015) reads the bootstrap distribution at the tail
// probability Phi(-c t_{df, 1 - alpha/2}) instead of alpha / 2. Hesterberg has c^2 = n / (n - 1)
// and df = n - 1 for one i.i.d. sample; here c^2 is the ratio of the unbiased variance of the
// estimate to the variance the two-stage bootstrap gives it (so c can be below 1), and df come
// from Welch-Satterthwaite over the samples involved. In the normal approximation the interval
// is then the t interval, while keeping the skewness the bootstrap sees.
#pragma once

#include <cstddef>
#include <limits>
#include <span>

namespace benchguard::stats {

struct Interval {
  double lower;
  double upper;
  bool contains(double v) const { return lower <= v && v <= upper; }
};

// kStudentT (the default of compare): no percentiles at all. The statistic's variance is
// estimated once per side (VarianceTerm::variance: exact for the mean and the robust mean, a
// jackknife over instances for the median and the trimmed mean), and the interval of a log
// ratio is log r +- t_{df, 1 - alpha/2} sqrt(sum of variances), df by Welch-Satterthwaite:
// for the mean of balanced instances exactly Welch's t interval on instance means. Its width
// follows the statistic's real spread, its p-value is exactly dual to it, and it stays valid
// at 3 instances, where a bootstrap distribution (10 distinct resamples of the instances) is
// too coarse to read a tail from.
enum class CiMethod { kPercentile, kExpandedPercentile, kStudentT };
const char* to_string(CiMethod method);  // "percentile", "expanded percentile", "t"

// How far to stretch the bootstrap distribution. The default (scale 1, infinite df) is the
// plain percentile interval.
struct Expansion {
  double scale = 1.0;
  double dof = std::numeric_limits<double>::infinity();
};

// One independent sample's share of the variance of an estimate (for ratios, relative to the
// squared mean), with `instances` independent units.
struct VarianceTerm {
  double variance;            // unbiased estimate
  double bootstrap_variance;  // what the two-stage bootstrap distribution shows
  std::size_t instances;
};

// c^2 = sum(variance) / sum(bootstrap_variance), df by Welch-Satterthwaite over the variances
// with n - 1 degrees of freedom each. Terms with fewer than two instances are left out (their
// instance-level variance cannot be estimated); without any usable term, or with zero
// variance, there is no expansion.
Expansion combined_expansion(std::span<const VarianceTerm> terms);

// The t interval and the two-sided p-value of "log value = 0" above, on the log scale: centre
// +- t_{df} sqrt(sum variance), df = combined_expansion(terms).dof (terms with fewer than 2
// instances are left out). Without variance the interval is {centre, centre} and the p-value
// 1 at centre 0, else 0.
Interval t_interval(double centre, std::span<const VarianceTerm> terms, double confidence);
double t_p_value(double centre, std::span<const VarianceTerm> terms);
// The share of the t distribution of t_interval (centre, scale sqrt(sum variance), the same
// degrees of freedom) that lies above `bound`: 1 - alpha / 2 exactly when `bound` is the
// interval's lower end at confidence 1 - alpha. Without variance: 1 when the centre is above
// `bound`, else 0. NaN when the centre or the bound is NaN.
double t_probability_above(double centre, std::span<const VarianceTerm> terms, double bound);
// The same from a total variance and degrees of freedom chosen by the caller (infinite: the
// normal distribution), for a df more conservative than Welch-Satterthwaite's: the sequential
// looks use min(n_a, n_b) - 1 (sequential.hpp).
Interval t_interval(double centre, double variance, double dof, double confidence);
double t_p_value(double centre, double variance, double dof);
// The summed variance of the terms t_interval uses (those with 2 instances or more).
double t_variance(std::span<const VarianceTerm> terms);
// The degrees of freedom both use (infinite without variance). combined_expansion's differ
// only where the bootstrap variances are unusable or zero, which the t interval ignores.
double t_dof(std::span<const VarianceTerm> terms);

// The probability in each tail at which to read the bootstrap distribution:
// Phi(-scale * t_{dof}^-1(1 - (1 - confidence) / 2)); (1 - confidence) / 2 without expansion.
double tail_probability(double confidence, Expansion expansion);

// Type 7 quantiles of the replicates at `tail` and 1 - `tail`. NaN replicates must not occur;
// infinities are fine.
Interval percentile_interval(std::span<const double> replicates, double tail);
Interval percentile_interval_sorted(std::span<const double> sorted, double tail);
// The same by selection instead of a sort: linear time, no copy, but `replicates` is reordered.
// For the many small bootstraps of a simulation.
Interval percentile_interval_inplace(std::span<double> replicates, double tail);

// Two-sided bootstrap p-value of "the statistic equals null_value", dual to the interval
// above: it inverts the type 7 quantile function of the replicates at null_value, so
// p < 1 - confidence exactly when the interval at `confidence` (same expansion) excludes
// null_value, as long as that interval's tail holds at least 10 replicates. Where fewer than 10
// replicates lie beyond null_value the empirical tail is too coarse (it would say p = 0), so it
// is extrapolated with a normal fit to the replicates, capped at the resolvable tail: Holm over
// many benchmarks needs p-values far below 1 / resamples to mean something.
double bootstrap_p_value(std::span<const double> replicates, double null_value,
                         Expansion expansion);

}  // namespace benchguard::stats
