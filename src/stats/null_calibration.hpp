// What repeated A/A comparisons (both sides the same program, so every slower or faster
// verdict is a false alarm) say about the verdict rule on one machine.
//
// The false-alarm rate is a binomial proportion: k alarms in n comparisons, with the
// Clopper-Pearson interval (Clopper & Pearson, Biometrika 1934), which covers at least the
// stated confidence for every n and true rate, so "0 of 20" still reads as "up to 17%".
//
// The calibrated threshold asks how large a change A/A comparisons produce. With n A/A
// relative changes d_i = |r_i - 1| from repetitions that are exchangeable with the next
// comparison (same program, configuration and machine), the rank of the next one among the
// n + 1 is uniform, so the next exceeds the j-th largest of the n with probability at most
// j / (n + 1), whatever their distribution (the argument of conformal prediction: Vovk,
// Gammerman & Shafer, "Algorithmic Learning in a Random World", 2005; Lei et al., JASA 2018).
// Taking j = floor(alpha (n + 1)) keeps that at or below alpha. A verdict of slower or faster
// needs the change to exceed the threshold, so a threshold at least this large keeps the A/A
// false-alarm rate at or below alpha, whatever the interval does. Below n = 1 / alpha - 1
// repetitions (19 at 5%) not even the largest change gives that bound: the threshold is then
// the largest change, and `bound` says what it guarantees.
#pragma once

#include <cstddef>
#include <span>

#include "stats/confidence.hpp"

namespace benchguard::stats {

// Two-sided Clopper-Pearson interval for a binomial proportion: `successes` of `trials`.
// [0, 1] for no trials; confidence in (0, 1).
Interval binomial_interval(std::size_t successes, std::size_t trials, double confidence);

struct NullThreshold {
  double threshold = 0;  // relative change; NaN without any A/A change
  std::size_t rank = 0;  // j: the threshold is the j-th largest change (1: the largest)
  double bound = 1;      // j / (n + 1): at most this chance that a further A/A change exceeds it
  bool reached = false;  // bound <= alpha
  // Repetitions needed for the bound to reach alpha (ceil(1 / alpha) - 1).
  std::size_t repetitions_needed = 0;
};

// The threshold above from A/A ratios B / A (non-finite ones are left out). alpha in (0, 1).
NullThreshold null_threshold(std::span<const double> ratios, double alpha);

// The fewest repetitions whose largest A/A change bounds a further one at alpha:
// ceil(1 / alpha) - 1 (19 at 5%).
std::size_t repetitions_for_bound(double alpha);

}  // namespace benchguard::stats
