// Synthetic benchmark data with the structure real measurements have, for testing the
// statistics and for `plan`. Seeded: the same (options, seed, stream) gives the same data.
//
// Iteration j of instance i takes
//     mean * slowdown * I_i * E_ij * O_ij * W_j
//   I_i   instance offset, lognormal with mean 1 and log-sd instance_sd (about instance_sd
//         relative sd): what a process launch fixes (layout, frequency, co-tenants)
//   E_ij  iteration noise, lognormal with mean 1 and log-sd iteration_sd
//   O_ij  with probability outlier_probability an outlier (interrupts, GC, page faults):
//         outlier_factor, or when outlier_factors is not empty one of them drawn uniformly;
//         else 1
//   W_j   warmup: the first warmup_iterations iterations of every instance are slower, by
//         warmup_factor on the first, falling linearly towards 1
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/hierarchical.hpp"

namespace benchguard::stats {

struct SimulationOptions {
  std::size_t instances = 10;
  std::size_t iterations = 20;        // steady-state iterations per instance
  std::size_t warmup_iterations = 0;  // extra iterations before them, in every instance
  double mean = 1.0;                  // expected steady-state iteration without outliers
  double slowdown = 1.0;
  double instance_sd = 0.03;
  double iteration_sd = 0.02;
  double outlier_probability = 0.0;
  double outlier_factor = 2.0;
  std::vector<double> outlier_factors;  // when not empty, used instead of outlier_factor
  double warmup_factor = 1.5;
};

// instances x (warmup_iterations + iterations) values; drop_leading(data, warmup_iterations)
// leaves the steady state.
Hierarchical simulate(const SimulationOptions& options, uint64_t seed, uint64_t stream = 0);

// The expected value of one steady-state iteration:
// mean * slowdown * (1 + outlier_probability * (mean outlier factor - 1)).
double expected_iteration(const SimulationOptions& options);

}  // namespace benchguard::stats
