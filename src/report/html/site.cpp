#include "report/html/site.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/gate.hpp"
#include "analysis/history_load.hpp"
#include "analysis/series_cache.hpp"
#include "core/atomic_file.hpp"
#include "core/build_id.hpp"
#include "core/embedded.hpp"
#include "core/hash.hpp"
#include "core/json_error.hpp"
#include "core/yaml_util.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site_data.hpp"
#include "report/html/site_state.hpp"

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

// The pages of the site that read runs of their own, not the history.
struct RunPages {
  SiteFile compare;
  std::vector<SiteFile> runs;
  std::map<std::string, std::string> keys;  // Site::keys
  std::size_t reused = 0;
};

// Files of the site are compared whatever their size.
constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

// A run as listed: a page made from it is made again when any of this changes (a pruned
// benchmark changes its counts, a resumed run its status and end).
void add_run(Fnv1a& h, const store::RunSummary& r) {
  h.i64(r.id);
  for (const auto* text : {&r.uuid, &r.status, &r.suite, &r.hostname, &r.git_commit, &r.git_branch})
    h.str(*text);
  h.i64(r.started_at);
  h.i64(r.finished_at);
  h.i64(r.benchmarks);
  h.i64(r.instances);
  h.i64(static_cast<int64_t>(r.labels.size()));
  for (const auto& [k, v] : r.labels) {
    h.str(k);
    h.str(v);
  }
}

// Every option that shapes the site (open_reader only says how the history is read). An option
// added to these structs must be added here: their sizes stop the build until it is.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(SiteOptions) == 552 && sizeof(analysis::HistoryOptions) == 192 &&
                  sizeof(analysis::DetectOptions) == 136 &&
                  sizeof(analysis::SummaryOptions) == 64 && sizeof(stats::VerdictOptions) == 56,
              "an option was added: add it to add_options");
#endif
void add_options(Fnv1a& h, const SiteOptions& o) {
  const auto strings = [&](const std::vector<std::string>& v) {
    h.i64(static_cast<int64_t>(v.size()));
    for (const auto& x : v) h.str(x);
  };
  const auto& hi = o.history;
  strings(hi.benchmarks);
  strings(hi.metrics);
  strings(hi.also);
  h.str(hi.machine);
  h.str(hi.branch);
  strings(hi.commits);
  h.i64(hi.since);
  h.i64(static_cast<int64_t>(hi.last));
  h.str(analysis::to_string(hi.burn_in));
  const auto& d = o.detect;
  h.i64(static_cast<int64_t>(d.method));
  h.f64(d.max_p_value.value_or(-1));
  h.i64(static_cast<int64_t>(d.window));
  h.f64(d.min_magnitude);
  h.i64(static_cast<int64_t>(d.permutations));
  h.i64(static_cast<int64_t>(d.seed));
  h.f64(d.absolute_floor);
  const auto& v = d.verdict;
  h.f64(v.threshold);
  h.f64(v.confidence);
  h.i64(v.resamples);
  h.i64(static_cast<int64_t>(v.seed));
  h.i64(static_cast<int64_t>(v.direction));
  h.i64(static_cast<int64_t>(v.statistic));
  h.i64(static_cast<int64_t>(v.interval));
  h.i64(v.holm_gates_verdict ? 1 : 0);
  h.f64(v.tail_weight);
  h.i64(d.full ? 1 : 0);
  h.i64(d.head ? 1 : 0);
  h.f64(d.head_confidence);
  const auto& s = o.summary;
  h.str(analysis::to_string(s.burn_in));
  h.i64(s.resamples);
  h.f64(s.confidence);
  h.i64(static_cast<int64_t>(s.seed));
  h.f64(s.max_cv);
  h.i64(s.min_instances);
  h.f64(s.slow_first_factor);
  h.i64(static_cast<int64_t>(o.run_pages));
  h.i64(o.all_run_pages ? 1 : 0);
  h.i64(static_cast<int64_t>(o.spark_points));
  h.i64(static_cast<int64_t>(o.instance_points));
  h.str(o.title);
  h.i64(static_cast<int64_t>(o.compare_runs));
  h.f64(o.threshold);
  h.i64(o.heat_resamples);
  h.str(o.plan_run);
  h.f64(o.plan_target);
}

