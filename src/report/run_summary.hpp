// Per benchmark and variant of one run: counts and descriptive statistics of a metric,
// burn-in iterations and failed iterations left out. What `show` and `run` print.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "report/table.hpp"

namespace benchguard::report {

struct VariantSummary {
  std::string benchmark;
  std::string variant;
  std::string metric;
  std::string unit;
  int instances_ok = 0;
  int instances_failed = 0;
  int iterations = 0;  // measured: not burn-in, not failed
  int burn_in = 0;
  double mean = 0, median = 0, min = 0, max = 0, stdev = 0, cv = 0;
  double peak_memory = 0;  // bytes, the largest over instances (tree sample or max RSS)
};

// The instance's peak memory: the sampled process-tree peak when there are samples, else
// the largest of what was seen (an upper bound for instances shorter than a sample interval).
double instance_peak_memory(const InstanceRecord& inst);

// `metric` empty: each variant's headline, its wall time or, for a variant counted under
// Valgrind, its instructions (its time is the simulator's).
std::vector<VariantSummary> summarize_run(const RunData& run, const std::string& metric = "");

// The summary records of a run (statistics a source kept without its measurements), one row
// per variant and metric: benchmark, variant, metric, count ("?" when unknown), mean,
// stddev, median, min, max ("-" when not given), for people (machine formats have the JSON).
// Units come from the variant's metrics, else the built-in ones.
Table summary_records_table(const RunData& run);
// The same as JSON objects (null where not given).
nlohmann::json summary_records_json(const VariantData& variant);

}  // namespace benchguard::report
