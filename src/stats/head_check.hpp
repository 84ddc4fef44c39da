// The newest point of a series against the points before it: is the commit that just landed
// already different? (docs/history.md, "The head check".)
//
// Each point is the mean of a commit's instance levels. Between commits the level moves by more
// than the instances of one commit spread (a build's code layout, the machine's state the day it
// was measured), so a test of the newest point's instances against the baseline's instances alone
// would alarm on that drift. The head check instead asks whether the newest point lies where a
// new point of the baseline would: a prediction interval for a new point mean built from the
// baseline's point means (their spread counts the drift and the within-point noise both),
// with the within-point part rescaled to the newest point's own instance count:
//
//   V = tau^2 + sigma^2 / n_head + S^2 / K,   tau^2 = max(0, S^2 - sigma^2 * mean(1 / n_j)),
//
// S^2 the variance of the K baseline point means, sigma^2 the pooled variance of instance
// levels within baseline points, and t = (m_head - mean) / sqrt(V) against Student's t. With
// equal instance counts V = S^2 (1 + 1/K): the classic prediction interval for a new
// observation of a normal sample (e.g. Hahn & Meeker, Statistical Intervals, 1991, sec. 4.7),
// exact with K - 1 degrees of freedom when point means are normal.
//
// Degrees of freedom (Satterthwaite 1946; Welch 1947). V is a S^2 + c sigma^2 with
//
//   tau^2 > 0:  a = 1 + 1/K,  c = 1/n_head - mean(1/n_j)   (phi = 0; phi > 0: below)
//   tau^2 = 0:  a = 1/K,      c = 1/n_head
//
// S^2 estimated with K - 1 degrees of freedom and sigma^2 with sum_j (n_j - 1), so
//
//   df = V^2 / ( (a S^2)^2 / (K - 1) + (c sigma^2)^2 / sum_j (n_j - 1) ).
//
// With tau^2 > 0 and the head's instance count equal to the baseline points', c is 0 and
// df = K - 1; a head of fewer instances weighs sigma^2 in with its own degrees of freedom. A
// head of more instances (or a wandering drift, below) makes c negative and V a difference of mean
// squares, where the approximation is poor and can fall far below both (to 2.4 with K = 29, n_j =
// 3, n_head = 10 and tau^2 near 0, where V is mostly the well-known sigma^2 / n_head); there df is
// kept at least min(K - 1, sum_j (n_j - 1)).
//
// One wild commit (a measurement the machine spoilt) inflates S^2 and would blind the check to
// everything smaller. The baseline point farthest from the rest (largest |t| when each point
// is tested against the other K - 1 as the head is) is left out when its two-sided p-value is
// below alpha / K (Bonferroni over the K points: with no wild point, a point is left out of at
// most a fraction alpha of baselines) and K - 1 points are still at least min_baseline. At most
// one point is left out.
//
// A drift that wanders (the level of neighbouring commits alike, AR(1) with lag-1
// autocorrelation phi) makes S^2 short of the drift's variance and the baseline's mean
// uncertain by more than S^2 / K, while the head shares some of the newest points' drift.
// With at least 10 points kept and tau^2 > 0, phi is estimated from them, in their order:
// r = (sum_i d_i d_(i-1) / (K - 1)) / tau^2 (d_i = m_i - mean), corrected for its bias in short
// series (Kendall 1954: E r = phi - (1 + 3 phi) / K), phi = r + (1 + 3 r) / K within
// [0, 0.95]. For AR(1) with phi, vbar = sum_ij phi^|i-j| / K^2 and cbar = sum_(m=1..K) phi^m / K
// (1/K and 0 when phi = 0), and
//
//   V = tau^2 g (1 + vbar - 2 cbar) + sigma^2 / n_head + sigma^2 mean(1/n_j) / K,
//   g = (K - 1) / (K (1 - vbar))
//
// (E S^2 = tau^2 K (1 - vbar) / (K - 1) + sigma^2 mean(1/n_j) under AR(1)): a S^2 + c sigma^2
// again, with a = g (1 + vbar - 2 cbar) and c = 1/n_head + mean(1/n_j) / K - a mean(1/n_j),
// and the degrees of freedom as above. With phi = 0 it is the V above. The estimate is short
// of a large phi, so this narrows the excess false alarms of a wandering drift without
// removing them (docs/history.md has the rates); a negative r is not taken as narrowing V.
//
// An instance's level is the median of its iterations (point_moments; docs/history.md says
// why).
//
// Pure: no I/O.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "core/defaults.hpp"
#include "stats/hierarchical.hpp"

namespace benchguard::stats {

// A point as the head check sees it: the mean of its instance means, how many instances, and
// the sample variance of its instance means (0 with fewer than two, or for a summary point).
struct PointMoments {
  double mean = 0;
  std::size_t instances = 1;
  double variance = 0;
};

// A measured point as the head check sees it: each instance by the median of its iterations
// (one outlying iteration does not move it), their mean, count and variance.
PointMoments point_moments(const Hierarchical& data);

struct HeadCheckOptions {
  double confidence = 0.99;  // of the two-sided prediction interval: alpha = 1 - confidence
  // A relative change of the head smaller than this is not suspected, however sure.
  double threshold = kDefaultThreshold;
  std::size_t min_baseline = 5;  // fewer baseline points: not examined
};

struct HeadCheck {
  bool examined = false;
  std::string why_not;  // when not examined
  std::size_t baseline_points = 0;
  double baseline = 0;  // the mean of the baseline's point means (those kept)
  double head = 0;
  // head / baseline - 1, and the interval of that change: head's distance from the baseline
  // +- the prediction interval's half-width, relative to the baseline.
  double change = 0, lower = 0, upper = 0;
  double t = 0;
  double df = 0;           // of the Student t: Satterthwaite's (the comment above)
  double phi = 0;          // the drift's lag-1 autocorrelation allowed for (the comment above)
  double p_value = 1;      // two-sided
  bool suspected = false;  // p below alpha and |change| at least the threshold
  // The baseline point (an index into the baseline) left out as wild, or kNoneLeftOut. The
  // baseline's mean and the interval are those of the points kept.
  static constexpr std::size_t kNoneLeftOut = static_cast<std::size_t>(-1);
  std::size_t left_out = kNoneLeftOut;
};

HeadCheck check_head(std::span<const PointMoments> baseline, const PointMoments& head,
                     const HeadCheckOptions& options = {});

}  // namespace benchguard::stats
