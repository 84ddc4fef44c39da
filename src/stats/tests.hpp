// Classical hypothesis tests for two independent samples, and multiplicity adjustment.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace benchguard::stats {

struct MannWhitneyResult {
  double u;        // pairs (x_i, y_j) with x_i > y_j, ties counting one half (R's W)
  double p_value;  // two-sided
  bool exact;      // exact permutation distribution rather than the normal approximation
};

// Mann-Whitney U (Wilcoxon rank-sum) test, two-sided. U = S - n1 (n1 + 1) / 2, S the sum of the
// mid-ranks of x in the pooled sample.
//  - Exact: the permutation (conditional) null distribution of S given the observed tie
//    pattern, i.e. over all C(N, n1) equally likely ways to choose which of the N pooled values
//    are x's, each keeping its mid-rank (rank_sum_null below). Without ties this is the classical
//    null distribution of U. Two-sided p by the doubling rule:
//    p = min(1, 2 min(P(S <= s), P(S >= s))), as R's wilcox.test computes its exact p without
//    ties. (R's coin and exactRankTests instead add both tails at least as far from E S as s,
//    P(|S - E S| >= |s - E S|). The two agree whenever the distribution is symmetric, as it
//    always is without ties; with an asymmetric tie pattern they can differ: for x = {2},
//    y = {1, 1}, doubling gives 2/3 and the distance rule 1/3.)
//  - Used whenever the dynamic programme is cheap: N min(n1, n2) (R + 1) <= kMannWhitneyExactWork,
//    with R the range of possible doubled rank sums (R = 2 n1 n2 without ties, less with ties).
//    That covers every n1, n2 <= 49 whatever the ties, and unbalanced samples beyond (10 vs 200).
//  - Beyond: the normal approximation with mid-ranks, the tie-corrected variance
//    n1 n2 / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) and a continuity correction of 0.5
//    towards the centre (R's wilcox.test with correct = TRUE).
// Either sample empty: p is NaN. Every value tied: p = 1.
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y);

// The work bound of the exact test (see above): 49 vs 49 values take about 10 ms.
inline constexpr double kMannWhitneyExactWork = 2.5e7;

// The exact null distribution of U for samples of sizes m and n without ties:
// element u is P(U = u), u = 0 .. m n.
std::vector<double> mann_whitney_null(std::size_t m, std::size_t n);

// The permutation distribution of the doubled rank sum 2 S of m values drawn without
// replacement from N pooled values whose tie groups, in ascending order of value, have the
// sizes `tie_sizes` (sum N; all 1 without ties). A group of t values occupying ranks
// r + 1 .. r + t shares the mid-rank r + (t + 1) / 2, so doubled mid-ranks are integers.
// Element k of `probability` is P(2 S = min_sum2 + k); odd offsets may have probability 0.
struct RankSumDistribution {
  long long min_sum2 = 0;  // the smallest possible doubled rank sum
  std::vector<double> probability;
};
RankSumDistribution rank_sum_null(std::span<const std::size_t> tie_sizes, std::size_t m);

struct WelchResult {
  double t;        // (mean x - mean y) / sqrt(s_x^2 / n_x + s_y^2 / n_y)
  double dof;      // Welch-Satterthwaite degrees of freedom
  double p_value;  // two-sided, Student's t with `dof` degrees of freedom
  double se = std::numeric_limits<double>::quiet_NaN();  // of mean x - mean y
};

// Welch's unequal-variance t-test. Needs two values per sample (NaN otherwise).
WelchResult welch_t_test(std::span<const double> x, std::span<const double> y);

// Holm's step-down adjustment (Holm 1979), the same values as R's p.adjust(p, "holm"):
// with p sorted ascending, adjusted p_(k) = max_{j <= k} min(1, (m - j + 1) p_(j)).
// Controls the family-wise error rate under any dependence. NaN entries stay NaN and are not
// counted in m.
std::vector<double> holm_adjust(std::span<const double> p_values);
// Holm's weighted procedure (Holm 1979, sec. 5): hypothesis i carries weight w_i > 0; at each
// step the remaining hypothesis with the smallest p_i / w_i is rejected when
// p_i <= alpha w_i / (sum of the remaining weights). Adjusted p_(k) = max_{j <= k}
// min(1, p_(j) W_j / w_(j)), W_j the weight remaining at step j. Equal weights give holm_adjust.
// A NaN p-value, or a weight that is not positive, is left out (NaN).
std::vector<double> holm_adjust(std::span<const double> p_values, std::span<const double> weights);

}  // namespace benchguard::stats