// What every key holds: this build of benchguard and every option (for a page key, as
// resolved: `--metric all` named). Unset (no key, nothing kept) without a build id.
std::optional<Fnv1a> key_base(std::string_view tag, const SiteOptions& o) {
  if (build_id().empty()) return std::nullopt;
  Fnv1a h(tag);
  h.str(build_id());
  add_options(h, o);
  return h;
}

std::string key_text(const Fnv1a& h) {
  return fmt::format("{:016x}", static_cast<uint64_t>(h.value()));
}

// A change point as the pages show it (every field but when it was detected).
void add_change(Fnv1a& h, const store::ChangeRecord& c) {
  for (const auto* text : {&c.id, &c.series_key, &c.benchmark, &c.variant, &c.metric, &c.machine,
                           &c.method, &c.last_good, &c.first_bad, &c.kind, &c.status})
    h.str(*text);
  for (const int64_t n : {c.first_bad_time, c.index, c.segment_start, c.segment_end}) h.i64(n);
  for (const double x : {c.before, c.after, c.change, c.change_lower, c.change_upper, c.p_value})
    h.f64(x);
}

// A series' detection state as detection reads it (not when it was saved).
void add_state(Fnv1a& h, const store::SeriesState& s) {
  h.str(s.series_key);
  h.str(s.settings);
  h.i64(s.points);
  h.str(s.digest);
}

// The key of benchmark page `g`: everything benchmark_data shows of its series. Each point's
// commit index (its place in data/commits.js), values and runs as listed (the instance values
// shown come from those runs, read under the options `base` holds), and the change points of
// its series with their acknowledgements.
std::string group_key(Fnv1a h, std::size_t g, const std::string& title,
                      const std::vector<const analysis::HistorySeries*>& series,
                      const std::vector<analysis::ChangeRow>& rows, const CommitTable& commits,
                      const std::unordered_map<int64_t, int64_t>& run_hash) {
  h.str("benchmark");
  h.i64(static_cast<int64_t>(g));
  h.str(title);
  for (const auto* s : series) {
    const std::string key = s->key();
    h.str(key);
    h.str(s->metric.unit);
    h.i64(static_cast<int64_t>(s->metric.direction));
    h.i64(static_cast<int64_t>(s->points.size()));
    // The points' bytes as this build holds them, hashed 8 bytes a step (a million points
    // byte by byte were 5% of a build): a key is compared only by builds of the same
    // benchguard. A value with more than one form (-0.0, NaN) only makes the page again.
    std::string bytes;
    bytes.reserve(s->points.size() * 6 * sizeof(int64_t));
    const auto put = [&](auto x) {
      const auto at = bytes.size();
      bytes.resize(at + sizeof x);
      std::memcpy(bytes.data() + at, &x, sizeof x);
    };
    for (const auto& p : s->points) {
      put(static_cast<int64_t>(commits.of(p)));
      put(p.centre);
      put(p.interval.lower);
      put(p.interval.upper);
      put(static_cast<int64_t>(p.instances()));
      put(static_cast<int64_t>(p.runs.size()));
      for (const int64_t r : p.runs) {
        put(r);
        const auto it = run_hash.find(r);
        put(it == run_hash.end() ? int64_t{0} : it->second);
      }
    }
    h.i64(static_cast<int64_t>(std::hash<std::string_view>{}(bytes)));
    for (const auto& row : rows) {
      if (row.change.series_key != key) continue;
      add_change(h, row.change);
      h.str(row.ack != nullptr ? row.ack->reason : std::string("\n"));
    }
  }
  return key_text(h);
}

// Every acknowledgement as the pages show it.
void add_acks(Fnv1a& h, const std::vector<store::AckRecord>& acks) {
  h.i64(static_cast<int64_t>(acks.size()));
  for (const auto& a : acks) {
    h.str(a.change_id);
    h.str(a.reason);
    h.i64(a.acked_at);
  }
}

