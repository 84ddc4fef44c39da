// The compare page: the newest run against a baseline as `compare` tables it, and a heat map of
// the probability that each benchmark got slower than the baseline by more than the threshold,
// one column per recent run (the baseline: the run before the newest `compare_runs`).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "analysis/compare.hpp"
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

}  // namespace

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
  std::vector<RunData> picked;  // newest first
  for (const auto* r : compare_page_runs(runs, options)) {
    BG_ASSIGN(RunData data, store.load_run(std::to_string(r->id), {.columns = true}));
    picked.push_back(std::move(data));
  }
  json data = {{"metric", metric},
               {"threshold", options.threshold},
               {"columns", json::array()},
               {"rows", json::array()},
               {"table", nullptr}};
  if (picked.size() < 2) return render_page({"compare", "Compare", data, false, true});
  std::reverse(picked.begin(), picked.end());  // oldest first: the baseline, then the columns
  const RunData& base = picked.front();
  data["baseline"] = run_json(base);
  for (std::size_t c = 1; c < picked.size(); ++c) data["columns"].push_back(run_json(picked[c]));

  // The A/B table: the baseline against the newest run, as `compare` has it.
  analysis::Side a{fmt::format("run {}", base.id), {}},
      b{fmt::format("run {}", picked.back().id), {}};
  for (const auto& v : base.variants) a.variants.push_back(&v);
  for (const auto& v : picked.back().variants) b.variants.push_back(&v);
  analysis::CompareOptions copts;
  copts.metrics = {metric};
  copts.burn_in = options.history.burn_in;
  copts.verdict.threshold = options.threshold;
  copts.verdict.seed = options.summary.seed;
  copts.verdict.resamples = options.summary.resamples;
  const auto report = analysis::compare_sides(a, b, copts);
  data["table"] = compare_json(report, a.label + " vs " + b.label,
                               stats::to_string(copts.verdict.statistic), copts.verdict.confidence);

  // The heat map: every benchmark variant of the baseline against each column.
  using Variants = std::map<std::pair<std::string_view, std::string_view>, const VariantData*>;
  const auto by_name = [](const RunData& run) {
    Variants out;
    for (const auto& v : run.variants) out[{v.variant.benchmark, v.variant.name}] = &v;
    return out;
  };
  std::vector<Variants> in_column;  // the last of a name, as a scan of the run would find
  in_column.reserve(picked.size());
  for (const auto& run : picked) in_column.push_back(by_name(run));
  const Variants& in_base = in_column.front();  // picked.front() is the baseline
  // Each cell's probability comes from the distribution the table's interval comes from: the
  // t distribution of the log ratio (no replicates drawn), or heat_resamples replicates.
  stats::VerdictOptions heat = copts.verdict;
  heat.resamples = options.heat_resamples;
  const stats::CiMethod interval = stats::interval_of(heat);
  const int resamples = stats::verdict_resamples(heat);
  data["heatFrom"] = interval == stats::CiMethod::kStudentT ? "t" : "bootstrap";
  std::uint64_t k = 0;
  for (const auto& [key, bv] : in_base) {
    const auto sa = analysis::extract(*bv, metric, options.history.burn_in);
    if (sa.data.empty()) continue;
    json cells = json::array();
    for (std::size_t c = 1; c < picked.size(); ++c) {
      const auto found = in_column[c].find(key);
      const VariantData* cv = found == in_column[c].end() ? nullptr : found->second;
      if (cv == nullptr) {
        cells.push_back(nullptr);
        continue;
      }
      const auto sb = analysis::extract(*cv, metric, options.history.burn_in);
      if (sb.data.empty()) {
        cells.push_back(nullptr);
        continue;
      }
      const auto rs = stats::ratio_sample(sa.data, sb.data, copts.verdict.statistic, resamples,
                                          stats::derive_seed(options.summary.seed, k++));
      const double p =
          stats::probability_beyond(rs, options.threshold, sa.metric.direction, interval);
      cells.push_back({{"p", json_number(p)}, {"ratio", json_number(rs.ratio)}});
    }
    data["rows"].push_back({{"benchmark", std::string(key.first)},
                            {"variant", std::string(key.second)},
                            {"cells", cells}});
  }
  return render_page({"compare", "Compare", data, false, true});
}

}  // namespace benchguard::report::html
