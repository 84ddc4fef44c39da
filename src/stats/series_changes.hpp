// Change points in a series over commits: one benchmark, variant and metric on one machine
// class, one value per commit (a centre value such as the median of instance medians), oldest
// first. Pure functions: values in, change points out; no I/O, randomness only from a seed.
//
// Three detectors, one options struct each:
//
//  1. E-divisive means with a t-test (EDivisiveOptions, the default): the method of
//     Hunter / Apache Otava (Fleming et al., "Hunter: Using Change Point Detection to Hunt for
//     Performance Regressions", ICPE 2023), built on the E-divisive procedure of Matteson & James
//     ("A nonparametric approach for multiple change point analysis of multivariate data", JASA
//     2014). Two stages, as in Otava:
//       split: the series is cut into overlapping windows; inside each window E-divisive splits
//              recursively at the point that maximises the energy divergence Q-hat
//              (energy_divergence below; the end kappa of the second part is searched too, as in
//              Matteson & James and Otava) and keeps a split while a t-test of the two sides of
//              the interval has p <= weak_p_value (Otava's relaxed first pass, 10 x max_p_value).
//              The union over windows are the "weak" change points.
//       merge: Otava's merge step: while some weak change point has p > max_p_value (a t-test
//              of the segments between it and its neighbours), remove the weakest (largest p)
//              and re-test its two neighbours; then, while the smallest |relative change| is
//              <= min_magnitude, remove that one likewise.
//     The t-test is segment_t_test below, not Otava's Student's pooled test on plain means:
//     Yuen's test of 10%-trimmed means with each segment's variance floored at the pooled one.
//     The pooled test lets a +50% spike among the last three points of a 1%-noise series pass
//     as a change (the many quiet points average its variance away; p ~ 2e-5), the known
//     complaint about Otava. Welch's test sees the spike's variance (p ~ 0.4) but trusts a short
//     segment's own variance, so three points that happen to lie close together 1.3 sigma off
//     test at p < 1e-6; the floor gives them the pooled variance. And with plain means a spike
//     inside a longer segment inflates its variance and hides a change next to it; trimming
//     cuts it. Together with min_segment (at least 3 points on each side of every test and
//     change point; Otava allows 1) a lone outlier is never a change point. Measured on white
//     noise (1% sd, 2,000 series each): Welch's test alarmed in 4.4% of series of 60 points and
//     8.4% of 200, this one in 0.75% and 1.85%.
//  2. E-divisive with a permutation test (PermutationOptions): MongoDB's method (Daly et al.,
//     "The Use of Change Point Detection to Identify Software Performance Regressions in a
//     Continuous Integration System", ICPE 2020, with MongoDB's signal_processing_algorithms),
//     which is Matteson & James's significance test: the observed best Q-hat is compared with
//     the best Q-hat of the same search after the values of every current interval are
//     shuffled; p = (1 + #{permuted >= observed}) / (1 + permutations) (Phipson & Smyth 2010;
//     MongoDB's library and Otava use #{...} / (1 + permutations), which can be 0). The same split
//     and merge stages as method 1, each test a permutation test (one level, max_p_value, no weak
//     pass); the merge permutes the two segments around a change point together and takes the best
//     Q-hat over every split of the pooled segment, so that choosing the location is accounted for.
//     Daly et al. ran E-divisive over the whole history; the windows and blocks here keep results
//     local (below) and the cost bounded. Shuffles come from Rng(derive_seed(derive_seed(seed, 1),
//     window start), split number) in the split stage and Rng(derive_seed(derive_seed(seed, 2),
//     segment start), segment end) in the merge: streams addressed by position, so the same seed
//     gives the same answer however the series was processed (whole or incrementally). A test stops
//     as soon as its p-value can no longer reach max_p_value (the count of permuted values >=
//     observed exceeds max_p_value (1 + permutations) - 1); p-values reported for change points are
//     exact.
//  3. Threshold rule (ThresholdOptions): Coiled's benchmark alerts (coiled/benchmarks,
//     detect_regressions.py): a point is suspect when it exceeds the mean of the `baseline` (10)
//     points before the run by more than max(sigmas (3) x their standard deviation,
//     absolute_floor); a change is confirmed when `run` (3) consecutive points are all suspect
//     against the baseline before the first of them (Coiled compares its last three runs with the
//     ten before them). The first point of a confirmed run is the change point; the search
//     resumes after the run. "Exceeds" is strict (Coiled uses >=, with which a constant series
//     and a zero floor would alarm). Direction: `direction` says which way is worse
//     (kLowerIsBetter: a rise is a regression, the default).
//
// Every change point carries the index of the first point after the change (the commit range
// is (index - 1, index]), the segments before and after it with their means, the relative change
// mean_after / mean_before - 1 with a Fieller interval (Fieller 1954; Welch-Satterthwaite
// degrees of freedom at the estimated ratio; see describe_change), a p-value and the method.
//
// Locality and incremental detection (E-divisive methods). Windows have `window` (W) points and
// start at every multiple of W / 2 (Otava steps by half a window too, but moves the next window
// to the last change point found, which makes every window depend on all earlier ones; here the
// grid is fixed). The merge runs per block: block k decides the change points in its central
// part [k W, (k + 1) W) by running the merge over the weak change points of [k W - W,
// (k + 2) W), and each t-test segment is capped at W points on each side (Otava's segments run
// to the neighbouring change points, however far). Where two neighbouring blocks accept change
// points on either side of their common boundary closer than min_segment, the one with the
// larger p-value is dropped. So the decision about index i depends only on points within about
// 3 W of i, and appending points to a series of n_old points changes only change points at
// index >= reexamine_from(n_old) >= n_old - reach(). update_changes re-detects only there and
// returns exactly (bit for bit) what detect_changes returns for the whole series.
//
// Input: finite values. A series with a NaN or an infinity, or shorter than 2 x min_segment
// (E-divisive) or baseline + run (threshold), gives no change points. A constant series gives
// none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "stats/resample.hpp"

