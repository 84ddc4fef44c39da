// The compare page: the newest run against a baseline as `compare` tables it (each benchmark
// variant against its namesake), and a heat map of the probability that each benchmark variant
// got slower than the baseline by more than the threshold, one column per recent run (the
// baseline: the run before the newest `compare_runs`); its newest column is the table's rows.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/samples.hpp"
#include "analysis/series_cache.hpp"
#include "report/compare.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site.hpp"
#include "stats/bootstrap.hpp"
#include "stats/rng.hpp"
#include "stats/verdict.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

json run_json(const RunData& r) {
  return {{"id", r.id},
          {"uuid", r.run.uuid},
          {"commit", r.run.git_commit},
          {"started", r.run.started_at / 1'000'000'000}};
}

// A run's values of the metric by benchmark variant: the last variant of a name, as a scan of
// the run finds it, when it has values.
struct Values {
  stats::Hierarchical data;
  Direction direction = Direction::kLowerIsBetter;
};
using Column = std::map<std::pair<std::string, std::string>, Values>;

Column column_of(const RunData& run, const std::string& metric,
                 const analysis::BurnInPolicy& burn_in) {
  Column out;
  for (const auto& v : run.variants) {
    const std::pair<std::string, std::string> key{v.variant.benchmark, v.variant.name};
    auto sample = analysis::extract(v, metric, burn_in);
    if (sample.data.empty()) {
      out.erase(key);
      continue;
    }
    out[key] = {std::move(sample.data), sample.metric.direction};
  }
  return out;
}

// The same from the run's series cache entry.
Column column_of(const analysis::RunSeries& run, const std::string& metric) {
  Column out;
  for (const auto& v : run.variants()) {
    const std::pair<std::string, std::string> key{v.benchmark, v.name};
    const auto* m = v.find(metric);
    if (m == nullptr) {
      out.erase(key);
      continue;
    }
    out[key] = {run.data(*m), m->info.direction};
  }
  return out;
}

}  // namespace

analysis::CompareOptions compare_options(const SiteOptions& options,
                                         std::vector<std::string> metrics) {
  analysis::CompareOptions copts;
  copts.metrics = std::move(metrics);
  copts.burn_in = options.history.burn_in;
  copts.verdict.threshold = options.threshold;
  copts.verdict.seed = options.summary.seed;
  copts.verdict.resamples = options.summary.resamples;
  return copts;
}

std::vector<const store::RunSummary*> compare_page_runs(const std::vector<store::RunSummary>& runs,
                                                        const SiteOptions& options) {
  std::vector<const store::RunSummary*> picked;
  for (const auto& r : runs) {
    if (picked.size() > options.compare_runs) break;
    if (analysis::is_history_run(r.status, r.labels)) picked.push_back(&r);
  }
  return picked;
}

Result<std::string> render_compare_page(store::Store& store,
                                        const std::vector<store::RunSummary>& runs,
                                        const SiteOptions& options) {
  const std::string metric = primary_metric(options);
  const analysis::BurnInPolicy& burn_in = options.history.burn_in;
  const auto listed = compare_page_runs(runs, options);  // newest first
  json data = {{"metric", metric},
               {"threshold", options.threshold},
               {"columns", json::array()},
               {"rows", json::array()},
               {"table", nullptr}};
  if (listed.size() < 2) return render_page({"compare", "Compare", data, false, true});
  // The baseline and the newest run whole, for the A/B table; the runs between from their
  // series cache entries where they have one (the values extract() gives, bit for bit), which
  // is all the heat map reads of them.
  const std::string cache_key = analysis::series_cache_key(burn_in);
  std::vector<Column> columns;  // oldest first: the baseline, then the columns
  std::vector<RunData> whole;   // the baseline, the newest
  for (std::size_t k = listed.size(); k-- > 0;) {
    const auto* r = listed[k];
    const bool ends = k == 0 || k + 1 == listed.size();
    if (!ends) {
      BG_ASSIGN(store::CachedRun cached,
                store.load_cached_run(r->id, cache_key, {.columns = true}));
      if (cached.cache) {
        auto series = analysis::RunSeries::decode(std::move(*cached.cache));
        if (series.ok()) {
          data["columns"].push_back(run_json(cached.data));
          columns.push_back(column_of(*series, metric));
          continue;
        }
      }
    }
    BG_ASSIGN(RunData run, store.load_run(std::to_string(r->id), {.columns = true}));
    if (k + 1 != listed.size()) data["columns"].push_back(run_json(run));
    columns.push_back(column_of(run, metric, burn_in));
    if (ends) whole.push_back(std::move(run));
  }
  const RunData& base = whole.front();
  const RunData& newest = whole.back();
  data["baseline"] = run_json(base);

  // The A/B table: the baseline against the newest run, as `compare BASE NEWEST` has it: each
  // benchmark variant against its namesake (or, when the runs share no variant name, the
  // first of each, which a note says).
  const analysis::RunSides sides = analysis::run_sides(base, newest, fmt::format("run {}", base.id),
                                                       fmt::format("run {}", newest.id));
  analysis::CompareOptions copts = compare_options(options, {metric});
  copts.by_variant = sides.by_variant;
  auto report = analysis::compare_sides(sides.a, sides.b, copts);
  report.warnings.insert(report.warnings.begin(), sides.notes.begin(), sides.notes.end());
  data["table"] = compare_json(report, sides.a.label + " vs " + sides.b.label,
                               stats::to_string(copts.verdict.statistic), copts.verdict.confidence);
  // The newest column of the heat map is the table's rows: their ratio, and the probability
  // read from the distribution of their interval; each under the baseline's variant it
  // compared.
  std::map<std::string_view, std::string_view> a_variant;  // by benchmark, without by_variant
  for (const auto* v : sides.a.variants)
    a_variant.try_emplace(v->variant.benchmark, v->variant.name);
  std::map<std::pair<std::string, std::string>, const analysis::BenchmarkComparison*> table_rows;
  for (const auto& m : report.metrics)
    for (const auto& row : m.rows)
      table_rows.try_emplace(
          {row.benchmark, sides.by_variant ? row.variant : std::string(a_variant[row.benchmark])},
          &row);

  // The heat map: every benchmark variant of the baseline against each column. Each cell's
  // probability comes from the distribution the table's interval comes from: the t
  // distribution of the log ratio (no replicates drawn), or heat_resamples replicates.
  stats::VerdictOptions heat = copts.verdict;
  heat.resamples = options.heat_resamples;
  const stats::CiMethod interval = stats::interval_of(heat);
  const int resamples = stats::verdict_resamples(heat);
  data["heatFrom"] = interval == stats::CiMethod::kStudentT ? "t" : "bootstrap";
  std::uint64_t k = 0;
  for (const auto& [key, sa] : columns.front()) {
    json cells = json::array();
    for (std::size_t c = 1; c < columns.size(); ++c) {
      if (c + 1 == columns.size()) {
        const auto row = table_rows.find(key);
        if (row == table_rows.end()) {
          cells.push_back(nullptr);
        } else {
          cells.push_back({{"p", json_number(row->second->p_worse)},
                           {"ratio", json_number(row->second->result.ratio.value)}});
        }
        continue;
      }
      const auto found = columns[c].find(key);
      if (found == columns[c].end()) {
        cells.push_back(nullptr);
        continue;
      }
      const Values& sb = found->second;
      const auto rs = stats::ratio_sample(sa.data, sb.data, copts.verdict.statistic, resamples,
                                          stats::derive_seed(options.summary.seed, k++));
      const double p = stats::probability_beyond(rs, options.threshold, sa.direction, interval);
      cells.push_back({{"p", json_number(p)}, {"ratio", json_number(rs.ratio)}});
    }
    data["rows"].push_back({{"benchmark", key.first}, {"variant", key.second}, {"cells", cells}});
  }
  return render_page({"compare", "Compare", data, false, true});
}

}  // namespace benchguard::report::html
