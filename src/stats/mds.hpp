// Minimal detectable slowdown (MDS) by simulation, after Laaber et al., "Software
// microbenchmarking in the cloud. How bad is it really?" (EMSE 2019), as Hail's benchmark tools
// implement it: from one benchmark's measurements (instances x iterations, already cleaned),
// simulate many A/A experiments of a smaller configuration, slow the test side down by s, and
// count how often a decision calls it slower. docs/plan.md explains every choice.
//
// One experiment of configuration (selection, n, m):
//  - instance-based selection: 2n distinct instances, m distinct iterations of each; the first
//    n are the control, the other n the test (A and B on different instances);
//  - trial-based selection: n distinct instances, 2m distinct iterations of each; m of each
//    instance are the control, the other m the test (A and B on the same instances);
//  - a hierarchical bootstrap of the mean of each side (trial-based: the same instances drawn
//    for both sides, so the ratio is paired), giving three intervals: control mean, test mean
//    and the ratio test / control;
//  - two decisions: Laaber's, the two means' intervals do not overlap, and Schultz's (Hail),
//    the ratio's interval excludes 1.
// Multiplying the test side by s multiplies its bootstrap distribution, and so its interval,
// by s: each experiment gives a threshold u such that the test is called slower exactly when
// s > u, and one bootstrap per experiment serves every slowdown.
//
// The bootstrap's inner stage (redrawing the m iterations of a drawn instance) adds to the
// resample mean a noise whose variance, given the drawn instances, is sum w_i / (m n^2) (w_i
// the instance's variance with denominator m). It is drawn as one normal variate per resample
// instead of n m draws: the sum of n m draws is close to normal, and this makes a resample cost
// n draws instead of n (m + 1). tests/unit/stats/mds_test.cpp checks it against resample.hpp.
//
// Pure: no I/O; the seed fixes every number, whatever the number of threads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "stats/confidence.hpp"
#include "stats/hierarchical.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {

enum class Selection { kInstance, kTrial };
enum class Decision { kOverlap, kRatio };  // Laaber, Schultz
inline constexpr std::size_t kDecisionCount = 2;

std::string_view to_string(Selection s);  // "instance", "trial"
std::string_view to_string(Decision d);   // "overlap", "ratio"

struct MdsOptions {
  std::vector<std::size_t> instances{5, 10, 15, 20, 25};   // per side
  std::vector<std::size_t> iterations{5, 10, 15, 20, 25};  // per instance and side
  std::vector<double> slowdowns{1.0, 1.01, 1.02, 1.05, 1.1, 1.2, 1.3, 1.5};
  int experiments = 100;
  int resamples = 1000;
  double confidence = 0.95;  // of every interval
  double power = 0.95;       // the detection rate the continuous MDS must reach
  CiMethod interval = CiMethod::kExpandedPercentile;
  uint64_t seed = 0;
};

struct Configuration {
  Selection selection = Selection::kInstance;
  std::size_t instances = 0;
  std::size_t iterations = 0;
};

// Whether the data holds enough for one experiment: instance-based needs 2n instances with at
// least m iterations, trial-based n instances with at least 2m.
bool feasible(const Hierarchical& data, const Configuration& config);

// One experiment's intervals (the test side multiplied by test_scale before resampling).
struct ExperimentIntervals {
  Interval control;
  Interval test;
  Interval ratio;  // test / control
};

// Experiment `experiment` of `config`: its selection and resamples come from
// Rng(derive_seed(options.seed, tag of config), experiment). `config` must be feasible.
ExperimentIntervals simulate_experiment(const Hierarchical& data, const Configuration& config,
                                        const MdsOptions& options, int experiment,
                                        double test_scale = 1.0);

// With the test side multiplied by s, the decision calls it slower when s > upper and faster
// when s < lower (lower <= upper).
struct Thresholds {
  double lower;
  double upper;
};
Thresholds thresholds(const ExperimentIntervals& e, Decision decision);
// The decision on intervals as they are: -1 faster, 0 no change, +1 slower.
int decide(const ExperimentIntervals& e, Decision decision);

struct DecisionResult {
  std::vector<double> upper;  // per experiment, ascending
  std::vector<double> lower;  // per experiment, ascending
  // Experiments whose decision at s = 1 says slower or faster: the false-positive rate.
  double false_positive_rate = 0;
  std::vector<double> detection;  // per MdsOptions::slowdowns: detection_rate at each
  // The continuous MDS: the smallest s >= 1 at which the detection rate reaches the power
  // (the ceil(power x experiments)-th smallest threshold, at least 1).
  double mds = 0;
};

// The share of experiments calling a slowdown of s slower (s > 1), or calling any change at
// s = 1 (the false-positive rate); s < 1 counts "faster" calls.
double detection_rate(const DecisionResult& r, double slowdown);

struct ConfigResult {
  Configuration config;
  bool feasible = false;                                 // false: not simulated
  std::array<DecisionResult, kDecisionCount> decisions;  // indexed by Decision

  const DecisionResult& operator[](Decision d) const {
    return decisions[static_cast<std::size_t>(d)];
  }
};

// Every configuration of the grid, for both selections: instance-based first, then
// trial-based, each by instances then iterations. Configurations the data cannot serve are
// listed with feasible = false.
std::vector<ConfigResult> simulate_mds(const Hierarchical& data, const MdsOptions& options);

// ---- the fast resampling, exposed for testing

// One instance's selected iterations as the bootstrap sees them: their mean, and the variance
// that redrawing them adds to that mean (variance with denominator m, divided by m).
struct InstanceMoments {
  double mean;
  double inner;
};
// Moments of `values` multiplied by scale.
InstanceMoments moments_of(std::span<const double> values, double scale = 1.0);

// Fills `out` with bootstrap replicates of the mean over the instances (equal iteration counts):
// each draws n instances with replacement, sums their means, and adds one normal variate with
// the drawn inner variances.
void mean_replicates(std::span<const InstanceMoments> instances, Rng& rng, std::span<double> out);

}  // namespace benchguard::stats
