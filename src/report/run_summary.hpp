// Per benchmark and variant of one run: counts and descriptive statistics of a metric,
// burn-in iterations and failed iterations left out. What `show` and `run` print.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "report/document.hpp"
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
  // Bytes, the largest over instances whose peak is known; NaN when none is.
  double peak_memory = std::numeric_limits<double>::quiet_NaN();
  int memory_at_floor = 0;  // instances whose peak is only bounded by the launch floor
  double launch_floor = 0;  // bytes, the largest launch floor recorded
  // Where its instances' peak memory came from (InstanceRecord::mem_source): "" when none was
  // recorded, "mixed" when they differ.
  std::string memory_source;
};

// The note said once under a table some of whose peak memory is exact: where it came from.
// "" when no row's memory is the kernel's (`sources`: the rows' memory_source).
std::string memory_source_note(const std::vector<std::string>& sources);

// The instance's peak memory: the sampled process-tree peak when there are samples, else the
// largest of what was seen; nothing when that is at benchguard's launch floor (at_launch_floor
// in core/model.hpp: the same rule compare and summary follow).
std::optional<double> instance_peak_memory(const InstanceRecord& inst);

// The note said once under a table whose peak memory leaves out `at_floor` of `instances`.
std::string launch_floor_note(int at_floor, int instances, double floor_bytes);

// `metric` empty: each variant's headline, its wall time or, for a variant counted under
// Valgrind, its instructions (its time is the simulator's).
std::vector<VariantSummary> summarize_run(const RunData& run, const std::string& metric = "");

// The summary records of a run (statistics a source kept without its measurements), one row
// per variant and metric: benchmark, variant, metric, count ("?" when unknown), mean,
// stddev, median, min, max ("-" when not given), for people (machine formats have the JSON).
// Units come from the variant's metrics, else the built-in ones.
Table summary_records_table(const RunData& run);

// What `show` (and `run`, when it ends) prints of a run: a line of its facts, one row per
// benchmark and variant (records: numbers in the metric's unit, memory in bytes), the note on
// memory at the launch floor, the summary records; and the same as JSON.
Document run_document(const RunData& run);
// The same as JSON objects (null where not given).
nlohmann::json summary_records_json(const VariantData& variant);

}  // namespace benchguard::report
