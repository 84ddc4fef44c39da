// What a series of commits says of a change once it is found (docs/history.md, "Confirmed or
// suspected" and "The gate"). Each point is a commit, summarised by its mean: commits differ by
// more than the instances of one commit do (a build's code layout, the machine's state the day
// it was measured), so the commits, not the instances, are the units. Pure: no I/O.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "core/defaults.hpp"

namespace benchguard::stats {

// Confirmation of a change point by the history that found it. The points chose the split, so
// a test of the same points at its usual level confirms nearly every false change point it is
// given: the detector reports only splits whose test already passed p <= 0.001. Two margins
// guard against that selection:
//  - the level alpha is divided among the split positions the segments allowed
//    (Bonferroni over the candidates: after_end - before_start - 2 min_segment + 1), as the
//    detector chose the best of them;
//  - the interval must lie wholly beyond the threshold (not just beyond 0) on the side of the
//    change: a false change point's size is about what the noise can fake, a real step's is
//    what it is.
// The interval is describe_change's (Fieller's theorem for after / before - 1 with Yuen's test
// of 10%-trimmed point means, each segment's variance floored at the pooled one) at confidence
// 1 - alpha / candidates. This is still not an exact selective test (the segments' ends were
// chosen too, and ~40 windows per 1,000 commits are searched): bench/detection_rules_bench.cpp
// measures what it gives.
struct SeriesConfirmOptions {
  double threshold = kDefaultThreshold;
  double alpha = 0.01;
  std::size_t min_segment = 3;
};

struct SeriesConfirmation {
  std::size_t candidates = 0;  // split positions the segments allowed
  double confidence = 0;       // of the interval: 1 - alpha / candidates
  double change = std::numeric_limits<double>::quiet_NaN();  // after / before - 1
  double lower = std::numeric_limits<double>::quiet_NaN();   // NaN: unbounded
  double upper = std::numeric_limits<double>::quiet_NaN();
  bool confirmed = false;  // the interval lies wholly beyond +-threshold, the change's way
};

// The change between series[before_start, index) and series[index, after_end), each of at
// least 2 points (else not confirmed, with a NaN interval).
SeriesConfirmation confirm_in_series(std::span<const double> series, std::size_t before_start,
                                     std::size_t index, std::size_t after_end,
                                     const SeriesConfirmOptions& options = {});

// Has a change been undone by the newest commits? Only on positive evidence, never because the
// newest commit is merely not significantly worse than the points before the change (one
// commit in the noise is not that: after a lasting 3% step in 1% noise such a rule counted
// 45% of the commits that followed as undoing it). With `old` the point means before the
// change, `after` those from the change up to the newest ones and `newest` the newest
// `options.newest` (3) point means, all after the change, undone when all of:
//  - the mean of the newest lies below the level after the change: the one-sided t test of
//    mean(newest) - mean(after), standard error s sqrt(1/m + 1/K_after) with s^2 the variance
//    of the point means pooled within the three groups (N - 3 degrees of freedom), has
//    p < alpha (a prediction of the mean of m new points of the level after the change);
//  - that mean is within the threshold of the old level: mean(newest) / mean(old) - 1 at most
//    `threshold` the worse way (the change's way);
//  - the newest favour the old level over the level after it by a likelihood ratio of at
//    least `likelihood_ratio` (1000), normal point means of spread s about either level:
//    ln LR = m d (midpoint - mean(newest)) / s^2, d = |mean(after) - mean(old)|, signed so
//    that it grows as the newest go back. When the data after the change do not show it
//    (d near 0), nothing can undo it;
//  - each of the newest points is nearer the old level than the level after the change, so
//    that one outlying commit cannot carry the mean.
// `increased`: the change raised the metric. Not examined (undone false) with fewer than 2
// old points, no point in `after`, fewer than options.newest newest points, or no degree of
// freedom. bench/detection_rules_bench.cpp measures the rule.
struct RevertOptions {
  double threshold = kDefaultThreshold;
  double alpha = 0.01;
  double likelihood_ratio = 1000;
  std::size_t newest = 3;
};

struct RevertCheck {
  bool examined = false;
  std::string why_not;  // when not examined
  std::size_t old_points = 0, after_points = 0, newest_points = 0;
  double old_level = 0, after_level = 0, newest_level = 0;  // means of the point means
  double from_old = 0;                                      // newest_level / old_level - 1
  double from_after = 0;                                    // newest_level / after_level - 1
  double t = 0;  // positive: the newest back the old level's way
  double dof = 0;
  double p_value = 1;               // one-sided
  double log_likelihood_ratio = 0;  // ln LR, old level against the level after the change
  bool undone = false;
};

RevertCheck check_revert(std::span<const double> old, std::span<const double> after,
                         std::span<const double> newest, bool increased,
                         const RevertOptions& options = {});

// Do the commits after a suspicion support it? An alarm (a change suspected at the head and
// never measured again) claims that its commit moved the level beyond the threshold. With
// `old` the point means before it and `since` those after it (the alarmed point itself left
// out: it was chosen for being extreme), the points after it no longer support it when the
// level they measure is within the threshold of the old level with confidence 1 - alpha: the
// one-sided test of mean(since) against old level x (1 + threshold) (the change's way), standard
// error s sqrt(1/m + 1/K), s^2 the variance of the point means pooled within both groups
// (K + m - 2 degrees of freedom), has p < alpha (an equivalence bound, as `unchanged` is).
// A real change beyond the threshold is therefore closed by it at most alpha of the time at
// each look (the looks share their points). Fields as check_revert's: after_* is the alarmed
// point, newest_* the points since it. Not examined with fewer than 2 old points or fewer than
// options.newest points since.
struct SupportOptions {
  double threshold = kDefaultThreshold;
  double alpha = 0.05;
  std::size_t since = 3;
};

RevertCheck check_support(std::span<const double> old, double alarmed,
                          std::span<const double> since, bool increased,
                          const SupportOptions& options = {});

}  // namespace benchguard::stats
