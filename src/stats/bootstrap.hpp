// Hierarchical bootstrap (Kalibera & Jones, "Quantifying performance changes with effect size
// confidence intervals", 2012; "Rigorous benchmarking in reasonable time", ISMM 2013):
// estimates with confidence intervals for one sample, for the ratio of two, and for the
// geometric mean of ratios over benchmarks.
//
// Resampling instances first, then iterations within each drawn instance (resample.hpp), keeps
// the instance-to-instance variation in the interval; resampling iterations alone would treat
// thousands of correlated iterations as independent and give intervals far too narrow.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "stats/confidence.hpp"
#include "stats/hierarchical.hpp"
#include "stats/resample.hpp"

namespace benchguard::stats {

struct BootstrapOptions {
  int resamples = 10000;
  double confidence = 0.95;
  uint64_t seed = 0;
  Statistic statistic = Statistic::kMean;
  CiMethod interval = CiMethod::kExpandedPercentile;
};

struct Estimate {
  double value = std::numeric_limits<double>::quiet_NaN();  // the statistic of the data
  Interval ci{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  Expansion expansion;  // how the interval was widened; scale 1 means plain percentile
  double tail = std::numeric_limits<double>::quiet_NaN();  // probability read in each tail
  // How the replicates were drawn (resample.hpp, "Large samples"); for a ratio or a geometric
  // mean, the most approximate method of any side.
  ResampleMethod method = ResampleMethod::kFull;
  std::vector<std::string> warnings;
};

// Estimate and confidence interval of the statistic of one sample. Replicates are drawn by
// choose_resample_method(data).
Estimate bootstrap(const Hierarchical& data, const BootstrapOptions& options);

// The variance of the pooled mean, estimated two ways (delta method for the ratio of sums
// when instances differ in size; exact when they do not). With n instances of m_i iterations,
// m = mean m_i, instance means y_i, grand mean y, within-instance variances w_i (denominator
// m_i) and d_i = m_i (y_i - y) / m:
//   variance           = sum d_i^2 / (n (n - 1))          (the cluster-sample variance)
//   bootstrap_variance = (sum d_i^2 + sum m_i w_i / m^2) / n^2
// (For the median and the trimmed mean see variance_term(data, statistic).)
VarianceTerm variance_term(const Hierarchical& data);
// The same terms from their parts, for callers that hold instance summaries rather than the
// data: sum_d2 = sum d_i^2, sum_inner = sum m_i w_i / m^2 (the variance the inner resampling
// adds to each d_i, summed), n instances.
VarianceTerm cluster_variance_term(double sum_d2, double sum_inner, std::size_t n);
// The same divided by the squared grand mean: the variance of log(mean), for ratios.
VarianceTerm relative_variance_term(const Hierarchical& data);
// The terms of `statistic`. The robust mean's are the mean's of the data without spikes. The
// trimmed mean has no closed form under instances: its `variance` is the jackknife over
// instances (delete-one, or delete-a-group of consecutive instances above 50 instances,
// `instances` then counting the groups), its bootstrap_variance the mean's terms of the data
// winsorized at the median +- 3 scaled MADs (the mean's terms, which a 12x spike inflates,
// would narrow its bootstrap interval). The median's terms are the mean's terms of its
// influence values 1{x > median} / f, f = density_at_median of all values (the winsorized
// mean's terms when f is not finite, ties at the median); they only expand its bootstrap
// interval, in which f cancels between the two variances of one side. The jackknife is
// inconsistent for the median (Efron, "The jackknife, the bootstrap and other resampling
// plans", 1982, 3.4) and a t interval on these terms reads f too (docs/statistics.md), so the
// median has no t interval (verdict.hpp).
VarianceTerm variance_term(const Hierarchical& data, Statistic statistic);
VarianceTerm relative_variance_term(const Hierarchical& data, Statistic statistic);
// Each value clipped to [median - k s, median + k s] of all values, s the scaled MAD; the data
// itself when s is 0.
Hierarchical winsorized(const Hierarchical& data, double k);

// Bootstrap distribution of the ratio B / A of a statistic. A and B are resampled
// independently (they are independent samples), with seeds derive_seed(seed, 0) for A and
// derive_seed(seed, 1) for B; a zero denominator gives +infinity, as in libkalibera.
struct RatioSample {
  double ratio = std::numeric_limits<double>::quiet_NaN();  // statistic(B) / statistic(A)
  std::vector<double> replicates;
  VarianceTerm a{0.0, 0.0, 0};
  VarianceTerm b{0.0, 0.0, 0};
  ResampleMethod method = ResampleMethod::kFull;
};
RatioSample ratio_sample(const Hierarchical& a, const Hierarchical& b, Statistic statistic,
                         int resamples, uint64_t seed);
Estimate ratio_estimate(const RatioSample& sample, double confidence, CiMethod method);
Estimate bootstrap_ratio(const Hierarchical& a, const Hierarchical& b,
                         const BootstrapOptions& options);

// Geometric mean over benchmarks of the ratios B_k / A_k. Its t interval combines the
// ratios' variance terms (the replicates are not read); a bootstrap interval comes from the
// same replicates: replicate b is the geometric mean over k of replicate b of each ratio (as
// libkalibera's bootstrap_geomean), so those must all be positive too. All ratios must be
// positive.
Estimate geomean_estimate(std::span<const RatioSample> samples, double confidence, CiMethod method);
// Benchmark k is resampled with seed derive_seed(options.seed, k).
Estimate bootstrap_geomean_ratio(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                                 const BootstrapOptions& options);

}  // namespace benchguard::stats
