#include "report/html/site_keys.hpp"

#include <fmt/format.h>

#include <cstring>
#include <functional>

#include "core/build_id.hpp"

namespace benchguard::report::html {
namespace {

// Every option that shapes the site (open_reader only says how the history is read, on_step who
// is told of the building). An option added to these structs must be added here: their sizes
// stop the build until it is.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(SiteOptions) == 584 && sizeof(analysis::HistoryOptions) == 192 &&
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

// Every acknowledgement as the pages show it.
void add_acks(Fnv1a& h, const std::vector<store::AckRecord>& acks) {
  h.i64(static_cast<int64_t>(acks.size()));
  for (const auto& a : acks) {
    h.str(a.change_id);
    h.str(a.reason);
    h.i64(a.acked_at);
  }
}

}  // namespace

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

Result<std::string> store_fingerprint(store::Store& store) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  BG_ASSIGN(const std::string stamp, store.measurements_stamp());
  BG_ASSIGN(const auto changes, store.load_changes());
  BG_ASSIGN(const auto states, store.load_series_states());
  BG_ASSIGN(const auto acks, store.load_acks());
  return fingerprint_of(stamp, runs, changes, states, acks);
}

}  // namespace benchguard::report::html
