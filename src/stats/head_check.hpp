// The newest point of a series against the points before it: is the commit that just landed
// already different? (docs/history.md, "The head check".)
//
// Each point is a commit's instance means. Between commits the level moves by more than the
// instances of one commit spread (a build's code layout, the machine's state the day it was
// measured), so a test of the newest point's instances against the baseline's instances alone
// would alarm on that drift. The head check instead asks whether the newest point lies where a
// new point of the baseline would: a prediction interval for a new point mean built from the
// baseline's point means (their spread counts the drift and the within-point noise both),
// with the within-point part rescaled to the newest point's own instance count:
//
//   V = tau^2 + sigma^2 / n_head + S^2 / K,   tau^2 = max(0, S^2 - sigma^2 * mean(1 / n_j)),
//
// S^2 the variance of the K baseline point means, sigma^2 the pooled variance of instance
// means within baseline points, and t = (m_head - mean) / sqrt(V) against Student's t with
// K - 1 degrees of freedom. With equal instance counts V = S^2 (1 + 1/K): the classic
// prediction interval for a new observation of a normal sample (e.g. Hahn & Meeker,
// Statistical Intervals, 1991, sec. 4.7), exact when point means are normal.
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
  double baseline = 0;  // the mean of the baseline's point means
  double head = 0;
  // head / baseline - 1, and the interval of that change: head's distance from the baseline
  // +- the prediction interval's half-width, relative to the baseline.
  double change = 0, lower = 0, upper = 0;
  double t = 0;
  double p_value = 1;      // two-sided
  bool suspected = false;  // p below alpha and |change| at least the threshold
};

HeadCheck check_head(std::span<const PointMoments> baseline, const PointMoments& head,
                     const HeadCheckOptions& options = {});

}  // namespace benchguard::stats
