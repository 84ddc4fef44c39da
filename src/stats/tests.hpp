// Classical hypothesis tests for two independent samples, and multiplicity adjustment.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchguard::stats {

struct MannWhitneyResult {
  double u;        // pairs (x_i, y_j) with x_i > y_j, ties counting one half (R's W)
  double p_value;  // two-sided
  bool exact;      // exact null distribution rather than the normal approximation
};

// Mann-Whitney U (Wilcoxon rank-sum) test, two-sided, with R's wilcox.test rules:
//  - exact null distribution when both samples have fewer than 50 values and there are no
//    ties: p = min(1, 2 P(U <= u)) below the centre, min(1, 2 P(U >= u)) above it;
//  - otherwise the normal approximation with mid-ranks, the tie-corrected variance
//    n1 n2 / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) and a continuity correction of 0.5
//    towards the centre.
// Either sample empty: p is NaN.
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y);

// The exact null distribution of U for samples of sizes m and n without ties:
// element u is P(U = u), u = 0 .. m n.
std::vector<double> mann_whitney_null(std::size_t m, std::size_t n);

struct WelchResult {
  double t;        // (mean x - mean y) / sqrt(s_x^2 / n_x + s_y^2 / n_y)
  double dof;      // Welch-Satterthwaite degrees of freedom
  double p_value;  // two-sided, Student's t with `dof` degrees of freedom
};

// Welch's unequal-variance t-test. Needs two values per sample (NaN otherwise).
WelchResult welch_t_test(std::span<const double> x, std::span<const double> y);

// Holm's step-down adjustment (Holm 1979), the same values as R's p.adjust(p, "holm"):
// with p sorted ascending, adjusted p_(k) = max_{j <= k} min(1, (m - j + 1) p_(j)).
// Controls the family-wise error rate under any dependence. NaN entries stay NaN and are not
// counted in m.
std::vector<double> holm_adjust(std::span<const double> p_values);

}  // namespace benchguard::stats
