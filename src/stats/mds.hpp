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
//    the ratio's interval excludes 1;
//  - and `compare`'s own rule (verdict.hpp: its statistic, interval and threshold, Holm's
//    adjustment over a family of benchmarks), on the two simulated samples, at s = 1 (A/A) and
//    at the target slowdown.
// Multiplying the test side by s multiplies its bootstrap distribution, and so its interval,
// by s: each experiment gives a threshold u such that the test is called slower exactly when
// s > u, and one bootstrap per experiment serves every slowdown. `compare`'s rule is as
// scale-equivariant (its statistics and relative variance terms are), except for the spike
// rule with fewer than 3 iterations per instance, which reads the other side's values: there
// the rate at the target is counted from verdicts on the test side slowed by the target.
//
// Instances: an experiment draws 2n (trial-based: n) of the data's instances, distinct when the
// data holds at least twice as many, otherwise with replacement (fresh_draws): a pilot of 50
// instances would otherwise put the same 50 instances in every experiment at n = 25.
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
#include "stats/verdict.hpp"

namespace benchguard::stats {

enum class Selection { kInstance, kTrial };
// Laaber, Schultz (bootstrap intervals of the mean), and the verdict `compare` gives.
enum class Decision { kOverlap, kRatio, kCompare };
inline constexpr std::size_t kDecisionCount = 3;

std::string_view to_string(Selection s);  // "instance", "trial"
std::string_view to_string(Decision d);   // "overlap", "ratio", "compare"

struct MdsOptions {
  std::vector<std::size_t> instances{5, 10, 15, 20, 25};   // per side
  std::vector<std::size_t> iterations{5, 10, 15, 20, 25};  // per instance and side
  std::vector<double> slowdowns{1.0, 1.01, 1.02, 1.05, 1.1, 1.2, 1.3, 1.5};
  int experiments = 400;
  int resamples = 1000;      // of the bootstrap decisions, and of compare's bootstrap intervals
  double confidence = 0.95;  // of every interval, compare's included
  double power = 0.95;       // the detection rate the continuous MDS must reach
  CiMethod interval = CiMethod::kExpandedPercentile;  // of the bootstrap decisions
  uint64_t seed = 0;
  // The compare decision: the verdict rule with these options (statistic, threshold, interval,
  // direction; confidence and resamples come from above, the seed from each experiment).
  VerdictOptions verdict;
  // Benchmarks compared together: Holm's adjustment over them (verdict.hpp, adjust_family).
  // A slowed benchmark's adjusted p-value is at most family x its own, so its verdict stands
  // whatever the others show when its interval at 1 - (1 - confidence) / family excludes 1:
  // the compare decision counts a call only then (exact for the t interval, whose p-value is
  // dual to it). With 1, no adjustment.
  std::size_t family = 1;
  double target = 1.05;  // the compare decision is also run with the test side slowed by it
  // The detection rate is a count over `experiments`: the MDS and the power are read off its
  // one-sided Clopper-Pearson lower bound at this confidence, not off the count itself.
  double bound_confidence = 0.95;
  bool bootstrap_decisions = true;  // simulate overlap and ratio as well (the costly part)
};

struct Configuration {
  Selection selection = Selection::kInstance;
  std::size_t instances = 0;
  std::size_t iterations = 0;
};

// Whether the data holds enough for one experiment: instance-based needs 2n instances with at
// least m iterations, trial-based n instances with at least 2m.
bool feasible(const Hierarchical& data, const Configuration& config);
// Whether an experiment of `config` draws its instances with replacement: the data holds fewer
// than twice the instances it needs (2n, trial-based n) with enough iterations. Distinct draws
// from so few would put mostly the same instances in every experiment.
bool fresh_draws(const Hierarchical& data, const Configuration& config);

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

// The two samples experiment `experiment` of `config` draws (the test side unscaled), as the
// compare decision sees them: its instances, and the selected iterations of each.
struct ExperimentSamples {
  Hierarchical control;
  Hierarchical test;
};
ExperimentSamples simulate_samples(const Hierarchical& data, const Configuration& config,
                                   const MdsOptions& options, int experiment);

// `compare`'s verdict on one benchmark, control against test, with options.verdict at
// options.confidence (what compare_with_sample decides, without the Mann-Whitney U test that
// does not decide it), and the interval at Holm's level for options.family benchmarks.
struct RuleOutcome {
  double ratio = 0;
  Interval ci{};         // at options.confidence
  Interval family_ci{};  // at 1 - (1 - confidence) / family (= ci for a family of 1)
  Verdict verdict = Verdict::kInconclusive;
  bool decidable = false;        // at least kMinInstancesForVerdict instances a side
  bool holds_in_family = false;  // slower or faster, and family_ci excludes 1
};
RuleOutcome compare_rule(const Hierarchical& control, const Hierarchical& test,
                         const MdsOptions& options, uint64_t seed);
// With the test side multiplied by s, the rule calls it slower (within the family) exactly when
// s > upper, faster when s < lower, for an outcome at test scale `scale`.
Thresholds thresholds(const RuleOutcome& outcome, double threshold, double scale = 1.0);

struct DecisionResult {
  std::vector<double> upper;  // per experiment, ascending
  std::vector<double> lower;  // per experiment, ascending
  // Experiments whose decision at s = 1 says slower or faster: the false-positive rate.
  double false_positive_rate = 0;
  std::vector<double> detection;  // per MdsOptions::slowdowns: detection_rate at each
  // The same, one-sided Clopper-Pearson lower bounds at MdsOptions::bound_confidence.
  std::vector<double> detection_lower;
  // The continuous MDS: the smallest s >= 1 at which the lower bound of the detection rate
  // reaches the power (the k-th smallest threshold, k the fewest detections whose bound
  // reaches it, at least 1); infinite when not even every experiment's would.
  double mds = 0;
  // The compare decision only: experiments whose verdict with the test side slowed by
  // `target` was slower; -1 when not counted (the thresholds then give the rate).
  double target = 0;
  long long target_detections = -1;
  double bound_confidence = 0.95;
};

// The share of experiments calling a slowdown of s slower (s > 1), or calling any change at
// s = 1 (the false-positive rate); s < 1 counts "faster" calls. At the target of the compare
// decision, the share of its verdicts there.
double detection_rate(const DecisionResult& r, double slowdown);
// One-sided Clopper-Pearson lower bound of that rate at r.bound_confidence.
double detection_lower_bound(const DecisionResult& r, double slowdown);
// One-sided Clopper-Pearson lower bound of `successes` of `trials` at `confidence`.
double rate_lower_bound(std::size_t successes, std::size_t trials, double confidence);
// The fewest successes of `trials` whose lower bound reaches `rate` (trials + 1: none does).
std::size_t successes_for_bound(std::size_t trials, double rate, double confidence);

struct ConfigResult {
  Configuration config;
  bool feasible = false;     // false: not simulated
  bool fresh_draws = false;  // instances drawn with replacement (stats::fresh_draws)
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
