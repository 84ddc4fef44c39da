#include "analysis/detection.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <span>

#include "core/hash.hpp"
#include "stats/descriptive.hpp"

namespace benchguard::analysis {
namespace {

// The digest of a series' first `n` points: their commits and centres.
std::string points_digest(const HistorySeries& s, std::size_t n) {
  Fnv1a h("history-points");
  h.i64(static_cast<int64_t>(n));
  for (std::size_t i = 0; i < n && i < s.points.size(); ++i) {
    h.str(s.points[i].commit.empty() ? s.points[i].run_uuids.front() : s.points[i].commit);
    h.f64(s.points[i].centre);
  }
  return fmt::format("{:016x}", static_cast<uint64_t>(h.value()));
}

// What names a point in a change's commit range: its commit, else its run.
const std::string& point_name(const HistoryPoint& p) {
  return p.commit.empty() ? p.run_uuids.front() : p.commit;
}

stats::EDivisiveOptions edivisive(const DetectOptions& o) {
  stats::EDivisiveOptions e;
  if (o.max_p_value) e.max_p_value = *o.max_p_value;
  e.window = o.window;
  e.min_magnitude = o.min_magnitude;
  return e;
}

stats::PermutationOptions permutation(const DetectOptions& o) {
  stats::PermutationOptions p;
  if (o.max_p_value) p.max_p_value = *o.max_p_value;
  p.window = o.window;
  p.min_magnitude = o.min_magnitude;
  p.permutations = o.permutations;
  p.seed = o.seed;
  return p;
}

stats::ThresholdOptions threshold(const DetectOptions& o, Direction direction) {
  stats::ThresholdOptions t;
  t.absolute_floor = o.absolute_floor;
  t.direction = direction;
  return t;
}

std::vector<stats::SeriesChange> run_detector(std::span<const double> values,
                                              std::span<const stats::SeriesChange> old,
                                              std::optional<std::size_t> old_size,
                                              const DetectOptions& o, Direction direction) {
  switch (o.method) {
    case stats::ChangeMethod::kEDivisivePermutation:
      return old_size ? stats::update_changes(values, old, *old_size, permutation(o))
                      : stats::detect_changes(values, permutation(o));
    case stats::ChangeMethod::kThreshold:
      return old_size ? stats::update_changes(values, old, *old_size, threshold(o, direction))
                      : stats::detect_changes(values, threshold(o, direction));
    case stats::ChangeMethod::kEDivisiveTTest:
      break;
  }
  return old_size ? stats::update_changes(values, old, *old_size, edivisive(o))
                  : stats::detect_changes(values, edivisive(o));
}

// A stored change point back as the detector gave it.
stats::SeriesChange to_series_change(const store::ChangeRecord& c, stats::ChangeMethod method) {
  stats::SeriesChange s;
  s.index = static_cast<std::size_t>(c.index);
  s.before_start = static_cast<std::size_t>(c.segment_start);
  s.after_end = static_cast<std::size_t>(c.segment_end);
  s.mean_before = c.before;
  s.mean_after = c.after;
  s.relative_change = c.change;
  s.relative_change_low = c.change_lower;
  s.relative_change_high = c.change_upper;
  s.p_value = c.p_value;
  s.method = method;
  return s;
}

bool same_statistics(const stats::SeriesChange& a, const store::ChangeRecord& b) {
  const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return a.index == static_cast<std::size_t>(b.index) &&
         a.before_start == static_cast<std::size_t>(b.segment_start) &&
         a.after_end == static_cast<std::size_t>(b.segment_end) && same(a.mean_before, b.before) &&
         same(a.mean_after, b.after) && same(a.p_value, b.p_value);
}

// A point as the head check sees it; a summary point is its centre alone.
stats::PointMoments moments(const HistoryPoint& p) {
  if (p.summary() || p.instances() == 0) return {p.centre, 1, 0.0};
  return stats::point_moments(p.data);
}

// The instances of points [from, to) of a series (summary points hold none).
std::size_t instances_in(const HistorySeries& s, std::size_t from, std::size_t to) {
  std::size_t n = 0;
  for (std::size_t i = from; i < to && i < s.points.size(); ++i) n += s.points[i].data.instances();
  return n;
}

// A detector's change within this many points of a kept change of the same kind is that
// change, found a little earlier or later.
constexpr std::size_t kAbsorb = 3;

std::size_t distance(std::size_t a, std::size_t b) {
  return a > b ? a - b : b - a;
}

// The mean of values[from, to), from < to.
double mean_of(std::span<const double> values, std::size_t from, std::size_t to) {
  return stats::mean(values.subspan(from, to - from));
}

// A change found at the head that stays a change point after newer points arrive.
bool is_kept(const store::ChangeRecord& r, const std::set<std::string>& acked) {
  if (r.method != "head" || r.status == "refuted" || r.status == "undone") return false;
  return r.status == "confirmed" || r.status == "alarm" || acked.contains(r.id);
}

}  // namespace

std::string detect_settings(const DetectOptions& o) {
  switch (o.method) {
    case stats::ChangeMethod::kEDivisivePermutation: {
      const auto p = permutation(o);
      return fmt::format(
          "method=permutation;p={};window={};min_magnitude={};permutations={};"
          "seed={}",
          p.max_p_value, p.window, p.min_magnitude, p.permutations, p.seed);
    }
    case stats::ChangeMethod::kThreshold: {
      const auto t = threshold(o, Direction::kLowerIsBetter);
      return fmt::format("method=threshold;baseline={};sigmas={};floor={};run={}", t.baseline,
                         t.sigmas, t.absolute_floor, t.run);
    }
    case stats::ChangeMethod::kEDivisiveTTest:
      break;
  }
  const auto e = edivisive(o);
  return fmt::format("method=e-divisive;p={};window={};min_magnitude={}", e.max_p_value, e.window,
                     e.min_magnitude);
}

std::string change_id(const std::string& series_key, const std::string& first_bad) {
  Fnv1a h("change");
  h.str(series_key);
  h.str(first_bad);
  return fmt::format("{:016x}", static_cast<uint64_t>(h.value())).substr(0, 10);
}

Detection detect_history(const History& history, const DetectOptions& options,
                         const std::vector<store::SeriesState>& stored_states,
                         const std::vector<store::ChangeRecord>& stored_changes, int64_t now,
                         const std::vector<store::AckRecord>& acks) {
  Detection out;
  std::set<std::string> acked;
  for (const auto& a : acks) acked.insert(a.change_id);
  const std::string settings = detect_settings(options);
  std::map<std::string, const store::SeriesState*> state_of;
  for (const auto& s : stored_states) state_of.emplace(s.series_key, &s);
  std::map<std::string, std::vector<const store::ChangeRecord*>> changes_of;
  for (const auto& c : stored_changes) changes_of[c.series_key].push_back(&c);

  // Series are independent: examined in parallel, gathered in order.
  struct Partial {
    std::vector<store::ChangeRecord> changes;
    store::SeriesState state;
    bool reused = false;
    HeadResult head;
  };
  std::vector<Partial> parts(history.series.size());
  tbb::parallel_for(std::size_t{0}, history.series.size(), [&](std::size_t si) {
    Partial& part = parts[si];
    const HistorySeries& s = history.series[si];
    const std::string key = s.key();
    std::vector<double> values;
    values.reserve(s.points.size());
    for (const auto& p : s.points) values.push_back(p.centre);

    // Reuse what an earlier detection found when the points it saw are still the first ones.
    std::optional<std::size_t> old_size;
    std::vector<stats::SeriesChange> old;
    std::vector<const store::ChangeRecord*> old_records;
    std::string digest;  // of every point, when the stored state saw them all
    if (!options.full) {
      const auto st = state_of.find(key);
      if (st != state_of.end() && st->second->settings == settings && st->second->points > 0 &&
          static_cast<std::size_t>(st->second->points) <= values.size() &&
          st->second->digest == points_digest(s, static_cast<std::size_t>(st->second->points))) {
        if (static_cast<std::size_t>(st->second->points) == values.size())
          digest = st->second->digest;
        old_size = static_cast<std::size_t>(st->second->points);
        if (const auto c = changes_of.find(key); c != changes_of.end())
          for (const auto* r : c->second)
            if (r->method == stats::to_string(options.method)) old_records.push_back(r);
        for (const auto* r : old_records) old.push_back(to_series_change(*r, options.method));
        part.reused = true;
      }
    }
    const auto found = run_detector(values, old, old_size, options, s.metric.direction);

    for (const auto& c : found) {
      const std::string id = change_id(key, point_name(s.points[c.index]));
      // A change kept from before keeps its record (status, time found).
      const auto kept = std::find_if(old_records.begin(), old_records.end(), [&](auto* r) {
        return r->id == id && same_statistics(c, *r);
      });
      if (kept != old_records.end()) {
        part.changes.push_back(**kept);
        continue;
      }
      store::ChangeRecord r;
      r.id = id;
      r.series_key = key;
      r.benchmark = s.benchmark;
      r.variant = s.variant;
      r.metric = s.metric.name;
      r.machine = s.machine;
      r.method = std::string(stats::to_string(options.method));
      r.last_good = point_name(s.points[c.index - 1]);
      r.first_bad = point_name(s.points[c.index]);
      r.first_bad_time = s.points[c.index].time;
      r.index = static_cast<int64_t>(c.index);
      r.segment_start = static_cast<int64_t>(c.before_start);
      r.segment_end = static_cast<int64_t>(c.after_end);
      r.before = c.mean_before;
      r.after = c.mean_after;
      r.change = c.relative_change;
      r.change_lower = c.relative_change_low;
      r.change_upper = c.relative_change_high;
      r.p_value = c.p_value;
      const bool worse = s.metric.direction == Direction::kLowerIsBetter
                             ? c.mean_after > c.mean_before
                             : c.mean_after < c.mean_before;
      r.kind = worse ? "regression" : "improvement";
      r.status = "suspected";
      // Confirmation by the history: the point means of the segment before against those of
      // the segment after, the commits as units (their drift counts), with margins for the
      // search that chose the split. Pooling the instances of many commits as if independent
      // confirmed most false change points of a series that drifts between commits.
      if (instances_in(s, c.before_start, c.index) >= stats::kMinInstancesForVerdict &&
          instances_in(s, c.index, c.after_end) >= stats::kMinInstancesForVerdict) {
        stats::SeriesConfirmOptions co;
        co.threshold = std::max(options.verdict.threshold, options.min_magnitude);
        if (stats::confirm_in_series(values, c.before_start, c.index, c.after_end, co).confirmed)
          r.status = "confirmed";
      }
      // Found before (with other statistics, or other settings): first found then.
      r.detected_at = now;
      if (const auto c = changes_of.find(key); c != changes_of.end())
        for (const auto* earlier : c->second)
          if (earlier->id == id) r.detected_at = std::min(now, earlier->detected_at);
      part.changes.push_back(std::move(r));
    }
    // Changes kept open after newer points arrive (docs/history.md, "One change, one alarm"):
    // a change found at the head that measuring its commits again confirmed, that failed the
    // gate (an alarm), or that was acknowledged. Each follows its first bad point, whether or
    // not the series' points around it show the step to a detector (which may see it for a
    // while and lose it again when a newer commit undoes it), and stands for the detector's
    // change of the same kind within kAbsorb points of it, so that one change keeps one id.
    // A head change the newest commits undid (status undone) is carried along, no longer kept.
    const std::size_t h = values.size() - 1;
    std::size_t newest_at = 0;  // the newest kept change: its index, its record in part.changes
    std::string newest_id;
    bool stands_for_detector = false;  // a kept change took the place of a detector's
    if (const auto c = changes_of.find(key); c != changes_of.end() && !values.empty())
      for (const auto* r : c->second) {
        if (r->method != "head") continue;
        const bool kept = is_kept(*r, acked);
        if (!kept && r->status != "undone") continue;
        std::size_t at = 0;
        while (at < h && point_name(s.points[at]) != r->first_bad) ++at;
        if (at == 0 || at >= h || point_name(s.points[at - 1]) != r->last_good) continue;
        // Closed, and found by the detector again at the same commit: the detector's stands.
        if (!kept && std::any_of(part.changes.begin(), part.changes.end(),
                                 [&](const store::ChangeRecord& x) { return x.id == r->id; }))
          continue;
        store::ChangeRecord record = *r;
        record.index = static_cast<int64_t>(at);
        if (kept) {
          if (at >= newest_at) {
            newest_at = at;
            newest_id = r->id;
          }
          if (std::erase_if(part.changes, [&](const store::ChangeRecord& x) {
                return x.method != "head" && x.kind == r->kind &&
                       (x.id == r->id ||
                        distance(static_cast<std::size_t>(x.index), at) <= kAbsorb);
              }) > 0)
            stands_for_detector = true;
        }
        part.changes.push_back(std::move(record));
      }
    std::stable_sort(part.changes.begin(), part.changes.end(),
                     [](const auto& a, const auto& b) { return a.index < b.index; });
    // A change point for the points after it: every change but one closed without being real.
    const auto divides = [&](const store::ChangeRecord& c) {
      return c.status != "undone" && c.status != "refuted";
    };
    // The start of the segment that ends at `end`: after the newest change point before it,
    // at most `window` points.
    const auto segment_start = [&](std::size_t end) {
      std::size_t start = end > options.window ? end - options.window : 0;
      for (const auto& c : part.changes)
        if (divides(c) && static_cast<std::size_t>(c.index) < end)
          start = std::max(start, static_cast<std::size_t>(c.index));
      return start;
    };
    store::ChangeRecord* newest_kept = nullptr;
    for (auto& c : part.changes)
      if (!newest_id.empty() && c.id == newest_id) newest_kept = &c;

    // An alarm's size follows the points that arrive after it: the points since it against the
    // segment before it (stats::confirm_in_series, the commits as units).
    if (newest_kept != nullptr && newest_kept->status == "alarm") {
      const std::size_t start = segment_start(newest_at);
      if (newest_at - start >= 2) {
        stats::SeriesConfirmOptions co;
        co.threshold = std::max(options.verdict.threshold, options.min_magnitude);
        const auto sized = stats::confirm_in_series(values, start, newest_at, h + 1, co);
        newest_kept->segment_start = static_cast<int64_t>(start);
        newest_kept->segment_end = static_cast<int64_t>(h + 1);
        newest_kept->before = mean_of(values, start, newest_at);
        newest_kept->after = mean_of(values, newest_at, h + 1);
        newest_kept->change = sized.change;
        newest_kept->change_lower = sized.lower;
        newest_kept->change_upper = sized.upper;
      }
    }

    // The head check: the newest point against the points since the last change before it.
    part.head.series_key = key;
    bool change_at_head = false;
    for (const auto& c : found)
      if (c.index == h) change_at_head = true;
    std::size_t from = segment_start(h);
    // A change point with fewer than min_baseline points after it (the head among them) cannot
    // be a baseline yet: the head is judged against the segment before it, and a head that
    // moved that change's way to about its level is that change, not a new one (settling).
    const store::ChangeRecord* settling = nullptr;
    if (h > from && h - from < stats::HeadCheckOptions{}.min_baseline)
      for (const auto& c : part.changes)
        if (divides(c) && static_cast<std::size_t>(c.index) == from) settling = &c;
    if (settling != nullptr) from = segment_start(from);
    stats::HeadCheckOptions ho;
    ho.confidence = options.head_confidence;
    ho.threshold = std::max(options.verdict.threshold, options.min_magnitude);
    const auto worse = [&](const stats::HeadCheck& hc) {
      return s.metric.direction == Direction::kLowerIsBetter ? hc.change > 0 : hc.change < 0;
    };
    // The newest change kept, when no confirmed change follows it: are the newest commits
    // back at the level of the points before it (since the change before that), and clearly
    // off the level of the points after it?
    if (newest_kept != nullptr && !change_at_head && options.head) {
      const std::size_t at = newest_at;
      // A suspected change after it (the detector's false ones among them) says nothing.
      if (std::none_of(part.changes.begin(), part.changes.end(), [&](const auto& c) {
            return static_cast<std::size_t>(c.index) > at && c.status == "confirmed";
          })) {
        const std::size_t start = segment_start(at);
        stats::RevertOptions ro;
        ro.threshold = ho.threshold;
        const std::size_t newest_from = h + 1 >= ro.newest ? h + 1 - ro.newest : 0;
        std::vector<double> before(values.begin() + static_cast<std::ptrdiff_t>(start),
                                   values.begin() + static_cast<std::ptrdiff_t>(at));
        std::vector<double> after, newest;
        if (newest_from > at) {  // the newest all after the change, at least 1 point before them
          const std::size_t after_from = std::max(
              at, newest_from > options.window ? newest_from - options.window : std::size_t{0});
          after.assign(values.begin() + static_cast<std::ptrdiff_t>(after_from),
                       values.begin() + static_cast<std::ptrdiff_t>(newest_from));
          newest.assign(values.begin() + static_cast<std::ptrdiff_t>(newest_from), values.end());
        }
        // The way the change moved the metric: a regression of a lower-is-better metric up.
        const bool increased = (newest_kept->kind == "regression") ==
                               (s.metric.direction == Direction::kLowerIsBetter);
        part.head.kept_id = newest_id;
        part.head.revert = stats::check_revert(before, after, newest, increased, ro);
        // An alarm the newest commits undid closes itself: it is no longer kept (a commit that
        // brings the step back is a new change).
        if (part.head.revert.undone && newest_kept->status == "alarm")
          newest_kept->status = "undone";
      }
    }
    // An alarm (a suspicion never measured again) also closes when the commits between it and
    // the next change point (or the newest) measure within the threshold of the level before
    // it: they do not support it (stats::check_support).
    for (auto& c : part.changes) {
      const auto at = static_cast<std::size_t>(c.index);
      if (c.status != "alarm" || c.method != "head" || at == 0 || at >= h) continue;
      std::size_t end = h + 1;
      for (const auto& next : part.changes)
        if (divides(next) && static_cast<std::size_t>(next.index) > at)
          end = std::min(end, static_cast<std::size_t>(next.index));
      const std::size_t start = segment_start(at);
      const std::span<const double> all(values);
      stats::SupportOptions so;
      so.threshold = ho.threshold;
      const bool increased =
          (c.kind == "regression") == (s.metric.direction == Direction::kLowerIsBetter);
      const auto support = stats::check_support(all.subspan(start, at - start), values[at],
                                                all.subspan(at + 1, end - at - 1), increased, so);
      if (support.undone) {
        c.status = "undone";
        part.head.closed.push_back({c.id, support});
      }
    }
    if (options.head && !values.empty() && !change_at_head) {
      std::vector<stats::PointMoments> base;
      for (std::size_t i = from; i < h; ++i) base.push_back(moments(s.points[i]));
      const stats::HeadCheck hc = stats::check_head(base, moments(s.points[h]), ho);
      part.head.check = hc;
      part.head.regression = worse(hc);
      // While settling, a head that moved the settling change's way is that change unless it
      // lies beyond the change's level (the points since it) by more than the threshold and a
      // new point's prediction interval.
      if (hc.suspected && settling != nullptr &&
          (settling->kind == "regression") == part.head.regression && hc.baseline != 0) {
        const std::size_t at = static_cast<std::size_t>(settling->index);
        const double level = mean_of(values, at, h) / hc.baseline - 1;
        const double half_width = (hc.upper - hc.lower) / 2;
        const bool up = hc.change > 0;
        const double beyond = up ? hc.change - level : level - hc.change;
        if (beyond <= ho.threshold + half_width) part.head.part_of = settling->id;
      }
      if (hc.suspected && part.head.part_of.empty()) {
        store::ChangeRecord r;
        r.id = change_id(key, point_name(s.points[h]));
        r.series_key = key;
        r.benchmark = s.benchmark;
        r.variant = s.variant;
        r.metric = s.metric.name;
        r.machine = s.machine;
        r.method = "head";
        r.last_good = point_name(s.points[h - 1]);
        r.first_bad = point_name(s.points[h]);
        r.first_bad_time = s.points[h].time;
        r.index = static_cast<int64_t>(h);
        r.segment_start = static_cast<int64_t>(from);
        r.segment_end = static_cast<int64_t>(h + 1);
        r.before = hc.baseline;
        r.after = hc.head;
        r.change = hc.change;
        r.change_lower = hc.lower;
        r.change_upper = hc.upper;
        r.p_value = hc.p_value;
        r.kind = part.head.regression ? "regression" : "improvement";
        r.status = "suspected";
        r.detected_at = now;
        // Measured again already (confirmed or refuted), or failed the gate (an alarm): that
        // stays with it.
        if (const auto c = changes_of.find(key); c != changes_of.end())
          for (const auto* earlier : c->second)
            if (earlier->id == r.id) {
              r.detected_at = std::min(now, earlier->detected_at);
              if (earlier->method == "head" &&
                  (earlier->status == "confirmed" || earlier->status == "refuted" ||
                   earlier->status == "alarm"))
                r.status = earlier->status;
            }
        part.head.change_id = r.id;
        part.changes.push_back(std::move(r));
      }
    } else if (change_at_head) {
      part.head.check.why_not = "a change point at the newest point already";
    } else if (!options.head) {
      part.head.check.why_not = "not asked for";
    }
    if (digest.empty()) digest = points_digest(s, values.size());
    part.state = {key, settings, static_cast<int64_t>(values.size()), std::move(digest), now};
    // The detector's own change is not stored then, so its next pass over the series cannot
    // start from what it stored: it examines the series whole (as --full does).
    if (stands_for_detector) part.state.points = 0;
  });
  for (auto& part : parts) {
    out.changes.insert(out.changes.end(), std::make_move_iterator(part.changes.begin()),
                       std::make_move_iterator(part.changes.end()));
    out.states.push_back(std::move(part.state));
    out.heads.push_back(std::move(part.head));
    out.reused += part.reused ? 1 : 0;
    ++out.series;
  }
  return out;
}

}  // namespace benchguard::analysis
