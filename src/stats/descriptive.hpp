// Descriptive statistics over one sample, and the per-instance variability summaries used by
// `summary` and `plan`. Empty input (or too few values for the statistic) gives NaN.
#pragma once

#include <span>

#include "stats/hierarchical.hpp"

namespace benchguard::stats {

double mean(std::span<const double> x);
double min(std::span<const double> x);
double max(std::span<const double> x);

// Sample variance and standard deviation with the n - 1 denominator (NaN for n < 2).
double variance(std::span<const double> x);
double stdev(std::span<const double> x);
// Coefficient of variation: stdev / mean (n - 1 denominator).
double cv(std::span<const double> x);

// Hyndman & Fan (1996) type 7, the default of R, NumPy and Excel: with sorted x[0..n-1] and
// h = (n - 1) p, the result is x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
// p is clamped to [0, 1].
double quantile(std::span<const double> x, double p);
// The same on input already sorted ascending (no copy).
double quantile_sorted(std::span<const double> sorted, double p);
// Type 7 at p = 0.5: the middle value, or the mean of the two middle values.
double median(std::span<const double> x);
// The density of the values at their median, 2h / (Q(1/2 + h) - Q(1/2 - h)) with the
// Hall-Sheather bandwidth h = n^(-1/3) z^(2/3) (1.5 phi(0)^2)^(1/3), z the 0.975 normal
// quantile (Koenker, "Quantile regression", 2005, section 3.4), on input sorted ascending;
// +infinity when the spacing is zero (ties at the median), NaN when empty.
double density_at_median(std::span<const double> sorted);

// Median absolute deviation from the median, unscaled: median(|x - median(x)|).
double mad(std::span<const double> x);
// MAD times 1.482602218505602 (= 1 / Phi^-1(3/4)), a consistent estimator of the standard
// deviation for normal data; this is the scale hyperfine's robust z-score uses.
double mad_scaled(std::span<const double> x);

// exp(mean(log x)); NaN when any value is <= 0, where the geometric mean is undefined.
double geometric_mean(std::span<const double> x);

// Hail's `variability`: the CV of each instance's iterations, summarized over instances.
// Instances with fewer than two iterations have no CV and are skipped.
struct Variability {
  double mean_cv;         // mean of per-instance CVs
  double sd_cv;           // standard deviation (n - 1) of per-instance CVs; NaN with < 2 instances
  std::size_t instances;  // how many instances had a CV
};
Variability instance_variability(const Hierarchical& data);

// Within-instance noise relative to the grand mean: sqrt(pooled within-instance variance) /
// mean, where the pooled variance is sum((n_i - 1) s_i^2) / sum(n_i - 1). Unlike cv(values()),
// it leaves out the differences between instances.
double pooled_cv(const Hierarchical& data);

// The share of a spread's variance that one cause adds: with `without` the spread (a CV or
// standard deviation) measured without the cause and `with` the spread with it,
// 1 - (without / with)^2, clamped to [0, 1]. NaN when either is not finite or `with` is 0.
double variance_share(double without, double with);

}  // namespace benchguard::stats
