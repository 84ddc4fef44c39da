#include "report/html/site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "analysis/gate.hpp"
#include "core/embedded.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site_data.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

// The series of one benchmark variant on one machine class: one page, a chart per metric.
struct Group {
  std::string benchmark, variant, machine;
  std::vector<std::size_t> series;  // into History::series
};

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

std::string group_page(std::size_t g) {
  return fmt::format("benchmark-{}.html", g);
}

bool all_metrics(const SiteOptions& options) {
  return options.history.metrics.size() == 1 && options.history.metrics.front() == "all";
}

// --metric all: the metrics the newest history run measured, wall_time first.
Result<std::vector<std::string>> newest_metrics(store::Store& store,
                                                const std::vector<store::RunSummary>& runs) {
  std::vector<std::string> names;
  for (const auto& r : runs) {
    if (!analysis::is_history_run(r.status, r.labels)) continue;
    BG_ASSIGN(const RunData run, store.load_run(std::to_string(r.id), {.columns = true}));
    for (const auto& v : run.variants)
      for (const auto& m : analysis::metrics_of(v))
        if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
    break;
  }
  const auto wall = std::find(names.begin(), names.end(), "wall_time");
  if (wall != names.end()) std::rotate(names.begin(), wall, wall + 1);
  return names;
}

}  // namespace

std::string primary_metric(const SiteOptions& options) {
  return options.history.metrics.empty() || all_metrics(options) ? "wall_time"
                                                                 : options.history.metrics.front();
}

const SiteFile* Site::find(const std::string& path) const {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

bool dashboard_available() {
  return !dashboard_asset_files().empty();
}

Result<Site> build_site(store::Store& store, const SiteOptions& asked, int64_t now) {
  if (!dashboard_available())
    return Error{
        "this benchguard was built without the dashboard (configured with "
        "-DBENCHGUARD_DASHBOARD=OFF, or without npm): rebuild it with npm installed"};
  BG_ASSIGN(const auto runs, store.list_runs());
  SiteOptions options = asked;
  // The dashboard charts wall time unless asked for more (history's own default is every
  // metric a series has).
  if (options.history.metrics.empty()) options.history.metrics = {"wall_time"};
  if (all_metrics(options)) {
    BG_ASSIGN(options.history.metrics, newest_metrics(store, runs));
  }
  BG_ASSIGN(const analysis::History history,
            options.open_reader ? analysis::load_history(options.open_reader, options.history, runs)
                                : analysis::load_history(store, options.history, runs));
  BG_ASSIGN(const auto states, store.load_series_states());
  BG_ASSIGN(const auto stored, store.load_changes());
  BG_ASSIGN(const auto acks, store.load_acks());
  const analysis::Detection found =
      analysis::detect_history(history, options.detect, states, stored, now);
  const auto rows = analysis::with_acks(found.changes, acks);

  Site site;
  site.warnings = history.warnings;
  auto groups = group_series(history);
  // Charts in the order the metrics were asked for (wall_time first with all).
  const auto& order = options.history.metrics;
  auto rank = [&](std::size_t s) {
    const auto it = std::find(order.begin(), order.end(), history.series[s].metric.name);
    return it - order.begin();
  };
  for (auto& g : groups)
    std::stable_sort(g.series.begin(), g.series.end(),
                     [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  std::map<std::string, std::size_t> group_of;  // series key -> group
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t s : groups[g].series) group_of[history.series[s].key()] = g;

  // Run pages: the newest runs (list_runs is newest first), or every run.
  std::vector<int64_t> paged;
  for (const auto& r : runs)
    if (options.all_run_pages || paged.size() < options.run_pages) paged.push_back(r.id);

  const CommitTable commits = commit_table(history);
  std::vector<int64_t> planned;  // runs with a plan page
  if (!options.plan_run.empty()) {
    BG_ASSIGN(const RunData run, store.load_run(options.plan_run, {.columns = true}));
    BG_ASSIGN(auto page, render_plan_page(store, std::to_string(run.id), options));
    site.files.push_back({fmt::format("plan-{}.html", run.id), std::move(page)});
    planned.push_back(run.id);
  }
  site.files.push_back(
      {"data/commits.js", commits_script(commits, paged, planned, options.all_run_pages)});

  site.files.push_back(
      {"index.html",
       render_page({"overview", options.title,
                    overview_data(history, rows, group_of, commits, options), false, true})});
  site.files.push_back(
      {"regressions.html", render_page({"regressions", "Regressions",
                                        regressions_data(history, rows, group_of), false, true})});
  site.files.push_back(
      {"runs.html",
       render_page({"runs", "Runs", runs_data(runs, paged, options.all_run_pages), false, false})});
  BG_ASSIGN(auto compare, render_compare_page(store, runs, options));
  site.files.push_back({"compare.html", std::move(compare)});
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& grp = groups[g];
    std::vector<const analysis::HistorySeries*> series;
    for (std::size_t s : grp.series) series.push_back(&history.series[s]);
    const std::string title = grp.variant == "default"
                                  ? grp.benchmark
                                  : fmt::format("{} [{}]", grp.benchmark, grp.variant);
    site.files.push_back(
        {group_page(g), render_page({"benchmark", title,
                                     benchmark_data(grp.benchmark, grp.variant, grp.machine, series,
                                                    rows, commits, options),
                                     true, true})});
  }
  if (!options.all_run_pages)
    for (int64_t id : paged) {
      BG_ASSIGN(auto page, render_run_page(store, std::to_string(id), options));
      site.files.push_back({fmt::format("run-{}.html", id), std::move(page)});
    }
  for (const auto& f : dashboard_asset_files())
    site.files.push_back({"assets/" + std::string(f.name), std::string(f.content)});
  return site;
}

Status write_site(const Site& site, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& f : site.files) {
    const fs::path path = fs::path(dir) / f.path;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
      return Error{fmt::format("cannot create {}: {}", path.parent_path().string(), ec.message())};
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(f.content.data(), static_cast<std::streamsize>(f.content.size()));
    out.close();
    if (!out) return Error{fmt::format("cannot write {}", path.string())};
  }
  return ok_status();
}

}  // namespace benchguard::report::html
