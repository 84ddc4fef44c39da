#include "analysis/compare.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchguard::analysis {

bool CompareReport::any(stats::Verdict v) const {
  for (const auto& m : metrics)
    for (const auto& r : m.rows)
      if (r.result.verdict == v) return true;
  return false;
}

namespace {

const VariantData* find(const Side& s, const std::string& benchmark) {
  for (const auto* v : s.variants)
    if (v->variant.benchmark == benchmark) return v;
  return nullptr;
}

}  // namespace

CompareReport compare_sides(const Side& a, const Side& b, const CompareOptions& options) {
  CompareReport report;
  report.label_a = a.label;
  report.label_b = b.label;
  std::vector<std::pair<const VariantData*, const VariantData*>> pairs;
  for (const auto* va : a.variants) {
    if (const auto* vb = find(b, va->variant.benchmark))
      pairs.emplace_back(va, vb);
    else
      report.only_in_a.push_back(va->variant.benchmark);
  }
  for (const auto* vb : b.variants)
    if (find(a, vb->variant.benchmark) == nullptr)
      report.only_in_b.push_back(vb->variant.benchmark);

  for (const auto& metric : options.metrics) {
    MetricComparison mc;
    mc.metric = metric_info(metric);
    std::vector<stats::Hierarchical> da, db;
    for (const auto& [va, vb] : pairs) {
      BenchmarkComparison row;
      row.benchmark = va->variant.benchmark;
      row.metric = mc.metric;
      row.a = extract(*va, metric, options.burn_in);
      row.b = extract(*vb, metric, options.burn_in);
      if (row.a.data.empty() || row.b.data.empty()) {
        if (metric == options.metrics.front() || (!row.a.data.empty() || !row.b.data.empty()))
          report.warnings.push_back(fmt::format("{}: no {} measurements on {} side", row.benchmark,
                                                metric, row.a.data.empty() ? "the A" : "the B"));
        continue;
      }
      if (options.simulate_slowdown != 0)
        row.b.data = stats::scaled(row.b.data, 1 + options.simulate_slowdown);
      da.push_back(row.a.data);
      db.push_back(row.b.data);
      mc.rows.push_back(std::move(row));
    }
    if (mc.rows.empty()) continue;
    auto vo = options.verdict;
    vo.direction = mc.metric.direction;
    auto set = stats::compare_all(da, db, vo);
    for (size_t i = 0; i < mc.rows.size(); ++i) mc.rows[i].result = std::move(set.benchmarks[i]);
    if (mc.rows.size() > 1) mc.geomean = set.geomean;
    report.metrics.push_back(std::move(mc));
  }
  return report;
}

}  // namespace benchguard::analysis
