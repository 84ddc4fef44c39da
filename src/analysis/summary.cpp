#include "analysis/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/instance_table.hpp"
#include "stats/descriptive.hpp"
#include "stats/order_ci.hpp"
#include "stats/outliers.hpp"
#include "stats/rng.hpp"

namespace benchguard::analysis {

namespace {

void warn_slow_first(const std::vector<double>& means, double factor, VariantSummary& s) {
  if (means.size() < 3) return;
  std::vector<double> rest(means.begin() + 1, means.end());
  const double med = stats::median(rest);
  const double worst_rest =
      s.sample.metric.direction == Direction::kLowerIsBetter ? stats::max(rest) : stats::min(rest);
  const bool lower = s.sample.metric.direction == Direction::kLowerIsBetter;
  const bool slow = lower ? (means[0] > factor * med && means[0] > worst_rest)
                          : (means[0] * factor < med && means[0] < worst_rest);
  if (slow)
    s.warnings.push_back(fmt::format(
        "the first instance was clearly slower than the rest ({:.3g} vs median {:.3g}): caches "
        "filling? consider warmup instances",
        means[0], med));
}

// The median interval (docs/statistics.md, "The median interval"). Instances are the
// independent units. With one iteration each, the values are independent draws from the
// population whose median `median` estimates, and the order-statistic interval is exact for it
// at any count, without resampling. With several iterations each there is no such set of units
// for the pooled median: order statistics of the instance medians would be an interval for the
// median of the instance medians, a different quantity (when a fifth of the launches ran 1.3x
// slower, it covered the pooled median in 85% of simulated samples at 10 instances and 70% at
// 15), so the hierarchical bootstrap of the pooled median is kept.
void median_interval(const stats::Hierarchical& data, const SummaryOptions& options,
                     VariantSummary& s) {
  const std::size_t n = data.instances();
  if (data.size() != n) {
    stats::BootstrapOptions bo;
    bo.resamples = options.resamples;
    bo.confidence = options.confidence;
    bo.statistic = stats::Statistic::kMedian;
    bo.seed = stats::derive_seed(options.seed, 1);
    s.median_ci = stats::bootstrap(data, bo);
    s.median_ci_method = MedianCiMethod::kBootstrap;
    s.median_ci_coverage = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const auto oi = stats::median_interval(data.values(), options.confidence);
  s.median_ci = stats::Estimate{};
  s.median_ci.value = s.median;
  s.median_ci.ci = oi.ci;
  s.median_ci_method = MedianCiMethod::kOrderStatistics;
  s.median_ci_coverage = oi.coverage;
  if (!oi.reached)
    s.warnings.push_back(fmt::format(
        "no interval for the median from {} independent value(s) reaches {:.0f}% confidence: "
        "[min, max] covers it with probability {:.1f}%",
        n, 100 * options.confidence, 100 * oi.coverage));
}

}  // namespace

const char* to_string(MedianCiMethod method) {
  switch (method) {
    case MedianCiMethod::kBootstrap:
      return "bootstrap";
    case MedianCiMethod::kOrderStatistics:
      return "order statistics";
  }
  return "bootstrap";
}

VariantSummary summarize_variant(const VariantData& v, const std::string& metric,
                                 const SummaryOptions& options) {
  VariantSummary s;
  s.sample = extract(v, metric, options.burn_in);
  s.warnings = s.sample.warnings;
  const auto& data = s.sample.data;
  s.iterations = data.size();
  if (s.sample.instances_failed > 0)
    s.warnings.push_back(
        fmt::format("{} instance(s) failed and are left out", s.sample.instances_failed));
  if (data.empty()) {
    s.warnings.push_back("no measured iterations" + unmeasured_hint(metric));
    return s;
  }
  const auto values = data.values();
  s.mean = stats::mean(values);
  s.median = stats::median(values);
  s.min = stats::min(values);
  s.max = stats::max(values);
  if (values.size() > 1) {
    s.stdev = stats::stdev(values);
    s.cv = stats::cv(values);
  }
  s.cv_within = stats::pooled_cv(data);
  const auto var = stats::instance_variability(data);
  s.cv_instance_mean = var.mean_cv;
  s.cv_instance_sd = var.sd_cv;
  const auto means = stats::instance_means(data);
  if (means.size() > 1) s.cv_between = stats::cv(means);

  stats::BootstrapOptions bo;
  bo.resamples = options.resamples;
  bo.confidence = options.confidence;
  bo.seed = options.seed;
  s.mean_ci = stats::bootstrap(data, bo);
  median_interval(data, options, s);

  for (std::size_t i = 0; i < data.instances(); ++i) {
    const auto flags = stats::flag_outliers(data.instance(i));
    s.outliers_ratio += flags.ratio_count;
    s.outliers_z += flags.robust_z_count;
  }
  if (s.outliers_ratio + s.outliers_z > 0)
    s.warnings.push_back(fmt::format("{} outlier iteration(s) (flagged, not removed)",
                                     std::max(s.outliers_ratio, s.outliers_z)));
  const double total_cv = std::isfinite(s.cv) ? s.cv : 0;
  if (total_cv > options.max_cv)
    s.warnings.push_back(fmt::format("high variability: CV {:.1f}% (above {:.0f}%)", 100 * total_cv,
                                     100 * options.max_cv));
  if (static_cast<int>(data.instances()) < options.min_instances)
    s.warnings.push_back(fmt::format(
        "only {} instance(s): the interval cannot see variation between process launches well; "
        "use at least {}",
        data.instances(), options.min_instances));
  warn_slow_first(means, options.slow_first_factor, s);
  for (const auto& w : s.mean_ci.warnings) s.warnings.push_back(w);
  if (s.mean_ci.method != stats::ResampleMethod::kFull)
    s.notes.push_back(
        fmt::format("intervals from the large-sample bootstrap ({}; {} iterations in {} instances; "
                    "docs/statistics.md, \"Large samples\")",
                    stats::to_string(s.mean_ci.method), data.size(), data.instances()));
  return s;
}

RunSummary summarize_run(const RunData& run, const std::vector<std::string>& metrics,
                         bool every_metric, const SummaryOptions& options) {
  RunSummary out;
  const bool all = metrics.size() == 1 && metrics.front() == "all";
  for (const auto& v : run.variants) {
    const auto names = metrics.empty() || all ? metrics_of(v) : metrics;
    // By default each variant's headline: its wall time, or for one counted under Valgrind its
    // simulated counts (its time is the simulator's), as compare and history choose.
    const bool headline = metrics.empty() && !every_metric;
    const bool simulated = headline && counted_by_simulation(v) &&
                           std::any_of(names.begin(), names.end(),
                                       [](const std::string& m) { return is_simulated_metric(m); });
    for (const auto& m : names) {
      if (headline && (simulated ? !is_simulated_metric(m) : m != "wall_time")) continue;
      out.rows.push_back(summarize_variant(v, m, options));
    }
    if (instance_count(v) == 0 && !v.summaries.empty()) ++out.summary_only;
  }
  for (std::size_t i = 0; i < run.variants.size(); ++i)
    for (std::size_t j = i + 1; j < run.variants.size(); ++j) {
      const auto& a = run.variants[i];
      const auto& b = run.variants[j];
      if (a.variant.benchmark != b.variant.benchmark || !has_duet_pairs(a, b)) continue;
      out.balances.push_back(duet_balance(a, b, "wall_time", options.burn_in, options.confidence));
    }
  return out;
}

}  // namespace benchguard::analysis
