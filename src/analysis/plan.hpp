// `plan`: from stored measurements of many instances to, per benchmark, the minimal detectable
// slowdown of every instances x iterations configuration (stats/mds.hpp) and the cheapest
// configuration that detects the target. The cleaning is Hail's notebook, automated: burn-in
// from steady-state detection, failed and timed-out iterations out, iterations beyond the
// median-ratio factor out, and benchmarks without enough data reported with what they need.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "stats/mds.hpp"
#include "stats/steady_state.hpp"

namespace benchguard::analysis {

struct PlanOptions {
  std::string metric = "wall_time";
  double target = 1.05;  // the slowdown to detect
  double alpha = 0.05;   // highest false-positive rate a configuration may have
  // The rate is a count over experiments: with intervals at 95% confidence the true rate is
  // about alpha, and 100 experiments put the count above it four times in ten. A
  // configuration is therefore ruled out only when its rate exceeds alpha by more than this
  // many binomial standard errors, sqrt(alpha (1 - alpha) / experiments): 0.044 at 100.
  double fpr_allowance_se = 2.0;
  double power = 0.95;  // lowest detection rate at the target (also the MDS's rate)
  // With a budget (seconds per variant): the smallest MDS whose configuration fits in it.
  std::optional<double> budget_s;
  double outlier_ratio = 10.0;  // hail: drop iterations 10x slower or faster than the median
  // What the recommendation rests on: `run` launches every variant in its own processes, so
  // control and test never share an instance (instance-based), and `compare`'s verdict (its
  // statistic, interval and threshold: mds.verdict) decides.
  stats::Selection selection = stats::Selection::kInstance;
  stats::Decision decision = stats::Decision::kCompare;
  // Benchmarks `compare` will adjust together with Holm's method (mds.family); 0: as many as
  // are planned together.
  std::size_t family = 0;
  // grid, slowdowns, experiments, resamples, seed, the verdict's options (power, target and
  // family: from above)
  stats::MdsOptions mds;
};

// What the cleaning did to one benchmark's data.
struct Cleaning {
  int instances_ok = 0;
  int instances_failed = 0;
  std::size_t iterations_failed = 0;   // failed or timed out, dropped
  std::size_t configured_burn_in = 0;  // flagged burn-in per instance
  std::size_t detected_burn_in = 0;    // found by steady-state detection on top of it
  std::size_t outliers = 0;            // dropped by the median-ratio rule
  std::size_t instances = 0;           // left for the simulation
  std::size_t min_iterations = 0;      // per instance, left
  std::size_t max_iterations = 0;
  std::optional<stats::SteadyStateSummary> steady;
};

struct Recommendation {
  bool found = false;  // some configuration qualifies
  // The one-sided lower confidence bound (mds.bound_confidence) of its detection rate at the
  // target reaches the power.
  bool meets_target = false;
  stats::Configuration config;
  double mds = 0;
  double false_positive_rate = 0;
  double detection_at_target = 0;
  double detection_lower = 0;  // that lower bound
  std::size_t experiments = 0;
  bool fresh_draws = false;  // its experiments drew instances with replacement
  double seconds = 0;        // expected time per variant: instances x (burn-in + iterations) x mean
  std::string note;          // why nothing qualified, or why the target is out of reach
};

struct BenchmarkPlan {
  std::string benchmark;
  MetricInfo metric;
  std::vector<std::string> variants;  // pooled: an A/A run's variants measure the same thing
  Cleaning cleaning;
  std::size_t burn_in = 0;  // per instance: configured + detected
  double mean = 0;          // of the cleaned iterations
  double cv = 0;            // total, over the cleaned iterations (hail's `variability.total`)
  bool viable = false;
  std::string not_viable;  // why, with the numbers needed
  // To simulate the whole grid with the recommended selection: instances to run per variant,
  // and iterations per instance (burn-in included).
  std::size_t need_instances = 0;
  std::size_t need_iterations = 0;
  std::vector<stats::ConfigResult> grid;
  Recommendation recommendation;
  std::vector<std::string> warnings;
};

// Expected time of one variant measured with `config`.
double expected_seconds(const stats::Configuration& config, std::size_t burn_in, double mean);

// The highest false-positive rate a configuration may show: alpha plus the allowance.
double fpr_limit(const PlanOptions& options);

// The recommendation from a simulated grid (see PlanOptions).
Recommendation recommend(std::span<const stats::ConfigResult> grid, std::size_t burn_in,
                         double mean, const PlanOptions& options);

// Plans every benchmark of `variants`; several variants of one benchmark are pooled. Benchmarks
// are simulated in parallel, each with the seed derive_seed(options.mds.seed, hash of its
// name), so a benchmark's numbers do not depend on the others.
std::vector<BenchmarkPlan> plan_benchmarks(std::span<const VariantData* const> variants,
                                           const PlanOptions& options);

// The plan file's content: per benchmark burn_in, instances, iterations, mean, cv, mds, fpr
// (counts null when no configuration qualified).
Plan to_plan(std::span<const BenchmarkPlan> plans);

}  // namespace benchguard::analysis