// The store as a site shows it: the runs as listed, their measurements' stamp, the stored
// change points (every field the pages show, not when it was detected), the detection states
// they were found with, and acknowledgements.
std::string fingerprint_of(const std::string& stamp, const std::vector<store::RunSummary>& runs,
                           const std::vector<store::ChangeRecord>& changes,
                           const std::vector<store::SeriesState>& states,
                           const std::vector<store::AckRecord>& acks) {
  Fnv1a h("store-fingerprint-2");
  h.str(stamp);
  h.i64(static_cast<int64_t>(runs.size()));
  for (const auto& r : runs) add_run(h, r);
  h.i64(static_cast<int64_t>(changes.size()));
  for (const auto& c : changes) add_change(h, c);
  h.i64(static_cast<int64_t>(states.size()));
  for (const auto& s : states) add_state(h, s);
  add_acks(h, acks);
  return key_text(h);
}

// The non-empty lines of `text`.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    if (end > from) lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return lines;
}

// A file of the site in `dir` as it is there now.
Result<std::string> read_site_file(const std::string& dir, const std::string& path) {
  return yaml::read_text_file((std::filesystem::path(dir) / path).string(), kNoLimit);
}

// The hash of a file's bytes: compared only by builds of the same benchguard (a key names the
// build before a file's hash is looked at), so the standard library's hash, which reads
// 8 bytes a step where Fnv1a reads one (16 MB of pages a build), serves.
std::string content_hash(std::string_view bytes) {
  return fmt::format("{:016x}", static_cast<uint64_t>(std::hash<std::string_view>{}(bytes)));
}

// Every file of the previous build, when each is there with the bytes it had.
std::optional<Site> previous_files(const PreviousSite& previous) {
  if (previous.built != nullptr) {
    Site site = *previous.built;
    site.reused = site.files.size();
    site.unchanged = true;
    site.followed = false;
    site.remade.clear();
    return site;
  }
  if (previous.files.empty()) return std::nullopt;
  Site site;
  for (const auto& [path, hash] : previous.files) {
    auto text = read_site_file(previous.dir, path);
    if (!text.ok() || content_hash(*text) != hash) return std::nullopt;
    site.files.push_back({path, std::move(*text), previous.dir, hash});
  }
  site.keys = previous.keys;
  site.warnings = previous.warnings;
  site.state = previous.state;
  site.reused = site.files.size();
  site.unchanged = true;
  return site;
}

// The page at `path` as the previous build wrote it, when made from the same key.
std::optional<SiteFile> previous_page(const PreviousSite* previous, const std::string& path,
                                      const std::string& key) {
  if (previous == nullptr) return std::nullopt;
  const auto it = previous->keys.find(path);
  if (it == previous->keys.end() || it->second != key) return std::nullopt;
  if (previous->built != nullptr) {
    const SiteFile* file = previous->built->find(path);
    if (file == nullptr) return std::nullopt;
    return *file;
  }
  // As that build wrote it: a page edited since is made again.
  const auto hash = previous->hashes.find(path);
  if (hash == previous->hashes.end()) return std::nullopt;
  auto text = read_site_file(previous->dir, path);
  if (!text.ok() || content_hash(*text) != hash->second) return std::nullopt;
  return SiteFile{path, std::move(*text), previous->dir, hash->second};
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

Result<std::string> store_fingerprint(store::Store& store) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  BG_ASSIGN(const std::string stamp, store.measurements_stamp());
  BG_ASSIGN(const auto changes, store.load_changes());
  BG_ASSIGN(const auto states, store.load_series_states());
  BG_ASSIGN(const auto acks, store.load_acks());
  return fingerprint_of(stamp, runs, changes, states, acks);
}

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

