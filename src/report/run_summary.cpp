#include "report/run_summary.hpp"

#include <algorithm>
#include <optional>

#include "analysis/samples.hpp"
#include "core/iterations.hpp"
#include "core/units.hpp"
#include "stats/descriptive.hpp"

namespace benchguard::report {

double instance_peak_memory(const InstanceRecord& inst) {
  // ru_maxrss carries the launcher's own high-water mark across exec (docs/measurement.md),
  // so the sampled tree peak is the better figure whenever the sampler saw the instance.
  if (inst.mem_samples > 0) return static_cast<double>(inst.mem_peak_bytes);
  return static_cast<double>(std::max(inst.mem_peak_bytes, inst.max_rss_bytes));
}

std::vector<VariantSummary> summarize_run(const RunData& run, const std::string& metric) {
  std::vector<VariantSummary> out;
  for (const auto& v : run.variants) {
    VariantSummary s;
    s.benchmark = v.variant.benchmark;
    s.variant = v.variant.name;
    s.metric = !metric.empty()                      ? metric
               : analysis::counted_by_simulation(v) ? "instructions"
                                                    : "wall_time";
    const MetricInfo* info = find_builtin_metric(s.metric);
    s.unit = info != nullptr ? info->unit : "";
    std::vector<double> all;
    for (const auto& inst : v.instances) {
      (inst.ok() ? s.instances_ok : s.instances_failed)++;
      s.peak_memory = std::max(s.peak_memory, instance_peak_memory(inst));
      const IterationsView its(inst);
      for (std::size_t k = 0; k < its.size(); ++k) s.burn_in += its.burn_in(k) ? 1 : 0;
    }
    // What `show` reports is what was measured: flagged burn-in out, nothing detected on top.
    analysis::BurnInPolicy configured;
    configured.mode = analysis::BurnInPolicy::Mode::kConfigured;
    const auto sample = analysis::extract(v, s.metric, configured);
    all.assign(sample.data.values().begin(), sample.data.values().end());
    s.iterations = static_cast<int>(all.size());
    if (!all.empty()) {
      s.mean = stats::mean(all);
      s.median = stats::median(all);
      s.min = stats::min(all);
      s.max = stats::max(all);
      if (all.size() > 1) {
        s.stdev = stats::stdev(all);
        s.cv = stats::cv(all);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

Table summary_records_table(const RunData& run) {
  Table t;
  t.header = {"benchmark", "variant", "metric", "count", "mean", "stddev", "median", "min", "max"};
  t.right = {false, false, false, true, true, true, true, true, true};
  for (const auto& v : run.variants)
    for (const auto& s : v.summaries) {
      const std::string unit = analysis::metric_info(v, s.metric).unit;
      const auto value = [&](std::optional<double> x) -> std::string {
        return x ? format_value(*x, unit) : "-";
      };
      t.add_row({v.variant.benchmark, v.variant.name, s.metric,
                 s.count > 0 ? std::to_string(s.count) : "?", value(s.mean), value(s.stddev),
                 value(s.median), value(s.min), value(s.max)});
    }
  return t;
}

nlohmann::json summary_records_json(const VariantData& variant) {
  using nlohmann::json;
  const auto value = [](std::optional<double> x) { return x ? json(*x) : json(nullptr); };
  json all = json::array();
  for (const auto& s : variant.summaries)
    all.push_back({{"metric", s.metric},
                   {"unit", analysis::metric_info(variant, s.metric).unit},
                   {"count", s.count > 0 ? json(s.count) : json(nullptr)},
                   {"mean", s.mean},
                   {"stddev", value(s.stddev)},
                   {"median", value(s.median)},
                   {"min", value(s.min)},
                   {"max", value(s.max)}});
  return all;
}

}  // namespace benchguard::report