namespace benchguard::stats {

enum class ChangeMethod { kEDivisiveTTest, kEDivisivePermutation, kThreshold };

// "e-divisive t-test", "e-divisive permutation", "threshold".
std::string_view to_string(ChangeMethod method);

struct SeriesChange {
  std::size_t index = 0;         // first point after the change
  std::size_t before_start = 0;  // the segment before is [before_start, index)
  std::size_t after_end = 0;     // the segment after is [index, after_end)
  double mean_before = 0;  // 10%-trimmed by default (segment_t_test); plain for the threshold rule
  double mean_after = 0;
  // mean_after / mean_before - 1, and its interval at the options' confidence (0.95). NaN when
  // mean_before is 0; the bounds are NaN when the interval is unbounded (the mean before is not
  // clearly away from 0, see describe_change).
  double relative_change = 0;
  double relative_change_low = 0;
  double relative_change_high = 0;
  double p_value = 1;  // segment_t_test, or the permutation test for kEDivisivePermutation
  ChangeMethod method = ChangeMethod::kEDivisiveTTest;

  bool operator==(const SeriesChange&) const = default;
};

struct EDivisiveOptions {
  // Otava's defaults: `otava analyze -P 0.001 -M 0 --window 50` (otava/main.py, and
  // AnalysisOptions in otava/series.py; analysis.split() alone defaults to a window of 30).
  double max_p_value = 0.001;
  // Threshold of the split stage; unset: Otava's rule (analysis.compute_change_points):
  // 10 x max_p_value when that is below 0.05, 2 x below 0.5, otherwise max_p_value.
  std::optional<double> weak_p_value;
  // Window of the split stage, the cap on each side of a t-test in the merge, and the block
  // size of the merge (see Locality above). At least 2 x min_segment is used.
  std::size_t window = 50;
  // A change point whose |relative change| is <= min_magnitude is dropped (Otava's -M; 0 keeps
  // every significant one).
  double min_magnitude = 0.0;
  // Fewest points on each side of a split or change point; at least 2 is used. 3 keeps a
  // single outlier from being a segment of its own (see above). Otava needs 1.
  std::size_t min_segment = 3;
  // Fraction cut from each end of a segment for its mean and t-test (segment_t_test).
  double trim = kTrimFraction;
  double confidence = 0.95;  // of the relative change interval, in (0, 1)
};

struct PermutationOptions {
  // MongoDB's signal_processing_algorithms, the library of Daly et al. 2020
  // (e_divisive/default.py: QHatPermutationsSignificanceTester(pvalue=0.05, permutations=100)).
  double max_p_value = 0.05;
  // With fewer than 1 / max_p_value - 1 permutations no p-value can reach max_p_value, and
  // nothing is significant.
  std::size_t permutations = 100;
  std::uint64_t seed = 0;
  std::size_t window = 50;  // as in EDivisiveOptions
  double min_magnitude = 0.0;
  std::size_t min_segment = 3;
  double trim = kTrimFraction;  // of the reported means (segment_t_test)
  double confidence = 0.95;
};

struct ThresholdOptions {
  // Coiled's rule (detect_regressions.py): the 10 runs before the last 3, mean + max(3 sd,
  // 1 unit), where the unit was 1 s for durations and 1 GiB for memory. The floor is in the
  // metric's unit, so it is the caller's: 0 by default.
  std::size_t baseline = 10;  // at least 2 is used (a standard deviation needs 2)
  double sigmas = 3.0;        // standard deviations with the n - 1 denominator, as pandas
  double absolute_floor = 0.0;
  std::size_t run = 3;                              // at least 1 is used
  Direction direction = Direction::kLowerIsBetter;  // a rise is a regression
  double confidence = 0.95;                         // of the relative change interval
};

// Change points of `series`, ascending by index.
std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const EDivisiveOptions& options = {});
std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const PermutationOptions& options);
std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const ThresholdOptions& options);