namespace {

// What both ways of building the series' pages (the whole history, or the series new runs
// measure) share.
struct SeriesContext {
  const SiteOptions& options;
  const std::vector<store::RunSummary>& runs;
  const std::vector<store::ChangeRecord>& stored;
  const std::vector<store::AckRecord>& acks;
  const std::vector<store::SeriesState>& states;
  int64_t now = 0;
  const PreviousSite* previous = nullptr;
  std::optional<Fnv1a> page_base;                 // of every page key
  std::unordered_map<int64_t, int64_t> run_hash;  // run id -> hash of it as listed
  std::map<std::string, std::string> inputs;      // series key -> series_inputs
  std::string state_key;                          // SiteState::key ("": no state)
  std::string acks_hash;                          // SiteState::acks
};

// The overview, the regressions page and the benchmark pages, with the commits table, the
// state the next build starts from and the history they were made from.
struct SeriesPages {
  std::string overview, regressions;
  std::vector<SiteFile> groups;         // benchmark pages, by number
  std::vector<std::string> group_keys;  // their keys ("" none)
  std::size_t reused = 0;
  CommitTable commits;
  std::vector<std::string> warnings;
  SiteState state;
  analysis::History history;
  bool followed = false;
  std::vector<std::string> remade;  // the benchmarks made again when followed
};

// What each series' change points are found from besides its points: its stored change
// points (every field the pages show) and its stored detection state.
std::map<std::string, std::string> series_inputs(const std::vector<store::ChangeRecord>& stored,
                                                 const std::vector<store::SeriesState>& states) {
  std::map<std::string, Fnv1a> h;
  const auto of = [&](const std::string& key) -> Fnv1a& {
    return h.try_emplace(key, Fnv1a("series-inputs")).first->second;
  };
  for (const auto& c : stored) add_change(of(c.series_key), c);
  for (const auto& s : states) add_state(of(s.series_key), s);
  std::map<std::string, std::string> out;
  for (const auto& [key, x] : h) out.emplace(key, key_text(x));
  return out;
}

std::string acks_hash(const std::vector<store::AckRecord>& acks) {
  Fnv1a h("acks");
  add_acks(h, acks);
  return key_text(h);
}

std::string group_title(const Group& g) {
  return g.variant == "default" ? g.benchmark : fmt::format("{} [{}]", g.benchmark, g.variant);
}

// The change points of `history`'s series with their acknowledgements, and its groups, the
// series of each in the order the metrics were asked for (wall_time first with all).
struct Detected {
  std::vector<analysis::ChangeRow> rows;
  std::vector<Group> groups;
};
Detected detect_and_group(const SeriesContext& ctx, const analysis::History& history) {
  const analysis::Detection found =
      analysis::detect_history(history, ctx.options.detect, ctx.states, ctx.stored, ctx.now);
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

// Each series' change points, by series index.
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

// Series `i` of `history` as the state keeps it: its overview row and regressions rows.
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

// The overview and the regressions page from every series' entry.
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

// Benchmark page `number` of `grp`: kept from the previous build when its key is unchanged
// (then true).
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

// Every series' pages from the whole history.
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

// A build that can follow the previous one: its state, and the benchmarks whose series are to
// be made again (the others are as that build left them).
struct FollowPlan {
  SiteState state;
  std::vector<std::string> benchmarks;  // sorted
};

// Whether the series' pages of the previous build can be kept but for the series new runs
// measure: nothing it was made from changed but runs added after its runs, of commits it did
// not have, and the change points and detection states of some series. Then the benchmarks to
// make again; nothing means the whole site is built.
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

// The series' pages of the previous build with those of `history` (the series of the plan's
// benchmarks) made again. Nothing when the history does not fit the previous build's series,
// or a page to keep is no longer as it wrote it.
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

}  // namespace

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
  std::future<Result<RunPages>> pending;
  if (beside) pending = std::async(std::launch::async, render_pages);
  Result<analysis::History> loaded = plan ? load_followed() : load(options.history);
  Result<RunPages> pages = beside ? pending.get() : render_pages();
  if (!loaded.ok()) return loaded.error();
  if (!pages.ok()) return pages.error();
  std::optional<SeriesPages> part;
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

Result<SiteWrite> write_site(const Site& site, const std::string& dir) {
  namespace fs = std::filesystem;
  SiteWrite done;
  std::error_code ec;
  const fs::path root(dir);
  // What the previous build wrote: removed below unless this site has it too.
  std::vector<std::string> before;
  if (const auto listed = read_site_file(dir, kSiteManifest); listed.ok())
    for (const auto line : lines_of(*listed)) before.emplace_back(line);
  std::string manifest;
  std::set<std::string> now;
  std::set<fs::path> folders;
  for (const auto& f : site.files) {
    manifest += f.path + "\n";
    now.insert(f.path);
    folders.insert((root / f.path).parent_path());
  }
  // A folder of the site that is a link (planted in a shared or checked-out folder) would take
  // the pages written into it elsewhere.
  for (const auto& folder : folders) {
    BG_TRY(check_real_folders(dir, folder.lexically_relative(root).string()));
    fs::create_directories(folder, ec);
    if (ec) return Error{fmt::format("cannot create {}: {}", folder.string(), ec.message())};
  }
  // Each file is checked and written on its own, several at once; its hash for kSiteKeys is
  // taken meanwhile. The first failure in the order of the files is the one reported.
  enum Outcome : char { kUnchanged, kWritten, kFailed };
  std::vector<Outcome> outcome(site.files.size(), kUnchanged);
  std::vector<std::string> hashes(site.files.size());
  tbb::parallel_for(std::size_t{0}, site.files.size(), [&](std::size_t k) {
    const SiteFile& f = site.files[k];
    hashes[k] = f.hash.empty() ? content_hash(f.content) : f.hash;
    // The same bytes are left alone: a published copy then sees only what changed. A page
    // read back from this directory was just found there with them.
    if (!f.read_from.empty() && f.read_from == dir) return;
    const fs::path path = root / f.path;
    // A link in the file's place is replaced, never read or written through.
    std::error_code lec;
    if (fs::is_regular_file(fs::symlink_status(path, lec))) {
      if (const auto existing = yaml::read_text_file(path.string(), kNoLimit);
          existing.ok() && *existing == f.content)
        return;
    }
    outcome[k] = write_file_atomically(path.string(), f.content).ok() ? kWritten : kFailed;
  });
  for (std::size_t k = 0; k < site.files.size(); ++k) {
    if (outcome[k] == kFailed)
      return Error{fmt::format("cannot write {}", (root / site.files[k].path).string())};
    ++(outcome[k] == kWritten ? done.written : done.unchanged);
  }
  // The manifest is read from the folder, which others may have written: only regular files
  // reached through real folders beneath it are removed.
  for (const auto& path : before) {
    if (now.contains(path)) continue;
    if (remove_file_beneath(dir, path)) ++done.removed;
  }
  BG_TRY(write_file_atomically((root / kSiteManifest).string(), manifest));
  std::string keys;
  if (!site.key.empty()) keys += fmt::format("site {}\n", site.key);
  for (const auto& [path, key] : site.keys) keys += fmt::format("page {} {}\n", key, path);
  for (std::size_t k = 0; k < site.files.size(); ++k)
    keys += fmt::format("file {} {}\n", hashes[k], site.files[k].path);
  for (auto w : site.warnings) {
    std::replace(w.begin(), w.end(), '\n', ' ');
    keys += fmt::format("warning {}\n", w);
  }
  BG_TRY(write_file_atomically((root / kSiteKeys).string(), keys));
  // Without a state the next build makes everything; a state left by an earlier build would
  // describe another site.
  if (site.state.empty()) {
    fs::remove(root / kSiteState, ec);
  } else {
    BG_TRY(write_file_atomically((root / kSiteState).string(), site.state));
  }
  return done;
}

PreviousSite previous_in_memory(const Site& site) {
  PreviousSite previous;
  previous.built = &site;
  previous.keys = site.keys;
  previous.key = site.key;
  previous.warnings = site.warnings;
  previous.state = site.state;
  return previous;
}

PreviousSite read_previous_site(const std::string& dir) {
  PreviousSite previous;
  previous.dir = dir;
  const auto text = read_site_file(dir, kSiteKeys);
  if (!text.ok()) return previous;
  if (auto state = read_site_file(dir, kSiteState); state.ok()) previous.state = std::move(*state);
  for (auto line : lines_of(*text)) {
    // "KIND REST"; "page" and "file" split REST into "KEY PATH".
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view kind = line.substr(0, space);
    line.remove_prefix(space + 1);
    if (kind == "site") previous.key = std::string(line);
    if (kind == "warning") previous.warnings.emplace_back(line);
    if (kind != "page" && kind != "file") continue;
    const auto split = line.find(' ');
    if (split == std::string_view::npos || split == 0) continue;
    std::string key(line.substr(0, split)), path(line.substr(split + 1));
    if (kind == "page") {
      previous.keys.emplace(std::move(path), std::move(key));
    } else {
      previous.hashes.emplace(path, key);
      previous.files.emplace_back(std::move(path), std::move(key));
    }
  }
  return previous;
}

}  // namespace benchguard::report::html
