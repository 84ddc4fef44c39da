#include "report/html/site_series.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>
#include <utility>

#include "analysis/detection.hpp"
#include "core/json_error.hpp"
#include "report/html/page.hpp"
#include "report/html/site_keys.hpp"
#include "report/html/site_reuse.hpp"

namespace benchguard::report::html {
namespace {

std::vector<Group> group_series(const analysis::History& history) {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> at;
  std::vector<Group> groups;
  for (std::size_t i = 0; i < history.series.size(); ++i) {
    const auto& s = history.series[i];
    auto [it, fresh] = at.try_emplace({s.benchmark, s.variant, s.machine}, groups.size());
    if (fresh) groups.push_back({s.benchmark, s.variant, s.machine, {}});
    groups[it->second].series.push_back(i);
  }
  return groups;
}

std::string group_title(const Group& g) {
  return g.variant == "default" ? g.benchmark : fmt::format("{} [{}]", g.benchmark, g.variant);
}

}  // namespace

std::string group_page(std::size_t g) {
  return fmt::format("benchmark-{}.html", g);
}

Detected detect_and_group(const SeriesContext& ctx, const analysis::History& history) {
  const analysis::Detection found = analysis::detect_history(
      history, ctx.options.detect, ctx.states, ctx.stored, ctx.now, ctx.acks);
  Detected out{analysis::with_acks(found.changes, ctx.acks), group_series(history)};
  const auto& order = ctx.options.history.metrics;
  auto rank = [&](std::size_t s) {
    const auto it = std::find(order.begin(), order.end(), history.series[s].metric.name);
    return it - order.begin();
  };
  for (auto& g : out.groups)
    std::stable_sort(g.series.begin(), g.series.end(),
                     [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  return out;
}

std::vector<std::vector<const analysis::ChangeRow*>> rows_by_series(
    const analysis::History& history, const std::vector<analysis::ChangeRow>& rows) {
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < history.series.size(); ++i) at.emplace(history.series[i].key(), i);
  std::vector<std::vector<const analysis::ChangeRow*>> out(history.series.size());
  for (const auto& row : rows)
    if (const auto it = at.find(row.change.series_key); it != at.end())
      out[it->second].push_back(&row);
  return out;
}

SiteState::Series series_entry(const SeriesContext& ctx, const analysis::History& history,
                               std::size_t i, const std::vector<const analysis::ChangeRow*>& rows,
                               std::size_t group, const CommitTable& commits) {
  const auto& s = history.series[i];
  SiteState::Series out;
  out.key = s.key();
  out.benchmark = s.benchmark;
  out.group = group;
  if (const auto it = ctx.inputs.find(out.key); it != ctx.inputs.end()) out.inputs = it->second;
  const auto overview = overview_row(s, newest_change(rows), group, commits, ctx.options);
  if (!overview.is_null()) {
    out.overview = json_text(overview);
    out.severity = overview.at("severity").get<int>();
  }
  auto changes = nlohmann::json::array();
  for (const auto* row : rows) changes.push_back(regression_row(*row, s.metric.unit, group));
  out.changes = json_text(changes);
  return out;
}

void render_summaries(SeriesPages& out, const SiteOptions& options) {
  std::vector<std::pair<std::string_view, int>> overview;
  std::vector<std::string_view> changes;
  for (const auto& s : out.state.series) {
    overview.emplace_back(s.overview, s.severity);
    changes.push_back(s.changes);
  }
  out.overview = render_page({"overview", options.title, nullptr, false, true},
                             json_text_for_html(overview_text(overview, out.warnings)));
  out.regressions = render_page({"regressions", "Regressions", nullptr, false, true},
                                json_text_for_html(regressions_text(changes)));
}

bool render_group(const SeriesContext& ctx, const analysis::History& history,
                  const std::vector<analysis::ChangeRow>& rows, const CommitTable& commits,
                  std::size_t number, const Group& grp, SeriesPages& out) {
  std::vector<const analysis::HistorySeries*> series;
  for (std::size_t s : grp.series) series.push_back(&history.series[s]);
  const std::string title = group_title(grp);
  std::string& key = out.group_keys[number];
  if (ctx.page_base)
    key = group_key(*ctx.page_base, number, title, series, rows, commits, ctx.run_hash);
  if (auto kept = previous_page(ctx.previous, group_page(number), key)) {
    out.groups[number] = std::move(*kept);
    return true;
  }
  out.groups[number] = {group_page(number),
                        render_page({"benchmark", title,
                                     benchmark_data(grp.benchmark, grp.variant, grp.machine, series,
                                                    rows, commits, ctx.options),
                                     true, true})};
  return false;
}

SeriesPages every_series(const SeriesContext& ctx, analysis::History history) {
  SeriesPages out;
  const Detected found = detect_and_group(ctx, history);
  const auto& rows = found.rows;
  const auto& groups = found.groups;
  std::vector<std::size_t> group_of(history.series.size());
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t s : groups[g].series) group_of[s] = g;
  out.commits = commit_table(history);
  out.warnings = history.warnings;
  out.state.groups = groups.size();
  // The overview and the regressions page are made while the benchmark pages are: each reads
  // the whole history, and alone they would leave a core idle.
  tbb::task_group summaries;
  summaries.run([&] {
    const auto by_series = rows_by_series(history, rows);
    for (std::size_t i = 0; i < history.series.size(); ++i)
      out.state.series.push_back(
          series_entry(ctx, history, i, by_series[i], group_of[i], out.commits));
    render_summaries(out, ctx.options);
  });
  // Benchmark pages: each from the history alone, rendered in parallel, kept in order; a page
  // whose key is unchanged is read back from the previous build.
  out.groups.resize(groups.size());
  out.group_keys.resize(groups.size());
  std::vector<char> kept(groups.size(), 0);
  tbb::parallel_for(std::size_t{0}, groups.size(), [&](std::size_t g) {
    kept[g] = render_group(ctx, history, rows, out.commits, g, groups[g], out) ? 1 : 0;
  });
  summaries.wait();
  out.reused = static_cast<std::size_t>(std::count(kept.begin(), kept.end(), 1));
  out.history = std::move(history);
  return out;
}

}  // namespace benchguard::report::html
