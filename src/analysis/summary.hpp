// What `summary` reports per benchmark, variant and metric: counts, central values with
// intervals, variability between and within instances, steady state, outliers and the
// warnings a careful engineer would want.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "analysis/duet.hpp"
#include "analysis/samples.hpp"
#include "stats/bootstrap.hpp"

namespace benchguard::analysis {

struct SummaryOptions {
  BurnInPolicy burn_in;
  int resamples = 10000;
  double confidence = 0.95;
  uint64_t seed = 0;
  // Warning thresholds.
  double max_cv = 0.10;
  int min_instances = 5;
  double slow_first_factor = 1.10;
};

// How median_ci was computed (docs/statistics.md, "The median interval").
enum class MedianCiMethod {
  kBootstrap,        // hierarchical bootstrap of the pooled median: instances of several iterations
  kOrderStatistics,  // order statistics of the values: one iteration per instance
};
const char* to_string(MedianCiMethod method);  // "bootstrap", "order statistics"

struct VariantSummary {
  MetricSample sample;
  std::size_t iterations = 0;  // measured, after burn-in
  double mean = 0, median = 0, stdev = 0, min = 0, max = 0;
  stats::Estimate mean_ci;  // hierarchical bootstrap
  // The interval for the median (of the population of iterations, which `median` estimates).
  // With order statistics the tail and expansion fields do not apply.
  stats::Estimate median_ci;
  MedianCiMethod median_ci_method = MedianCiMethod::kBootstrap;
  // Order statistics: the achieved coverage (binomial). Bootstrap: NaN.
  double median_ci_coverage = std::numeric_limits<double>::quiet_NaN();
  double cv = 0;                                    // over all measured iterations
  double cv_within = 0;                             // pooled within-instance CV
  double cv_instance_mean = 0, cv_instance_sd = 0;  // Hail's per-instance variability
  double cv_between = 0;                            // CV of the instance means
  std::size_t outliers_ratio = 0;
  std::size_t outliers_z = 0;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  // how the figures were computed, when not the usual way
};

VariantSummary summarize_variant(const VariantData& v, const std::string& metric,
                                 const SummaryOptions& options);

// What `summary` reports of a run: a row per variant and metric, and per benchmark run as
// concurrent A/B pairs what the CPU sets and the start order did.
struct RunSummary {
  std::vector<VariantSummary> rows;
  std::vector<DuetBalance> balances;
  std::size_t summary_only = 0;  // variants that hold summary records and no measurements
};

// `metrics` empty: wall_time (the simulated counts of a variant counted under Valgrind), or
// every metric of each variant when `every_metric`; {"all"}:
// every metric; otherwise these.
RunSummary summarize_run(const RunData& run, const std::vector<std::string>& metrics,
                         bool every_metric, const SummaryOptions& options);

}  // namespace benchguard::analysis
