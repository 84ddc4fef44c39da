#include "report/run_summary.hpp"

#include <algorithm>

#include "analysis/samples.hpp"
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
    // What `show` reports is what was measured: flagged burn-in out, nothing detected on top.
    analysis::BurnInPolicy configured;
    configured.mode = analysis::BurnInPolicy::Mode::kConfigured;
    const auto sample = analysis::extract(v, metric, configured);
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

}  // namespace benchguard::report
