// The A/B verdict: is B slower than, faster than, or the same as A, and how sure is that?
//
// Let r be the ratio B / A of the statistic (the robust mean by default), [lo, hi] its interval
// at `confidence` (the t interval by default, confidence.hpp), and t the threshold. For a
// lower-is-better metric (times):
//   slower        lo > 1 and r > 1 + t  (the interval lies wholly above 1, and the estimate is
//                 beyond the threshold: a true change exactly at the threshold is called slower
//                 about half the time, so slower does not claim the change exceeds t)
//   faster        hi < 1 and r < 1 - t
//   unchanged     otherwise, when 1 - t <= lo and hi <= 1 + t (the two one-sided tests of
//                 equivalence within the threshold, TOST, each at (1 - confidence) / 2: 2.5%
//                 a side at 95%, stricter than the usual 5%)
//   inconclusive  everything else: the interval is too wide to tell, or it excludes 1 but the
//                 change is within the threshold while the interval is not.
// For a higher-is-better metric (throughput) a ratio below 1 is the regression: slower and
// faster swap their conditions.
//
// Fewer than 2 instances on either side give no verdict: one instance cannot show how much
// instances differ, so its interval (often of zero width) says nothing about the next run.
// Such a comparison is inconclusive with a warning saying how many instances to run. Two
// samples that are the same constant (0 B/op before and after) are unchanged, ratio 1.
//
// Across the benchmarks of one comparison (compare_all), Holm's method adjusts the p-values.
// By default the adjusted p-value of the ratio also gates the verdict: slower/faster stand only
// if it is below 1 - confidence, otherwise they become inconclusive (with a warning saying so).
// That p-value is dual to the interval (exactly for the t interval; for the bootstrap ones by
// inverting the replicates' quantiles), so for one benchmark the gate changes nothing, and for
// many it keeps the chance of any false slower/faster in the family at or below 1 - confidence.
//
// The Mann-Whitney U p-value is computed over per-instance means, the independent units. U over
// pooled iterations (what benchstat or Google Benchmark's compare.py effectively do) treats
// correlated iterations as independent and reports "significant" under mere instance-to-
// instance variation. It is reported beside the verdict and does not decide it: with few
// instances its exact p-value has a floor (2 / C(n_a + n_b, n_a): 0.1 for 3 vs 3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/defaults.hpp"
#include "core/model.hpp"
#include "stats/bootstrap.hpp"
#include "stats/tails.hpp"
#include "stats/tests.hpp"

