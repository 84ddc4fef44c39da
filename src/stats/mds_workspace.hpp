// Internal to the MDS simulation (mds_experiment.cpp, mds.cpp): the buffers one thread reuses
// across experiments, and the experiment itself on them.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/mds.hpp"

namespace benchguard::stats {

struct MdsWorkspace {
  std::vector<uint32_t> pool;       // candidate instances; the chosen ones first
  std::vector<uint32_t> picks;      // the instances drawn, in order (with replacement or not)
  std::vector<uint32_t> positions;  // iterations of one instance; the chosen ones first
  std::vector<double> values;       // the chosen iterations of one instance
  std::vector<InstanceMoments> control, test;
  std::vector<double> c, t, r;  // replicates: control mean, test mean, test / control
  // The chosen iterations of every instance, as Hierarchical::from_parts takes them.
  std::vector<double> control_values, test_values;
  std::vector<std::size_t> control_offsets, test_offsets;
};

// The stream of experiment `experiment` of `config`.
Rng experiment_rng(const Configuration& config, const MdsOptions& options, int experiment);
// The seed of the compare rule's resampling in that experiment.
uint64_t experiment_verdict_seed(const Configuration& config, const MdsOptions& options,
                                 int experiment);

// Draws the experiment's instances and iterations from `rng` into the workspace: the moments
// of each side (test side multiplied by test_scale) and the values themselves.
void draw_experiment(const Hierarchical& data, const Configuration& config, Rng& rng,
                     double test_scale, MdsWorkspace& workspace);
// The bootstrap decisions' intervals of the drawn experiment, resampled from `rng`.
ExperimentIntervals bootstrap_intervals(const Configuration& config, const MdsOptions& options,
                                        Rng& rng, MdsWorkspace& workspace);

ExperimentIntervals run_experiment(const Hierarchical& data, const Configuration& config,
                                   const MdsOptions& options, int experiment, double test_scale,
                                   MdsWorkspace& workspace);

}  // namespace benchguard::stats
