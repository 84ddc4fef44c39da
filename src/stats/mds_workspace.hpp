// Internal to the MDS simulation (mds_experiment.cpp, mds.cpp): the buffers one thread reuses
// across experiments, and the experiment itself on them.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/mds.hpp"

namespace benchguard::stats {

struct MdsWorkspace {
  std::vector<uint32_t> pool;       // candidate instances; the chosen ones first
  std::vector<uint32_t> positions;  // iterations of one instance; the chosen ones first
  std::vector<double> values;       // the chosen iterations of one instance
  std::vector<InstanceMoments> control, test;
  std::vector<double> c, t, r;  // replicates: control mean, test mean, test / control
};

ExperimentIntervals run_experiment(const Hierarchical& data, const Configuration& config,
                                   const MdsOptions& options, int experiment, double test_scale,
                                   MdsWorkspace& workspace);

}  // namespace benchguard::stats