namespace benchguard::stats {

enum class Verdict { kUnchanged, kSlower, kFaster, kInconclusive };

inline constexpr double kTailWeight = 0.25;
const char* to_string(Verdict verdict);

struct VerdictOptions {
  double threshold = kDefaultThreshold;  // relative change that matters
  double confidence = 0.95;
  int resamples = 10000;
  uint64_t seed = 0;
  Direction direction = Direction::kLowerIsBetter;
  Statistic statistic = Statistic::kRobustMean;
  CiMethod interval = CiMethod::kStudentT;
  bool holm_gates_verdict = true;  // compare_all only
  // The weight of a benchmark's tail hypothesis in Holm's weighted family, beside its centre's
  // weight of 1 (adjust_family; docs/compare.md, "Tails", has the simulation that chose it).
  double tail_weight = kTailWeight;  // 0: tails are not judged (the rule before them)
};

// At least this many instances (or duet runs) a side for slower, faster or unchanged.
inline constexpr std::size_t kMinInstancesForVerdict = 2;

struct Comparison {
  double mean_a = 0.0;  // mean over all iterations
  double mean_b = 0.0;
  double value_a = 0.0;  // options.statistic of A over all its iterations
  double value_b = 0.0;
  Estimate ratio;                     // B / A of options.statistic, with its interval
  MannWhitneyResult instance_test{};  // Mann-Whitney U over per-instance means
  double p_value = 0.0;               // instance_test.p_value
  double p_value_adjusted = 0.0;      // Holm across the family; equal to p_value alone
  double p_value_bootstrap = 0.0;     // ratio == 1, dual to the interval (t or bootstrap)
  double p_value_bootstrap_adjusted = 0.0;
  CiMethod interval = CiMethod::kStudentT;  // of ratio, and what p_value_bootstrap is dual to
  double threshold = 0.0;                   // the one the verdict used
  Direction direction = Direction::kLowerIsBetter;  // of the metric the verdict judged
  Verdict verdict = Verdict::kInconclusive;
  // The tails (tails.hpp): under the robust mean, what its spikes added to each side, tested;
  // under any statistic but the mean, the mean's ratio and interval beside the verdict's.
  TailComparison tail;
  std::vector<std::string> warnings;
};

// The verdict rule above, on a ratio and its interval. Non-finite input is inconclusive.
Verdict classify(double ratio, Interval ci, double threshold, Direction direction);

// The interval the verdict of `options.statistic` uses: options.interval, except that the
// median always gets the expanded percentile interval (it has no jackknife variance for the t
// interval: bootstrap.hpp).
CiMethod interval_of(const VerdictOptions& options);

// How many bootstrap replicates the verdict under `options` reads: none under the t interval
// (its interval, p-value and geometric mean come from the variance terms), options.resamples
// under a bootstrap interval. compare() and compare_all() draw that many; a caller that draws
// its own RatioSample for compare_with_sample or compare_samples may do the same.
int verdict_resamples(const VerdictOptions& options);

// P(B / A is worse than 1 + threshold: above it, or below 1 / (1 + threshold) for a
// higher-is-better metric), read from the distribution the verdict's interval `method` comes
// from: the t distribution of the log ratio (t_probability_above) for the t interval, the
// share of the sample's replicates for a bootstrap interval. NaN when there is nothing to read.
double probability_beyond(const RatioSample& sample, double threshold, Direction direction,
                          CiMethod method);

// One benchmark, A against B.
Comparison compare(const Hierarchical& a, const Hierarchical& b, const VerdictOptions& options);

// One benchmark, given the bootstrap distribution of its ratio (from ratio_sample, or from a
// duet analysis): means, U test over the instances of a and b, bootstrap p-value, verdict.
Comparison compare_with_sample(const Hierarchical& a, const Hierarchical& b,
                               const RatioSample& sample, const VerdictOptions& options);

// Holm across the comparisons of one family: fills the *_adjusted p-values and, with
// options.holm_gates_verdict, demotes slower/faster whose adjusted bootstrap p-value is not
// below 1 - confidence to inconclusive. The family's hypotheses are each comparison's centre
// (the ratio of the statistic is 1) and, where tested, its tails (tails.hpp): a comparison
// whose centre is not slower or faster but whose tails moved significantly (after Holm) takes
// the verdict of the mean, which counts them; one whose tails moved the other way from its
// centre, or moved without the mean's interval leaving 1, is inconclusive; and `unchanged`
// stands only when its tails did not move (unadjusted) and, under any statistic but the mean,
// the mean's interval overlaps the statistic's. Each of those says why in its warnings, naming
// the family's centres as `members` ("benchmarks", "rows of 3 metrics"). A family may mix
// metrics: each comparison is judged by its own threshold and direction.
void adjust_family(std::span<Comparison> family, const VerdictOptions& options,
                   std::string_view members = "benchmarks");

struct ComparisonSet {
  std::vector<Comparison> benchmarks;  // in input order
  Estimate geomean;                    // geometric mean over benchmarks of the ratios B / A
};

// Benchmark k of A against benchmark k of B, resampled with seed derive_seed(seed, k); the
// geometric mean reuses those replicates. a and b must have the same length.
ComparisonSet compare_all(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                          const VerdictOptions& options);

// The same with the ratio distributions given (all with the same number of replicates).
// `thresholds`, when not empty, gives benchmark k its own threshold in place of
// options.threshold (one per benchmark: a calibrated one, say).
ComparisonSet compare_samples(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                              std::span<const RatioSample> samples, const VerdictOptions& options,
                              std::span<const double> thresholds = {});
// compare_samples without the adjustment: for a caller whose family spans several sets (the
// metrics of one comparison), which then calls adjust_family once over all of them.
ComparisonSet compare_each(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                           std::span<const RatioSample> samples, const VerdictOptions& options,
                           std::span<const double> thresholds = {});

}  // namespace benchguard::stats
