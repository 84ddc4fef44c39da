// Building the dashboard (docs/dashboard.md): build_site reads the store, takes the whole site
// or single pages from the previous build where their keys say nothing changed, and makes the
// rest: the compare and run pages, and the series' pages from the whole history or following
// the previous build. The keys are site_keys.cpp, reuse site_reuse.cpp, grouping and detection
// site_series.cpp, the follow plan site_follow.cpp, writing the files site_write.cpp.
#include "report/html/site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <map>
#include <optional>
#include <utility>

#include "analysis/history_load.hpp"
#include "core/embedded.hpp"
#include "core/hash.hpp"
#include "report/html/page.hpp"
#include "report/html/site_data.hpp"
#include "report/html/site_follow.hpp"
#include "report/html/site_keys.hpp"
#include "report/html/site_reuse.hpp"
#include "report/html/site_series.hpp"
#include "report/html/site_state.hpp"

namespace benchguard::report::html {
namespace {

// The pages of the site that read runs of their own, not the history.
struct RunPages {
  SiteFile compare;
  std::vector<SiteFile> runs;
  std::map<std::string, std::string> keys;  // Site::keys
  std::size_t reused = 0;
};

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

Result<Site> build_site(store::Store& store, const SiteOptions& asked, int64_t now,
                        const PreviousSite* previous) {
  if (!dashboard_available())
    return Error{
        "this benchguard was built without the dashboard (configured with "
        "-DBENCHGUARD_DASHBOARD=OFF, or without npm): rebuild it with npm installed"};
  const bool beside = static_cast<bool>(asked.open_reader);
  BG_ASSIGN(const auto runs, store.list_runs());
  BG_ASSIGN(const auto stored, store.load_changes());
  BG_ASSIGN(const auto acks, store.load_acks());
  BG_ASSIGN(const auto states, store.load_series_states());
  // The whole site: taken from the previous build when nothing it shows has changed.
  std::string site_key;
  if (auto h = key_base("site-2", asked)) {
    BG_ASSIGN(const std::string stamp, store.measurements_stamp());
    h->str(fingerprint_of(stamp, runs, stored, states, acks));
    site_key = key_text(*h);
  }
  if (previous != nullptr && !site_key.empty() && previous->key == site_key)
    if (auto kept = previous_files(*previous)) {
      kept->key = site_key;
      return std::move(*kept);
    }
  SiteOptions options = asked;
  // The dashboard charts wall time unless asked for more (history's own default is every
  // metric a series has).
  if (options.history.metrics.empty()) options.history.metrics = {"wall_time"};
  if (all_metrics(options)) {
    BG_ASSIGN(options.history.metrics, newest_metrics(store, runs));
  }
  // Run pages: the newest runs (list_runs is newest first), or every run.
  std::vector<int64_t> paged;
  for (const auto& r : runs)
    if (options.all_run_pages || paged.size() < options.run_pages) paged.push_back(r.id);

  SeriesContext ctx{options, runs, stored,   acks,
                    states,  now,  previous, key_base("site-page-2", options),
                    {},      {},   {},       {}};
  for (const auto& r : runs) {
    Fnv1a h("run");
    add_run(h, r);
    ctx.run_hash.emplace(r.id, h.value());
  }
  ctx.inputs = series_inputs(stored, states);
  if (const auto h = key_base("site-state-1", options)) ctx.state_key = key_text(*h);
  ctx.acks_hash = acks_hash(acks);
  BG_ASSIGN(std::optional<FollowPlan> plan, plan_follow(store, ctx));

  // The compare page and the run pages read through `store`; with readers of its own, the
  // history is read meanwhile (on two cores, one mostly waits on the database while the other
  // decodes). `store` is used by one thread at a time: the pages' until they are done.
  const auto render_pages = [&]() -> Result<RunPages> {
    RunPages out;
    const auto& base = ctx.page_base;
    // The compare page: kept while its runs are the same.
    std::string key;
    if (base) {
      Fnv1a h = *base;
      h.str("compare");
      for (const auto* r : compare_page_runs(runs, options)) add_run(h, *r);
      key = key_text(h);
      out.keys["compare.html"] = key;
    }
    if (auto kept = previous_page(previous, "compare.html", key)) {
      out.compare = std::move(*kept);
      ++out.reused;
    } else {
      out.compare.path = "compare.html";
      BG_ASSIGN(out.compare.content, render_compare_page(store, runs, options));
    }
    if (options.all_run_pages) return out;
    std::map<int64_t, const store::RunSummary*> listed;
    for (const auto& r : runs) listed.emplace(r.id, &r);
    for (int64_t id : paged) {
      const std::string path = fmt::format("run-{}.html", id);
      // A run still running gets more instances: its page is made each time.
      const auto* r = listed.at(id);
      key.clear();
      if (base && r->status != "running") {
        Fnv1a h = *base;
        h.str("run");
        add_run(h, *r);
        key = key_text(h);
        out.keys[path] = key;
      }
      if (auto kept = previous_page(previous, path, key)) {
        out.runs.push_back(std::move(*kept));
        ++out.reused;
        continue;
      }
      BG_ASSIGN(auto page, render_run_page(store, std::to_string(id), options));
      out.runs.push_back({path, std::move(page)});
    }
    return out;
  };
  // The history: of the plan's benchmarks alone when the previous build is followed.
  const auto load = [&](const analysis::HistoryOptions& ho) -> Result<analysis::History> {
    return beside ? analysis::load_history(options.open_reader, ho, runs, nullptr,
                                           analysis::Variants::kNamed)
                  : analysis::load_history(store, ho, runs);
  };
  const auto load_followed = [&]() -> Result<analysis::History> {
    if (plan->benchmarks.empty()) return analysis::History{};
    analysis::HistoryOptions ho = options.history;
    ho.benchmarks = plan->benchmarks;
    return load(ho);
  };
  const auto say = [&](const std::string& what) {
    if (options.on_step) options.on_step(what);
  };
  say(fmt::format("reading the history of {} run(s){}", runs.size(),
                  plan ? fmt::format(" for {} benchmark(s)", plan->benchmarks.size()) : ""));
  std::future<Result<RunPages>> pending;
  if (beside) pending = std::async(std::launch::async, render_pages);
  Result<analysis::History> loaded = plan ? load_followed() : load(options.history);
  Result<RunPages> pages = beside ? pending.get() : render_pages();
  if (!loaded.ok()) return loaded.error();
  if (!pages.ok()) return pages.error();
  std::optional<SeriesPages> part;
  say("finding change points and making the pages of each series");
  if (plan) {
    part = follow_series(ctx, std::move(*plan), std::move(*loaded));
    if (!part) {
      loaded = load(options.history);
      if (!loaded.ok()) return loaded.error();
    }
  }
  if (!part) part = every_series(ctx, std::move(*loaded));

  Site site;
  site.warnings = part->warnings;
  site.followed = part->followed;
  site.remade = std::move(part->remade);
  std::vector<int64_t> planned;  // runs with a plan page
  if (!options.plan_run.empty()) {
    BG_ASSIGN(const RunData run, store.load_run(options.plan_run, {.columns = true}));
    BG_ASSIGN(auto page, render_plan_page(store, std::to_string(run.id), options));
    site.files.push_back({fmt::format("plan-{}.html", run.id), std::move(page)});
    planned.push_back(run.id);
  }
  site.files.push_back(
      {"data/commits.js", commits_script(part->commits, paged, planned, options.all_run_pages)});
  site.files.push_back({"index.html", std::move(part->overview)});
  site.files.push_back({"regressions.html", std::move(part->regressions)});
  site.files.push_back(
      {"runs.html",
       render_page({"runs", "Runs", runs_data(runs, paged, options.all_run_pages), false, false})});
  site.files.push_back(std::move(pages->compare));
  site.keys = std::move(pages->keys);
  site.reused = pages->reused + part->reused;
  for (std::size_t g = 0; g < part->groups.size(); ++g) {
    if (!part->group_keys[g].empty()) site.keys[part->groups[g].path] = part->group_keys[g];
    site.files.push_back(std::move(part->groups[g]));
  }
  for (auto& page : pages->runs) site.files.push_back(std::move(page));
  site.key = site_key;
  for (const auto& f : dashboard_asset_files())
    site.files.push_back({"assets/" + std::string(f.name), std::string(f.content)});
  if (!ctx.state_key.empty()) {
    part->state.key = ctx.state_key;
    part->state.acks = ctx.acks_hash;
    part->state.commits = part->commits.entries;
    part->state.runs.clear();
    for (const auto& r : runs) part->state.runs.emplace_back(r.id, ctx.run_hash.at(r.id));
    site.state = state_text(part->state);
  }
  // A million points take tens of milliseconds to free: done while the site is written.
  site.released = std::async(std::launch::async, [history = std::move(part->history)]() mutable {
    analysis::free_series(history);
  });
  return site;
}

}  // namespace benchguard::report::html
