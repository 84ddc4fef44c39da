// How many repetitions at each level of an experiment (Kalibera & Jones, "Rigorous
// benchmarking in reasonable time", ISMM 2013; corrected T_i as in libkalibera).
//
// Levels are numbered as in the paper: level 1 is the innermost (iterations), level n the
// outermost (e.g. level 2 = instances, level 3 = builds). The data must be balanced: reps[i-1]
// repetitions at level i, values laid out with level 1 varying fastest (row-major with the
// outermost index first).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "stats/hierarchical.hpp"

namespace benchguard::stats {

struct VarianceComponents {
  // s2[i-1] = S_i^2, the biased estimator: the spread of level-i means around their parent
  // mean, averaged over parents.
  std::vector<double> s2;
  // t2[i-1] = T_i^2, the unbiased estimator of the variance level i adds:
  // T_1^2 = S_1^2, T_i^2 = S_i^2 - S_{i-1}^2 / r_{i-1}. It can come out negative when a level
  // adds (almost) nothing and noise from below dominates.
  std::vector<double> t2;
};

// reps innermost first; values.size() must equal the product of reps and every rep be >= 2.
Result<VarianceComponents> variance_components(std::span<const double> values,
                                               std::span<const std::size_t> reps);
// Two levels: iterations (level 1) within instances (level 2). The data must be balanced.
Result<VarianceComponents> variance_components(const Hierarchical& data);

struct RepetitionPlan {
  // exact[i-1] = r_i = sqrt(c_{i+1} T_i^2 / (c_i T_{i+1}^2)) for i = 1 .. n-1: the repetitions
  // at level i per repetition of level i + 1 that minimize the variance of the grand mean for a
  // given total cost. Infinite when T_{i+1}^2 <= 0 < T_i^2.
  std::vector<double> exact;
  // ceil(exact), at least 1, at most max_repetitions (libkalibera rounds up the same way).
  std::vector<int> rounded;
  std::vector<std::string> warnings;
};

// costs[i-1] = c_i, the cost (e.g. seconds) of one repetition at level i excluding the levels
// below it: for instances x iterations, c_1 is one iteration and c_2 one process launch with its
// warmup. costs.size() must equal the number of levels.
Result<RepetitionPlan> optimal_repetitions(const VarianceComponents& components,
                                           std::span<const double> costs,
                                           int max_repetitions = 1000);

}  // namespace benchguard::stats
