#include "analysis/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "core/suite.hpp"
#include "stats/descriptive.hpp"
#include "stats/null_calibration.hpp"
#include "stats/resample.hpp"

namespace benchguard::analysis {

NullSides null_sides(const RunData& run) {
  NullSides sides{{"A", {}}, {"A again", {}}};
  for (const auto& v : run.variants) {
    const std::string twin = null_variant_again(v.variant.name);
    for (const auto& w : run.variants)
      if (w.variant.benchmark == v.variant.benchmark && w.variant.name == twin) {
        sides.a.variants.push_back(&v);
        sides.b.variants.push_back(&w);
        break;
      }
  }
  return sides;
}

Calibration calibrate_runs(std::span<const RunData> runs, const CompareOptions& options) {
  CompareOptions opts = options;
  opts.calibration = nullptr;
  struct Tally {
    std::vector<double> ratios;
    std::size_t slower = 0, faster = 0;
    std::size_t instances = std::numeric_limits<std::size_t>::max();
    stats::Hierarchical sides;  // one group a side and repetition: its instance means
  };
  std::vector<std::pair<std::string, std::string>> order;  // (benchmark, metric) first seen
  std::map<std::pair<std::string, std::string>, Tally> tallies;

  Calibration c;
  c.statistic = stats::to_string(opts.verdict.statistic);
  c.confidence = opts.verdict.confidence;
  c.threshold = opts.verdict.threshold;
  c.alpha = 1.0 - opts.verdict.confidence;
  c.burn_in = to_string(opts.burn_in);
  c.resamples = static_cast<std::size_t>(opts.verdict.resamples);
  c.seed = std::to_string(opts.verdict.seed);
  for (const auto& run : runs) {
    if (c.suite.empty()) {
      c.suite = run.run.suite;
      c.host = run.run.hostname;
    }
    c.runs.push_back(run.run.uuid);
    const NullSides sides = null_sides(run);
    if (sides.a.variants.empty()) continue;
    if (c.variant.empty()) c.variant = sides.a.variants.front()->variant.name;
    const CompareReport report = compare_sides(sides.a, sides.b, opts);
    ++c.repetitions;
    if (report.any(stats::Verdict::kSlower) || report.any(stats::Verdict::kFaster))
      ++c.repetitions_with_alarm;
    for (const auto& m : report.metrics)
      for (const auto& row : m.rows) {
        const auto key = std::make_pair(row.benchmark, m.metric.name);
        auto [it, added] = tallies.try_emplace(key);
        if (added) order.push_back(key);
        Tally& t = it->second;
        t.ratios.push_back(row.result.ratio.value);
        if (row.result.verdict == stats::Verdict::kSlower) ++t.slower;
        if (row.result.verdict == stats::Verdict::kFaster) ++t.faster;
        t.instances = std::min({t.instances, row.a.data.instances(), row.b.data.instances()});
        // Each side without its spikes: a launch gone wrong would stand for the whole spread.
        for (const auto* side : {&row.a.data, &row.b.data}) {
          const stats::Hierarchical clean = stats::without_spikes(*side);
          if (clean.instances() >= 2) t.sides.add_instance(stats::instance_means(clean));
        }
      }
  }
  const stats::Interval family =
      stats::binomial_interval(c.repetitions_with_alarm, c.repetitions, c.confidence);
  c.family_rate_lower = family.lower;
  c.family_rate_upper = family.upper;

  for (const auto& key : order) {
    const Tally& t = tallies.at(key);
    CalibrationEntry e;
    e.benchmark = key.first;
    e.metric = key.second;
    std::size_t finite = 0;
    e.max_change = 0;
    for (const double r : t.ratios)
      if (std::isfinite(r)) {
        ++finite;
        e.max_change = std::max(e.max_change, std::abs(r - 1.0));
      }
    e.comparisons = finite;
    e.slower = t.slower;
    e.faster = t.faster;
    const std::size_t alarms = t.slower + t.faster;
    e.rate = finite > 0 ? static_cast<double>(alarms) / static_cast<double>(finite) : std::nan("");
    const stats::Interval ci = stats::binomial_interval(alarms, finite, c.confidence);
    e.rate_lower = ci.lower;
    e.rate_upper = ci.upper;
    const stats::NullThreshold nt = stats::null_threshold(t.ratios, c.alpha);
    e.threshold = nt.threshold;
    e.bound = nt.bound;
    e.reached = nt.reached;
    e.instances = t.instances == std::numeric_limits<std::size_t>::max() ? 0 : t.instances;
    e.spread = stats::pooled_cv(t.sides);
    c.entries.push_back(std::move(e));
  }
  return c;
}

void add_fixed_layout(Calibration& c, std::span<const RunData> fixed,
                      const CompareOptions& options) {
  c.layout = "randomized";
  const Calibration f = calibrate_runs(fixed, options);
  for (auto& e : c.entries) {
    const CalibrationEntry* same = f.find(e.benchmark, e.metric);
    if (same == nullptr) continue;
    e.fixed_comparisons = same->comparisons;
    e.fixed_alarms = same->slower + same->faster;
    e.spread_fixed = same->spread;
    e.layout_share = stats::variance_share(same->spread, e.spread);
  }
}

}  // namespace benchguard::analysis
