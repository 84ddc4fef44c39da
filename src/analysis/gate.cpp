#include "analysis/gate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include "analysis/compare.hpp"
#include "analysis/history_load.hpp"
#include "stats/tests.hpp"

namespace benchguard::analysis {
namespace {

// The newest run of `runs` (list_runs: every run) that history `options` takes, by start, then
// id; nullptr when none.
const store::RunSummary* newest(const std::vector<store::RunSummary>& runs,
                                const HistoryOptions& options) {
  const std::set<std::string> commits(options.commits.begin(), options.commits.end());
  const store::RunSummary* best = nullptr;
  for (const auto& r : runs) {
    if (!in_history(r, options, commits)) continue;
    if (best == nullptr || std::tie(r.started_at, r.id) > std::tie(best->started_at, best->id))
      best = &r;
  }
  return best;
}

std::string point_of(const std::string& commit, const std::string& uuid) {
  return commit.empty() ? uuid : commit;
}

std::string point_of(const RunRecord& run) {
  return point_of(run.git_commit, run.uuid);
}

using Measured = std::set<std::pair<std::string, std::string>>;  // (benchmark, metric)

// The channels at the newest run (`measured` there, of `benchmarks`), which moved (the rows
// `at_head`), and, under --require, what fails: a required channel missing for a benchmark,
// and only required channels' regressions.
void judge_channels(GateReport& g, const std::vector<std::string>& require,
                    const std::set<std::string>& benchmarks, const Measured& measured,
                    const std::function<bool(const store::ChangeRecord&)>& at_head) {
  std::vector<std::string> names = require;
  std::set<std::string> others;
  for (const auto& [b, m] : measured)
    if (std::find(names.begin(), names.end(), m) == names.end()) others.insert(m);
  names.insert(names.end(), others.begin(), others.end());
  const auto required = [&](const std::string& m) {
    return require.empty() || std::find(require.begin(), require.end(), m) != require.end();
  };
  for (const auto& m : names) {
    ChannelResult c;
    c.metric = m;
    c.required = !require.empty() && required(m);
    for (const auto& b : benchmarks) {
      if (measured.contains({b, m}))
        ++c.benchmarks;
      else if (c.required)
        c.missing.push_back(b);
    }
    for (const auto& row : g.results)
      if (row.change.metric == m && at_head(row.change)) {
        c.regressions += row.change.kind == "regression" ? 1 : 0;
        c.improvements += row.change.kind == "improvement" ? 1 : 0;
      }
    g.channels.push_back(std::move(c));
  }
  if (require.empty()) return;
  std::vector<ChangeRow> kept;
  for (auto& row : g.alerts) {
    if (required(row.change.metric)) {
      kept.push_back(row);
      continue;
    }
    g.notes.push_back(fmt::format(
        "{} ({}): {} {:+.2f}% in {}, not a required channel (--require {}): does not fail",
        row.change.id, row.change.benchmark, row.change.kind, 100 * row.change.change,
        row.change.metric, fmt::join(require, ",")));
  }
  g.alerts = std::move(kept);
}

// The history of `runs` from `store`, or on readers of `open_reader` when set (deriving and
// saving through `store` the entries runs lack).
Result<History> read_history(store::Store& store, const store::StoreOpener& open_reader,
                             const HistoryOptions& options,
                             const std::vector<store::RunSummary>& runs) {
  if (open_reader) return load_history(open_reader, options, runs, &store);
  return load_history(store, options, runs);
}

// check_selection of the history of `runs` under `options`, read only when the selection
// names something (a benchmark, metric or machine class) that must be found in it.
Status check_names(store::Store& store, const store::StoreOpener& open_reader,
                   const HistoryOptions& options, const std::vector<store::RunSummary>& runs,
                   const std::string& where) {
  const bool names = !options.benchmarks.empty() || !options.machine.empty() ||
                     std::any_of(options.metrics.begin(), options.metrics.end(),
                                 [](const std::string& m) { return m != "all"; });
  if (names) {
    BG_ASSIGN(const History history, read_history(store, open_reader, options, runs));
    return check_selection(history, options, where);
  }
  if (newest(runs, options) != nullptr) return ok_status();
  return check_selection(History{}, options, where);  // says there is no run
}

// A series at the newest commit with the points before it there.
struct ShortSeries {
  std::string benchmark;
  std::size_t points = 0;
};

// "spin, sort: 1 to 2": the series' benchmarks (the first three and how many more) and their
// points.
std::string short_text(const std::vector<ShortSeries>& series) {
  std::set<std::string> names;
  std::size_t fewest = series.front().points, most = fewest;
  for (const auto& s : series) {
    names.insert(s.benchmark);
    fewest = std::min(fewest, s.points);
    most = std::max(most, s.points);
  }
  std::vector<std::string> shown(names.begin(), names.end());
  const std::size_t more = shown.size() > 3 ? shown.size() - 3 : 0;
  shown.resize(shown.size() - more);
  return fmt::format(
      "{}{}: {}", fmt::join(shown, ", "), more > 0 ? fmt::format(" and {} more", more) : "",
      fewest == most ? fmt::format("{}", most) : fmt::format("{} to {}", fewest, most));
}

// `word` as one word of a shell command line: quoted when it holds more than letters, digits
// and /._-=:,+@%.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("/._-=:,+@%").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command that measures the `points` commits before the newest one (`head`) into history
// (run --commits, which skips those measured already; a history shorter than that is all
// measured).
std::string backfill_text(const GateOptions& options, const std::string& head, std::size_t points) {
  const std::string tip =
      options.checkout_head.empty() || options.checkout_head == head ? "HEAD" : head.substr(0, 10);
  return fmt::format("seed them with benchguard run {} --commits {}~1 --last {} --build {}",
                     options.suite_file.empty() ? "SUITE" : shell_word(options.suite_file), tip,
                     points, options.build.empty() ? "CMD" : shell_word(options.build));
}

// The gate against history: change points open at the newest run.
Result<GateReport> gate_history(store::Store& store, const GateOptions& options, int64_t now) {
  // The series from the runs' series cache entries, not from their instances: a history of
  // millions of instances is read in a second.
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  BG_ASSIGN(History history, read_history(store, options.open_reader, options.history, runs));
  BG_TRY(check_selection(history, options.history, options.where));
  const store::RunSummary* head = newest(runs, options.history);
  if (head == nullptr) return Error{"nothing to gate: no finished runs in " + options.where};
  BG_ASSIGN(Detection found, detect_and_store(store, history, options.detect, now));
  GateReport g;
  g.against = "history";
  g.head = point_of(head->git_commit, head->uuid);
  BG_ASSIGN(g.acks, store.load_acks());
  // Series that reach the newest run's commit, and the newest change point of each.
  std::set<std::string> current;
  for (const auto& s : history.series)
    if (!s.points.empty() &&
        (s.points.back().commit.empty() ? s.points.back().run_uuids.back() == head->uuid
                                        : s.points.back().commit == head->git_commit))
      current.insert(s.key());
  // A regression confirmed, or an alarm kept open, fails the gate until it is acknowledged,
  // refuted by measuring again, undone by the newest commits (closed: status "undone"), or
  // followed in its series by a confirmed improvement. A suspected change after it, a
  // regression or an improvement, does not close it (the detector finds false ones now and
  // then), nor does a newer regression. A change at the head of the newest commit is judged
  // below.
  const auto at_head = [&](const store::ChangeRecord& c) {
    return c.method == "head" && c.first_bad == g.head;
  };
  std::map<std::string, int64_t> last_improvement;  // the newest confirmed one of each series
  for (const auto& c : found.changes) {
    if (at_head(c) || c.status != "confirmed" || c.kind != "improvement") continue;
    auto [it, fresh] = last_improvement.try_emplace(c.series_key, c.index);
    if (!fresh) it->second = std::max(it->second, c.index);
  }
  // The head checks of the series at the newest run, Holm-adjusted over those examined: with
  // many series, one alarm at 1% each would be a failure on most commits.
  std::vector<const HeadResult*> heads;
  std::vector<double> head_p;
  // Series at the newest commit by the points before it: too few, and the head check waits
  // for a history that a backfill can give, or for points after their last change point.
  std::map<std::string, ShortSeries> history_of;
  for (const auto& s : history.series)
    if (current.contains(s.key())) history_of[s.key()] = {s.benchmark, s.points.size() - 1};
  const std::size_t needed = stats::HeadCheckOptions{}.min_baseline;
  std::vector<ShortSeries> short_history;
  std::size_t too_short = 0;
  for (const auto& h : found.heads) {
    if (!current.contains(h.series_key)) continue;
    if (h.check.examined) {
      heads.push_back(&h);
      head_p.push_back(h.check.p_value);
    } else if (h.check.why_not.starts_with("fewer than")) {
      const ShortSeries& s = history_of[h.series_key];
      if (s.points < needed)
        short_history.push_back(s);
      else
        ++too_short;
    }
  }
  if (!short_history.empty())
    g.notes.push_back(fmt::format("{} of the {} earlier points the head check needs; {}",
                                  short_text(short_history), needed,
                                  backfill_text(options, g.head, needed)));
  if (too_short > 0)
    g.notes.push_back(fmt::format(
        "{} series at the newest commit have too few points since their last change point for "
        "the head check ({} needed): it starts once they have them",
        too_short, needed));
  if (options.min_history > 0) {
    std::vector<ShortSeries> below;
    for (const auto& [key, s] : history_of)
      if (s.points < options.min_history) below.push_back(s);
    if (!below.empty())
      return Error{
          fmt::format("{} earlier point(s) at the newest commit {}, fewer than "
                      "--min-history {}; {}",
                      short_text(below), g.head.substr(0, 10), options.min_history,
                      backfill_text(options, g.head, options.min_history))};
  }
  const std::vector<double> adjusted = stats::holm_adjust(head_p);
  std::set<std::string> failing_heads;
  for (std::size_t i = 0; i < heads.size(); ++i)
    if (heads[i]->check.suspected && heads[i]->regression && !heads[i]->change_id.empty() &&
        adjusted[i] < 1 - options.detect.head_confidence)
      failing_heads.insert(heads[i]->change_id);
  // A failing head is an alarm from then on: kept open, under its id, until something closes
  // it (detection.hpp).
  const auto raise = [&](ChangeRow& row) -> Status {
    if (row.change.status != "alarm" && row.change.status != "confirmed") {
      BG_TRY(set_change_status(store, row.change.id, "alarm"));
      row.change.status = "alarm";
    }
    g.alerts.push_back(row);
    return ok_status();
  };
  const auto head_of = [&](const std::string& series_key) -> const HeadResult* {
    for (const auto& h : found.heads)
      if (h.series_key == series_key) return &h;
    return nullptr;
  };
  g.head_checks = heads.size();
  g.results = with_acks(found.changes, g.acks);
  for (auto& row : g.results) {
    auto& c = row.change;
    if (c.kind != "regression" || row.ack != nullptr || !current.contains(c.series_key)) continue;
    if (at_head(c)) {
      // With --confirm every one is measured again, or read back when it was (the note says
      // what that run found); else the head check decides, unless it was measured already.
      if (options.confirm) {
        BG_ASSIGN(const Confirmation conf, options.confirm(c));
        // Kept with the change: a confirmed one stays open after newer commits (detection.hpp).
        if (conf.verdict == "confirmed" || conf.verdict == "refuted")
          BG_TRY(set_change_status(store, c.id, conf.verdict));
        const std::string run = conf.run_uuid.substr(0, 8);
        // What the run measured, beside the size the change was found with.
        const std::string measured = measured_text(conf);
        const std::string again = measured.empty() ? "" : ": " + measured;
        if (conf.verdict == "confirmed") {
          c.status = "confirmed";
          g.notes.push_back(fmt::format("{} ({}): confirmed by measuring {}..{} again{} (run {})",
                                        c.id, c.benchmark, c.last_good.substr(0, 10),
                                        c.first_bad.substr(0, 10), again, run));
          g.alerts.push_back(row);
        } else if (conf.verdict == "refuted") {
          c.status = "refuted";
          g.notes.push_back(fmt::format(
              "{} ({}): suspected at the newest point, refuted by measuring both commits "
              "again{} (run {}): not failing",
              c.id, c.benchmark, again, run));
        } else {
          g.notes.push_back(fmt::format(
              "{} ({}): measuring both commits again was inconclusive{} (run {}); the head "
              "check decides",
              c.id, c.benchmark, again, run));
          if (failing_heads.contains(c.id)) BG_TRY(raise(row));
        }
        continue;
      }
      if (c.status == "confirmed" || c.status == "alarm")
        g.alerts.push_back(row);
      else if (c.status != "refuted" && failing_heads.contains(c.id))
        BG_TRY(raise(row));
      continue;
    }
    const HeadResult* head = head_of(c.series_key);
    // A change kept open that the newest commits undid: back within the threshold of the
    // points before it and clearly below the points after it (stats::check_revert). Not
    // failing; an alarm is closed by it (status undone), a change confirmed by measuring again
    // stays listed and fails again if a commit brings it back.
    if (head != nullptr && head->kept_id == c.id && head->undoes_kept() &&
        (c.status == "confirmed" || c.status == "undone")) {
      const stats::RevertCheck& r = head->revert;
      g.notes.push_back(fmt::format(
          "{} ({}): the newest {} commits measure as before it ({:+.1f}% against the {} points "
          "before it, {:+.1f}% against the {} after it, p = {:.2g}): {}, not failing",
          c.id, c.benchmark, r.newest_points, 100 * r.from_old, r.old_points, 100 * r.from_after,
          r.after_points, r.p_value,
          c.status == "undone" ? "the points after it no longer support it: closed" : "undone"));
      continue;
    }
    if (head != nullptr && c.status == "undone")
      for (const auto& closed : head->closed)
        if (closed.id == c.id)
          g.notes.push_back(fmt::format(
              "{} ({}): the {} commits after it measure {:+.1f}% against the {} points before "
              "it, within the threshold (p = {:.2g}): they do not support it: closed, not failing",
              c.id, c.benchmark, closed.support.newest_points, 100 * closed.support.from_old,
              closed.support.old_points, closed.support.p_value));
    if (c.status != "confirmed" && c.status != "alarm") continue;
    if (const auto imp = last_improvement.find(c.series_key);
        imp != last_improvement.end() && imp->second > c.index)
      continue;
    g.alerts.push_back(row);
  }
  // A newest commit at the level of an acknowledged change a few commits before it is part of
  // that change (detection.hpp): said, so that a pass there is not a surprise.
  for (const auto& row : g.results)
    if (row.ack != nullptr && current.contains(row.change.series_key))
      if (const HeadResult* head = head_of(row.change.series_key);
          head != nullptr && head->part_of == row.change.id)
        g.notes.push_back(fmt::format(
            "{} ({}): the newest commit is at the level of this acknowledged {}: part of it, "
            "not a new change",
            row.change.id, row.change.benchmark, row.change.kind));
  if (found.series == 0) g.notes.push_back("no series to examine");
  std::set<std::string> benchmarks;
  Measured measured;
  for (const auto& s : history.series)
    if (current.contains(s.key())) {
      benchmarks.insert(s.benchmark);
      measured.emplace(s.benchmark, s.metric.name);
    }
  judge_channels(g, options.require, benchmarks, measured, [&](const store::ChangeRecord& c) {
    return current.contains(c.series_key) && c.first_bad == g.head;
  });
  free_series(history);
  return g;
}

// The gate against a branch or a commit: the newest run against that one.
Result<GateReport> gate_against(store::Store& store, const GateOptions& options, int64_t now) {
  HistoryOptions all = options.history;
  all.commits.clear();
  all.branch.clear();
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  BG_TRY(check_names(store, options.open_reader, all, runs, options.where));
  std::vector<const store::RunSummary*> newest_first;
  for (const auto& r : runs)
    if (in_history(r, all, {})) newest_first.push_back(&r);
  std::stable_sort(newest_first.begin(), newest_first.end(), [](const auto* a, const auto* b) {
    return std::tie(a->started_at, a->id) > std::tie(b->started_at, b->id);
  });
  if (newest_first.empty()) return Error{"nothing to gate: no finished runs in " + options.where};
  // Only the two runs compared are read whole.
  BG_ASSIGN(const RunData newest_data,
            store.load_run(std::to_string(newest_first.front()->id), {.columns = true}));
  const RunData* head = &newest_data;
  const std::string machine = machine_class(head->run);
  const std::string& commit = options.against_commit;
  // The newest run on the newest run's machine class, other than it and its commit, that
  // `match` takes.
  const auto newest_where = [&](auto match) -> Result<std::optional<RunData>> {
    for (const auto* r : newest_first) {
      if (r->id == head->id || !match(*r)) continue;
      if (!r->git_commit.empty() && r->git_commit == head->run.git_commit) continue;
      BG_ASSIGN(RunData d, store.load_run(std::to_string(r->id), {.columns = true}));
      if (machine_class(d.run) == machine) return std::optional<RunData>(std::move(d));
    }
    return std::optional<RunData>();
  };
  // The newest run of the commit `against` names; when that commit has none (or is the newest
  // run's own), of its newest measured first-parent ancestor; else the newest run recorded on
  // the branch of that name (a branch whose tip was not measured yet).
  std::optional<RunData> base_data;
  std::string base_note;
  std::vector<std::string> candidates = options.against_ancestors;
  if (candidates.empty() && !commit.empty()) candidates.push_back(commit);
  for (std::size_t k = 0; k < candidates.size() && !base_data; ++k) {
    const auto of_commit = [&](const store::RunSummary& r) {
      return r.git_commit == candidates[k];
    };
    BG_ASSIGN(base_data, newest_where(of_commit));
    if (base_data && k > 0)
      base_note = fmt::format(
          "{} ({}) has no run on this machine class{}: compared with its newest measured "
          "ancestor {}, {} commit(s) before it",
          options.against, commit.substr(0, 10),
          commit == head->run.git_commit ? " but the newest run itself" : "",
          candidates[k].substr(0, 10), k);
  }
  const auto of_branch = [&](const store::RunSummary& r) {
    return r.git_branch == options.against;
  };
  if (!base_data) {
    BG_ASSIGN(base_data, newest_where(of_branch));
  }
  if (!base_data)
    return Error{
        fmt::format("nothing to gate against: no finished run of commit or branch '{}' "
                    "on machine class '{}' (run the suite there first, or use --against "
                    "history)",
                    options.against, machine)};
  const RunData* base = &*base_data;
  Side a{options.against, {}}, b{"newest", {}};
  for (const auto& v : base->variants) a.variants.push_back(&v);
  for (const auto& v : head->variants) b.variants.push_back(&v);
  CompareOptions co;
  co.metrics = options.history.metrics;
  co.also = options.history.also;
  co.burn_in = options.history.burn_in;
  co.verdict = options.detect.verdict;
  const CompareReport cmp = compare_sides(a, b, co);

  GateReport g;
  g.against = base->run.git_commit.empty()
                  ? options.against
                  : options.against + " (" + base->run.git_commit.substr(0, 10) + ")";
  if (!base_note.empty()) g.notes.push_back(base_note);
  g.head = point_of(head->run);
  BG_ASSIGN(g.acks, store.load_acks());
  std::vector<store::ChangeRecord> changes;
  for (const auto& m : cmp.metrics)
    for (const auto& row : m.rows) {
      store::ChangeRecord c;
      c.benchmark = row.benchmark;
      c.metric = m.metric.name;
      c.machine = machine;
      c.series_key = fmt::format("{}|{}|{}|{}", row.benchmark, "", m.metric.name, machine);
      c.method = "compare";
      c.last_good = point_of(base->run);
      c.first_bad = point_of(head->run);
      c.first_bad_time = head->run.started_at;
      c.id = change_id(c.series_key, c.last_good + ".." + c.first_bad);
      c.before = row.result.value_a;
      c.after = row.result.value_b;
      c.change = row.result.ratio.value - 1;
      c.change_lower = row.result.ratio.ci.lower - 1;
      c.change_upper = row.result.ratio.ci.upper - 1;
      c.p_value = row.result.p_value_bootstrap_adjusted;  // the verdict's, as `compare` shows it
      c.kind = row.result.verdict == stats::Verdict::kSlower ? "regression"
               : row.result.verdict == stats::Verdict::kFaster
                   ? "improvement"
                   : stats::to_string(row.result.verdict);
      c.status = "confirmed";
      c.detected_at = now;
      changes.push_back(std::move(c));
    }
  // The regressions are stored, under series of their own ("against:" and the series), so
  // that `ack ID` knows the ids the gate prints; detection never touches those series.
  std::vector<store::SeriesState> states;
  std::vector<store::ChangeRecord> stored;
  for (const auto& c : changes) {
    if (c.kind != "regression") continue;
    store::ChangeRecord r = c;
    r.series_key = "against:" + c.series_key;
    if (std::none_of(states.begin(), states.end(),
                     [&](const auto& st) { return st.series_key == r.series_key; }))
      states.push_back({r.series_key, "against", 0, "", now});
    stored.push_back(std::move(r));
  }
  if (!stored.empty()) BG_TRY(store.save_detection(states, stored));
  g.results = with_acks(changes, g.acks);
  for (const auto& row : g.results)
    if (row.change.kind == "regression" && row.ack == nullptr) g.alerts.push_back(row);
  for (const auto& w : cmp.warnings) g.notes.push_back(w);
  std::set<std::string> benchmarks;
  for (const auto& v : head->variants) benchmarks.insert(v.variant.benchmark);
  Measured measured;
  for (const auto& m : cmp.metrics)
    for (const auto& row : m.rows)
      if (std::isfinite(row.result.ratio.value)) measured.emplace(row.benchmark, m.metric.name);
  judge_channels(g, options.require, benchmarks, measured,
                 [](const store::ChangeRecord&) { return true; });
  return g;
}

}  // namespace

Result<Detection> detect_and_store(store::Store& store, const History& history,
                                   const DetectOptions& options, int64_t now) {
  BG_ASSIGN(auto states, store.load_series_states());
  BG_ASSIGN(auto changes, store.load_changes());
  BG_ASSIGN(const auto acks, store.load_acks());
  Detection d = detect_history(history, options, states, changes, now, acks);
  BG_TRY(store.save_detection(d.states, d.changes));
  return d;
}

Status set_change_status(store::Store& store, const std::string& id, const std::string& status) {
  BG_ASSIGN(auto changes, store.load_changes());
  const auto it = std::find_if(changes.begin(), changes.end(),
                               [&](const store::ChangeRecord& c) { return c.id == id; });
  if (it == changes.end() || it->status == status) return ok_status();
  it->status = status;
  const std::string key = it->series_key;
  BG_ASSIGN(const auto states, store.load_series_states());
  std::vector<store::SeriesState> state;
  for (const auto& s : states)
    if (s.series_key == key) state.push_back(s);
  if (state.empty()) return ok_status();  // not stored by a detection: nothing to keep it with
  std::erase_if(changes, [&](const store::ChangeRecord& c) { return c.series_key != key; });
  return store.save_detection(state, changes);
}

std::string measured_text(const Confirmation& c) {
  if (!std::isfinite(c.change)) return "";
  const auto pct = [](double v) { return fmt::format("{:+.1f}%", 100.0 * v); };
  std::string text = pct(c.change);
  if (std::isfinite(c.lower) && std::isfinite(c.upper))
    text += fmt::format(" [{}, {}]", pct(c.lower), pct(c.upper));
  if (c.instances > 0)
    text += fmt::format(", {} instance{} a side", c.instances, c.instances == 1 ? "" : "s");
  return text;
}

std::vector<ChangeRow> with_acks(const std::vector<store::ChangeRecord>& changes,
                                 const std::vector<store::AckRecord>& acks) {
  std::map<std::string, const store::AckRecord*> by_id;
  for (const auto& a : acks) by_id.emplace(a.change_id, &a);
  std::vector<ChangeRow> rows;
  rows.reserve(changes.size());
  for (const auto& c : changes) {
    const auto it = by_id.find(c.id);
    rows.push_back({c, it == by_id.end() ? nullptr : it->second});
  }
  return rows;
}

Result<GateReport> run_gate(store::Store& store, const GateOptions& options, int64_t now) {
  if (options.against.empty() || options.against == "history")
    return gate_history(store, options, now);
  return gate_against(store, options, now);
}

}  // namespace benchguard::analysis
