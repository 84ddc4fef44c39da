#include "report/html/site_follow.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "analysis/series_cache.hpp"
#include "report/html/site_reuse.hpp"

namespace benchguard::report::html {

Result<std::optional<FollowPlan>> plan_follow(store::Store& store, const SeriesContext& ctx) {
  const auto& o = ctx.options;
  if (ctx.previous == nullptr || ctx.previous->state.empty() || ctx.state_key.empty() ||
      !o.history.commits.empty() || o.history.since != 0 || o.history.last != 0)
    return std::optional<FollowPlan>();
  auto state = parse_state(ctx.previous->state);
  if (!state || state->key != ctx.state_key || state->acks != ctx.acks_hash)
    return std::optional<FollowPlan>();
  // Every run the previous build listed is listed the same; the others came after them.
  int64_t newest = 0;
  std::set<int64_t> listed;
  for (const auto& [id, hash] : state->runs) {
    const auto it = ctx.run_hash.find(id);
    if (it == ctx.run_hash.end() || it->second != hash) return std::optional<FollowPlan>();
    newest = std::max(newest, id);
    listed.insert(id);
  }
  std::set<std::string_view> commits;
  for (const auto& e : state->commits) commits.insert(e.commit);
  std::set<std::string> known, touched;
  for (const auto& s : state->series) known.insert(s.benchmark);
  const std::string cache_key = analysis::series_cache_key(o.history.burn_in);
  for (const auto& r : ctx.runs) {
    if (listed.contains(r.id)) continue;
    if (r.id < newest) return std::optional<FollowPlan>();
    if (!analysis::is_history_run(r.status, r.labels)) continue;
    if (!r.git_commit.empty() && commits.contains(r.git_commit)) return std::optional<FollowPlan>();
    BG_ASSIGN(store::CachedRun cached, store.load_cached_run(r.id, cache_key, {.columns = true}));
    std::vector<std::string> names;
    if (cached.cache) {
      auto series = analysis::RunSeries::decode(std::move(*cached.cache));
      if (!series.ok()) return std::optional<FollowPlan>();
      for (const auto& v : series->variants()) names.push_back(v.benchmark);
    } else {
      for (const auto& v : cached.data.variants) names.push_back(v.variant.benchmark);
    }
    for (auto& name : names) {
      const auto& only = o.history.benchmarks;
      if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
      // A benchmark the previous build did not show may add series (and move page numbers).
      if (!known.contains(name)) return std::optional<FollowPlan>();
      touched.insert(std::move(name));
    }
  }
  for (const auto& s : state->series) {
    const auto it = ctx.inputs.find(s.key);
    if ((it == ctx.inputs.end() ? std::string() : it->second) != s.inputs)
      touched.insert(s.benchmark);
  }
  // Beyond half the benchmarks, following costs what building everything does.
  if (2 * touched.size() > known.size()) return std::optional<FollowPlan>();
  FollowPlan plan{std::move(*state), {touched.begin(), touched.end()}};
  return std::optional<FollowPlan>(std::move(plan));
}

std::optional<SeriesPages> follow_series(const SeriesContext& ctx, FollowPlan plan,
                                         analysis::History history) {
  SeriesPages out;
  out.state = std::move(plan.state);
  // The series of those benchmarks are the ones the previous build had, in the same order.
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < out.state.series.size(); ++i) at.emplace(out.state.series[i].key, i);
  std::vector<std::size_t> place;  // history series -> state series
  for (const auto& s : history.series) {
    const auto it = at.find(s.key());
    if (it == at.end()) return std::nullopt;
    place.push_back(it->second);
  }
  std::size_t expected = 0;
  for (const auto& s : out.state.series)
    if (std::binary_search(plan.benchmarks.begin(), plan.benchmarks.end(), s.benchmark)) ++expected;
  if (place.size() != expected || !std::is_sorted(place.begin(), place.end()) ||
      std::adjacent_find(place.begin(), place.end()) != place.end())
    return std::nullopt;
  auto commits = commit_table_after(std::move(out.state.commits), history);
  if (!commits) return std::nullopt;
  out.commits = std::move(*commits);

  const Detected found = detect_and_group(ctx, history);
  const auto& rows = found.rows;
  const auto& groups = found.groups;
  const auto by_series = rows_by_series(history, rows);
  std::map<std::size_t, const Group*> remade;  // page number -> group
  for (const auto& g : groups) {
    const std::size_t number = out.state.series[place[g.series.front()]].group;
    for (std::size_t s : g.series)
      if (out.state.series[place[s]].group != number) return std::nullopt;
    if (!remade.emplace(number, &g).second) return std::nullopt;
  }
  for (std::size_t i = 0; i < history.series.size(); ++i)
    out.state.series[place[i]] =
        series_entry(ctx, history, i, by_series[i], out.state.series[place[i]].group, out.commits);
  out.warnings = history.warnings;
  tbb::task_group summaries;
  summaries.run([&] { render_summaries(out, ctx.options); });
  const std::size_t n = out.state.groups;
  out.groups.resize(n);
  out.group_keys.resize(n);
  std::vector<char> missing(n, 0), kept(n, 0);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t g) {
    if (const auto it = remade.find(g); it != remade.end()) {
      kept[g] = render_group(ctx, history, rows, out.commits, g, *it->second, out) ? 1 : 0;
      return;
    }
    // A page no new run changed: as the previous build wrote it.
    const std::string path = group_page(g);
    const auto key = ctx.previous->keys.find(path);
    auto page = key == ctx.previous->keys.end() ? std::nullopt
                                                : previous_page(ctx.previous, path, key->second);
    if (!page) {
      missing[g] = 1;
      return;
    }
    out.group_keys[g] = key->second;
    out.groups[g] = std::move(*page);
    kept[g] = 1;
  });
  summaries.wait();
  if (std::any_of(missing.begin(), missing.end(), [](char m) { return m != 0; }))
    return std::nullopt;
  out.reused = static_cast<std::size_t>(std::count(kept.begin(), kept.end(), 1));
  out.history = std::move(history);
  out.followed = true;
  out.remade = std::move(plan.benchmarks);
  return out;
}

}  // namespace benchguard::report::html