// After points are appended to a series that had `old_size` points, change points at indices
// below reexamine_from(old_size) stay as they were (same index, same statistics); only those at
// or after it can change, appear or go. reach() bounds old_size - reexamine_from(old_size).
//  - E-divisive: with W = window and m = min_segment, k0 the first block whose extent plus one
//    window reaches past old_size - 1, reexamine_from = k0 W - m (0 for short series):
//    between old_size - 3 W - m + 1 and old_size - 2 W - m. reach = 3 W + m (153 by default).
//  - Threshold: a change point at i needs the points up to i + run - 1, so
//    reexamine_from = old_size - (run - 1) (0 for short series); reach = run - 1 (2).
std::size_t reexamine_from(std::size_t old_size, const EDivisiveOptions& options);
std::size_t reexamine_from(std::size_t old_size, const PermutationOptions& options);
std::size_t reexamine_from(std::size_t old_size, const ThresholdOptions& options);
std::size_t reach(const EDivisiveOptions& options);
std::size_t reach(const PermutationOptions& options);
std::size_t reach(const ThresholdOptions& options);

// The change points of `series`, which had `old_size` points when `old_changes` (ascending, as
// returned) were detected with the same options, without re-detecting the whole series:
// old_changes below reexamine_from(old_size) are kept, and detection reruns where the rest can
// come from. E-divisive reruns the blocks from the one before the first changing block, which
// read the last 4 W to 6 W points; the threshold rule resumes after the last kept change point.
// The result equals detect_changes(series, options) exactly. old_size > series.size()
// re-detects everything. Every value of `series` is checked to be finite.
std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const EDivisiveOptions& options);
std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const PermutationOptions& options);
std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const ThresholdOptions& options);

// The energy divergence of Matteson & James (2014) with alpha = 1, for samples x (n values) and
// y (m values), n, m >= 2:
//   Q-hat = n m / (n + m) * ( 2/(n m) sum_ij |x_i - y_j| - C(n,2)^-1 sum_{i<k} |x_i - x_k|
//                             - C(m,2)^-1 sum_{j<k} |y_j - y_k| ).
// Zero in expectation when x and y come from one distribution, larger the more they differ.
// Direct O((n + m)^2) evaluation; NaN when a sample has fewer than 2 values.
double energy_divergence(std::span<const double> x, std::span<const double> y);

