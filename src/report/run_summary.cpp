#include "report/run_summary.hpp"

#include <algorithm>

#include "stats/descriptive.hpp"

namespace benchguard::report {

std::vector<std::vector<double>> measured_values(const VariantData& v, const std::string& metric) {
  std::vector<std::vector<double>> out;
  for (const auto& inst : v.instances) {
    if (!inst.ok()) continue;
    std::vector<double> xs;
    for (const auto& it : inst.iterations) {
      if (it.burn_in || it.timed_out || !it.failure.empty()) continue;
      if (auto x = it.metric(metric)) xs.push_back(*x);
    }
    if (!xs.empty()) out.push_back(std::move(xs));
  }
  return out;
}

double instance_peak_memory(const InstanceRecord& inst) {
  // ru_maxrss carries the launcher's own high-water mark across exec (docs/measurement.md),
  // so the sampled tree peak is the better figure whenever the sampler saw the instance.
  if (inst.mem_samples > 0) return static_cast<double>(inst.mem_peak_bytes);
  return static_cast<double>(std::max(inst.mem_peak_bytes, inst.max_rss_bytes));
}

std::vector<VariantSummary> summarize_run(const RunData& run, const std::string& metric) {
  std::vector<VariantSummary> out;
  const MetricInfo* info = find_builtin_metric(metric);
  for (const auto& v : run.variants) {
    VariantSummary s;
    s.benchmark = v.variant.benchmark;
    s.variant = v.variant.name;
    s.metric = metric;
    s.unit = info != nullptr ? info->unit : "";
    std::vector<double> all;
    for (const auto& inst : v.instances) {
      (inst.ok() ? s.instances_ok : s.instances_failed)++;
      s.peak_memory = std::max(s.peak_memory, instance_peak_memory(inst));
      for (const auto& it : inst.iterations) s.burn_in += it.burn_in ? 1 : 0;
    }
    for (const auto& xs : measured_values(v, metric)) all.insert(all.end(), xs.begin(), xs.end());
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

}  // namespace benchguard::report
