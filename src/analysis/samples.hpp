// From stored records to the samples statistics work on: one metric of one benchmark
// variant, instances x iterations, with failed iterations and burn-in left out.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "stats/hierarchical.hpp"
#include "stats/steady_state.hpp"

namespace benchguard::analysis {

struct BurnInPolicy {
  enum class Mode {
    kConfigured,  // leave out the iterations flagged burn-in (by the suite or the benchmark)
    kAuto,        // those, then whatever steady-state detection finds on top of them (the
                  // only mode that runs the detection)
    kFixed,       // the first `fixed` iterations of each instance, flags ignored
  };
  Mode mode = Mode::kAuto;
  std::size_t fixed = 0;
};

// As --burn-in spells it: auto, configured or the count.
std::string to_string(const BurnInPolicy& policy);

// Steady-state detection needs a series long enough to find a final segment in.
inline constexpr std::size_t kMinSeriesForDetection = 10;

struct MetricSample {
  std::string benchmark;
  std::string variant;
  MetricInfo metric;
  int instances_ok = 0;
  int instances_failed = 0;
  // Per successful instance with values, the metric's values in order, failed iterations and
  // configured burn-in left out: what steady-state detection looks at.
  stats::Hierarchical series;
  // Successful instances whose value is only an upper bound, benchguard's own size at launch
  // (core/model.hpp at_launch_floor), left out of series and data; the largest such floor.
  std::size_t instances_at_floor = 0;
  int64_t launch_floor_bytes = 0;
  std::size_t configured_burn_in = 0;  // iterations flagged burn-in, over all instances
  std::size_t detected_burn_in = 0;    // further leading iterations left out per instance
  std::optional<stats::BenchmarkSteadyState> steady;  // when the series were long enough
  stats::Hierarchical data;                           // what the statistics use
  std::vector<std::string> warnings;
};

// The metric's description: the built-in one, or a custom metric (lower is better).
MetricInfo metric_info(const std::string& name);
// As the store describes it for this variant (an imported rate is higher-is-better), else as
// metric_info(name).
MetricInfo metric_info(const VariantData& v, const std::string& name);

// Names of the metrics the variant's measured iterations carry, wall_time first; then, for a
// benchmark that reports its own iterations, what was measured of its instances (max_rss,
// peak_memory, avg_memory, and instructions, cycles and the other counts when counted)
// unless it reports those itself.
std::vector<std::string> metrics_of(const VariantData& v);

// Why a metric may have no values at all, for the message that says so: for the hardware
// counters' metrics, the counters this machine refused (or --no-counters) and the Valgrind
// channel; for the simulated caches', `--measure caches`; "" for the others.
std::string unmeasured_hint(const std::string& metric);

// True when the variant's instances counted instructions under Valgrind (its
// configuration records `measure: [instructions]` or `[caches]`): counts that do not vary
// between runs (is_simulated_metric).
bool counted_by_simulation(const VariantData& v);

// The settings of its configuration that change what a measurement means (instances,
// iterations, burn_in, warmup, measure, layout), as "key=value" words in that order: runs whose
// settings differ are not one series without saying so (docs/dashboard.md). "" when its
// configuration records none of them (imported runs, mostly).
inline constexpr const char* kSettingKeys[] = {"instances", "iterations", "burn_in",
                                               "warmup",    "measure",    "layout"};
std::string settings_of(const VariantData& v);

// The memory layout its instances ran with (BenchmarkSpec::layout, from its configuration):
// "native" when it records none, else "randomized" or "fixed".
std::string layout_of(const VariantData& v);

// True when extract() takes `metric` from the instances, one value each, rather than from
// their iterations: the memory or counts of a benchmark that reports iterations without them.
bool from_instances(const VariantData& v, const std::string& metric);

MetricSample extract(const VariantData& v, const std::string& metric, const BurnInPolicy& policy);

// One burn-in for both sides of a comparison: when steady-state detection left out a different
// number of leading iterations of A than of B, both leave out the larger (at most half of the
// shortest instance of either side), so that A and B are compared over the same iterations of
// their instances and a warm-up that B alone has is not cut from B alone. Returns a note saying
// so when it changed anything, "" otherwise.
std::string share_burn_in(MetricSample& a, MetricSample& b);

}  // namespace benchguard::analysis