// The E-divisive split of x as the detectors search it: the (tau, kappa) with m <= tau,
// tau + m <= kappa <= n (m = max(min_segment, 2)) that maximises
// energy_divergence(x[0, tau), x[tau, kappa)), the first in (tau, kappa) order on ties, from a
// table of within-range distance sums (O(n^2) to build, O(1) per candidate). q is -infinity
// when n < 2 m.
struct EnergySplit {
  std::size_t tau = 0;
  std::size_t kappa = 0;
  double q = -std::numeric_limits<double>::infinity();
};
EnergySplit best_energy_split(std::span<const double> x, std::size_t min_segment = 3);

// The t-test of every E-divisive stage and of every reported change: Yuen's trimmed t-test
// (Yuen 1974, "The two-sample trimmed t for unequal population variances", Biometrika), the
// unequal-variance (Welch) t-test of trimmed means, with each segment's winsorized variance
// floored at the pooled one. For a segment of n values, g = floor(trim n) are cut at each end
// (at most (n - 2) / 2), h = n - 2 g remain; its mean is the mean of the h middle values, s_w^2
// the variance (n - 1 denominator) of the values winsorized at the cut, and
//   s_p^2 = ((n_b - 1) s_wb^2 + (n_a - 1) s_wa^2) / (n_b + n_a - 2),
//   v_i = (n_i - 1) max(s_wi^2, s_p^2) / (h_i (h_i - 1)),
//   t = (mean after - mean before) / sqrt(v_b + v_a),
//   degrees of freedom (v_b + v_a)^2 / (v_b^2 / (h_b - 1) + v_a^2 / (h_a - 1)),
// p two-sided from Boost.Math's Student t. With trim 0 it is Welch's test with the floor.
//  - trim (kTrimFraction, 10%, as the trimmed mean of `compare`): a spike inside a segment is
//    cut, so it neither inflates that segment's variance nor hides a change next to it (with
//    plain means, one +50% commit 15 points before a 10% step in a 40-commit history of
//    near-constant timings left the step at p = 0.009). Segments under 10 points are not cut:
//    a spike there keeps its large variance, as in Welch's test.
//  - floor: three points that happen to lie close together would otherwise get a tiny standard
//    error and test at p < 1e-6 against a long segment 1.3 sigma away; floored, they get the
//    pooled variance, as in Student's test.
// Two long clean segments of similar spread give the ordinary t-test. Fewer than 2 values on a
// side: all NaN. No spread at all: p = 1 when the means agree, 0 otherwise.
struct SegmentTest {
  double t = 0;
  double dof = 0;
  double p_value = 1;
  double mean_before = 0;  // trimmed means
  double mean_after = 0;
  double var_before = 0;  // v_b, the squared standard error used for the mean before
  double var_after = 0;   // v_a
};
SegmentTest segment_t_test(std::span<const double> before, std::span<const double> after,
                           double trim = kTrimFraction);

// The change at `index` between the segments series[before_start, index) and
// series[index, after_end), each of at least 2 points: the (trimmed) means and p-value of
// segment_t_test, and the relative change after / before - 1 with its interval at `confidence`
// by Fieller's theorem for the ratio of two independent means: the ratios rho with
// (mean_after - rho mean_before)^2 <= t^2 (v_a + rho^2 v_b), v the squared standard errors of
// segment_t_test and t the Student quantile with the Welch-Satterthwaite degrees of freedom of
// mean_after - r mean_before at the estimate r (h - 1 a side, as in Yuen's test). When
// mean_before is not clearly away from 0 (mean_before^2 <= t^2 v_b) the set is unbounded and
// the bounds are NaN; when neither segment has any spread the interval is the point. `method`
// is set to kEDivisiveTTest. The threshold rule passes trim 0 (Coiled's plain means).
SeriesChange describe_change(std::span<const double> series, std::size_t before_start,
                             std::size_t index, std::size_t after_end, double confidence = 0.95,
                             double trim = kTrimFraction);

}  // namespace benchguard::stats
