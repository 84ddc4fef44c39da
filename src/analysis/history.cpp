#include "analysis/history.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "analysis/compare.hpp"
#include "analysis/series_cache.hpp"
#include "core/names.hpp"
#include "stats/descriptive.hpp"

namespace benchguard::analysis {
namespace {

// The committer time of the run's commit (unix ns), 0 when not recorded.
int64_t commit_time_ns(const RunRecord& run) {
  const std::string* t = find_value(run.artifacts, kCommitTimeArtifact);
  if (t == nullptr) return 0;
  int64_t secs = 0;
  const auto [end, ec] = std::from_chars(t->data(), t->data() + t->size(), secs);
  if (ec != std::errc() || end != t->data() + t->size()) return 0;
  if (secs <= 0 || secs > std::numeric_limits<int64_t>::max() / 1'000'000'000) return 0;
  return secs * 1'000'000'000;
}

// The 97.5% quantiles of Student's t by degrees of freedom, computed once each: a history's
// points mostly have the same few instance counts, and each quantile is an iterative inversion.
class TQuantiles {
 public:
  double operator()(std::size_t df) {
    if (df >= q_.size()) q_.resize(df + 1, 0.0);
    if (q_[df] == 0.0) {
      const boost::math::students_t t(static_cast<double>(df));
      q_[df] = boost::math::quantile(boost::math::complement(t, 0.025));
    }
    return q_[df];
  }

 private:
  std::vector<double> q_;
};

// The 95% Student t interval of the mean of `x`; NaN bounds for fewer than 2 values.
stats::Interval mean_interval(std::span<const double> x, TQuantiles& quantile) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (x.size() < 2) return {nan, nan};
  const double m = stats::mean(x);
  const double se = stats::stdev(x) / std::sqrt(static_cast<double>(x.size()));
  const double q = quantile(x.size() - 1);
  return {m - q * se, m + q * se};
}

// The metrics of a variant that history follows: as asked; every one ("all"); or compare's
// default selection: kDefaultMetrics the variant has, then the metrics it reported itself,
// then those of its summary records; and `also`, where the variant has them. A variant
// counted under Valgrind gives only its instruction count. `measured` is metrics_of(v).
std::vector<std::string> followed_metrics(const std::vector<std::string>& measured, bool simulated,
                                          const std::vector<SummaryRecord>& summaries,
                                          const std::vector<std::string>& asked,
                                          const std::vector<std::string>& also) {
  const bool all = asked.size() == 1 && asked.front() == "all";
  const auto has = [](const std::vector<std::string>& names, const std::string& m) {
    return std::find(names.begin(), names.end(), m) != names.end();
  };
  // Under Valgrind only the simulated counts are the benchmark's: its time and memory are the
  // simulator's, and would mix with native runs' points of the same commit.
  if (simulated) {
    std::vector<std::string> out;
    for (const auto m : kSimulatedMetrics) {
      const std::string name(m);
      const bool wanted = asked.empty() || all || has(asked, name) || has(also, name);
      if (wanted && has(measured, name)) out.push_back(name);
    }
    return out;
  }
  std::vector<std::string> out;
  const auto add = [&](const std::string& m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  const auto add_also = [&] {
    for (const auto& m : also)
      if (has(measured, m)) add(m);
  };
  if (!asked.empty() && !all) {
    out = asked;
    add_also();
    return out;
  }
  for (const auto& m : measured)
    if (find_builtin_metric(m) != nullptr &&
        (all || std::find(std::begin(kDefaultMetrics), std::end(kDefaultMetrics), m) !=
                    std::end(kDefaultMetrics)))
      add(m);
  for (const auto& m : measured)
    if (find_builtin_metric(m) == nullptr) add(m);
  for (const auto& s : summaries) add(s.metric);
  add_also();
  return out;
}

using SeriesKey = std::tuple<std::string, std::string, std::string, std::string>;
using SeriesKeyView =
    std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;

// Orders series keys and views of them alike, so that a view finds its key.
struct SeriesKeyLess {
  using is_transparent = void;
  static SeriesKeyView view(const SeriesKey& k) {
    return {std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<3>(k)};
  }
  static const SeriesKeyView& view(const SeriesKeyView& v) { return v; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return view(a) < view(b);
  }
};

struct Gathering {
  HistorySeries series;
  // By point id (HistoryBuilder::State::point_ids): 1 + the point's index in series.points, 0
  // when the series has no point there yet.
  std::vector<uint32_t> point_of;
};

}  // namespace

std::string machine_class(const RunRecord& run) {
  if (const std::string* m = find_value(run.labels, kMachineLabel); m != nullptr && !m->empty())
    return *m;
  std::vector<std::string> parts;
  if (const std::string* cpu = find_value(run.artifacts, "cpu_model")) parts.push_back(*cpu);
  if (const std::string* n = find_value(run.artifacts, "cpu_count")) parts.push_back(*n + " CPUs");
  if (const std::string* mem = find_value(run.artifacts, "mem_total_bytes")) {
    double bytes = 0;
    const auto [end, ec] = std::from_chars(mem->data(), mem->data() + mem->size(), bytes);
    if (ec == std::errc() && bytes > 0)
      parts.push_back(fmt::format("{:.0f} GiB", bytes / (1024.0 * 1024.0 * 1024.0)));
  }
  if (const std::string* os = find_value(run.artifacts, "os")) parts.push_back(*os);
  if (!parts.empty()) return fmt::format("{}", fmt::join(parts, ", "));
  if (!run.hostname.empty()) return run.hostname;
  return "unknown";
}

int64_t HistoryPoint::summarised() const {
  int64_t n = 0;
  for (const auto& s : summaries) {
    if (s.count <= 0) return 0;
    n += s.count;
  }
  return n;
}

std::string HistorySeries::key() const {
  return fmt::format("{}|{}|{}|{}", benchmark, variant, metric.name, machine);
}

namespace {

// followed_metrics of a variant, remembered for the next one: the variants of a history mostly
// measure the same metrics, and it is the same for the same lists. Variants with summary
// records are not remembered.
class FollowedCache {
 public:
  const std::vector<std::string>& of(const std::vector<std::string>& measured, bool simulated,
                                     const std::vector<SummaryRecord>& summaries,
                                     const HistoryOptions& options) {
    if (!summaries.empty()) {
      scratch_ = followed_metrics(measured, simulated, summaries, options.metrics, options.also);
      return scratch_;
    }
    if (!valid_ || simulated_ != simulated || measured_ != measured) {
      metrics_ = followed_metrics(measured, simulated, {}, options.metrics, options.also);
      measured_ = measured;
      simulated_ = simulated;
      valid_ = true;
    }
    return metrics_;
  }

 private:
  bool valid_ = false;
  bool simulated_ = false;
  std::vector<std::string> measured_, metrics_, scratch_;
};

bool benchmark_followed(const HistoryOptions& options, const std::string& benchmark) {
  return options.benchmarks.empty() ||
         std::find(options.benchmarks.begin(), options.benchmarks.end(), benchmark) !=
             options.benchmarks.end();
}

// The variant's source with the values of each followed metric it has, from `sample(metric)`
// (its description and steady-state values, as extract() gives them).
template <typename SampleFn>
HistoryBuilder::VariantSource variant_source(const std::string& benchmark, const std::string& name,
                                             bool simulated,
                                             const std::vector<std::string>& measured,
                                             const std::vector<SummaryRecord>& summaries,
                                             const std::string& settings,
                                             const HistoryOptions& options, FollowedCache& followed,
                                             SampleFn&& sample) {
  HistoryBuilder::VariantSource out{&benchmark, &name, &measured, &summaries, &settings, {}};
  if (!benchmark_followed(options, benchmark)) return out;
  for (const auto& m : followed.of(measured, simulated, summaries, options)) {
    auto [info, data] = sample(m);
    const auto summary = std::find_if(summaries.begin(), summaries.end(),
                                      [&](const SummaryRecord& x) { return x.metric == m; });
    if (data.empty() && summary == summaries.end()) continue;
    out.samples.push_back(
        {m, std::move(info), std::move(data), summary == summaries.end() ? nullptr : &*summary});
  }
  return out;
}

}  // namespace

struct HistoryBuilder::State {
  HistoryOptions options;
  std::unordered_map<std::string, size_t> position;  // commit -> index in options.commits
  int skipped_commit = 0;
  // Sorted when the history is finished.
  std::unordered_set<std::string> benchmarks, metric_names, machines;
  std::vector<std::string> named;     // the benchmark of the n-th variant of the last run
  std::vector<std::string> measured;  // the metrics of the last variant
  std::size_t runs = 0;
  // Series by (benchmark, variant, metric, machine); found by views of the names, without
  // copying them, for each variant of each run.
  using Gathered = std::map<SeriesKey, Gathering, SeriesKeyLess>;
  Gathered gathered;
  // The series of the previous run's n-th (variant, metric), tried first: the runs of a
  // history mostly hold the same benchmarks in the same order.
  std::vector<Gathered::iterator> recent;
  // Point keys (a commit, or "run:" and a run's uuid) numbered in the order met.
  std::unordered_map<std::string, uint32_t> point_ids;
  FollowedCache followed;                                          // of add(RunData)
  std::shared_ptr<TextPool> texts = std::make_shared<TextPool>();  // the points' texts
};

HistoryBuilder::HistoryBuilder(const HistoryOptions& options) : state_(std::make_unique<State>()) {
  state_->options = options;
  for (size_t i = 0; i < options.commits.size(); ++i)
    state_->position.emplace(options.commits[i], i);
}

HistoryBuilder::~HistoryBuilder() = default;

void HistoryBuilder::add(const RunData& run) {
  std::vector<std::vector<std::string>> measured;
  std::vector<std::string> settings;
  measured.reserve(run.variants.size());
  settings.reserve(run.variants.size());
  for (const auto& v : run.variants) {
    measured.push_back(metrics_of(v));
    settings.push_back(settings_of(v));
  }
  Prepared sources;
  sources.reserve(run.variants.size());
  for (std::size_t k = 0; k < run.variants.size(); ++k) {
    const VariantData& v = run.variants[k];
    sources.push_back(variant_source(v.variant.benchmark, v.variant.name, counted_by_simulation(v),
                                     measured[k], v.summaries, settings[k], state_->options,
                                     state_->followed, [&](const std::string& m) {
                                       MetricSample s = extract(v, m, state_->options.burn_in);
                                       return std::pair{std::move(s.metric), std::move(s.data)};
                                     }));
  }
  add_sources(run.run, run.id, sources);
}

HistoryBuilder::Prepared HistoryBuilder::prepare(const RunSeries& series) const {
  Prepared sources;
  sources.reserve(series.variants().size());
  FollowedCache followed;
  for (const auto& v : series.variants())
    sources.push_back(variant_source(v.benchmark, v.name, v.simulated, v.measured, v.summaries,
                                     v.settings, state_->options, followed,
                                     [&](const std::string& m) {
                                       const RunSeries::Metric* c = v.find(m);
                                       if (c == nullptr)
                                         return std::pair{metric_info(m), stats::Hierarchical{}};
                                       return std::pair{c->info, series.data(*c)};
                                     }));
  return sources;
}

void HistoryBuilder::add(const RunRecord& run, int64_t id, const RunSeries& series) {
  add(run, id, prepare(series));
}

void HistoryBuilder::add(const RunRecord& run, int64_t id, Prepared prepared) {
  add_sources(run, id, prepared);
}

void HistoryBuilder::add_sources(const RunRecord& run, int64_t id,
                                 std::span<VariantSource> variants) {
  const HistoryOptions& options = state_->options;
  if (!is_history_run(run)) return;
  if (!options.commits.empty() && !state_->position.contains(run.git_commit)) {
    ++state_->skipped_commit;
    return;
  }
  if (options.commits.empty() && !options.branch.empty() && run.git_branch != options.branch)
    return;
  const std::string machine = machine_class(run);
  ++state_->runs;
  state_->machines.insert(machine);
  // The names met. A variant mostly measures what the one before it did, and the n-th variant
  // of a run is mostly the previous run's n-th: a name is looked up only when it differs from
  // the one it follows there (millions of lookups in a history of a million points were a
  // tenth of loading it).
  auto& named = state_->named;
  if (named.size() < variants.size()) named.resize(variants.size());
  for (std::size_t k = 0; k < variants.size(); ++k) {
    const auto& v = variants[k];
    if (named[k] != *v.benchmark) {
      state_->benchmarks.insert(*v.benchmark);
      named[k] = *v.benchmark;
    }
    if (*v.measured != state_->measured) {
      for (const auto& m : *v.measured) state_->metric_names.insert(m);
      state_->measured = *v.measured;
    }
    for (const auto& s : *v.summaries)
      if (!state_->metric_names.contains(s.metric)) state_->metric_names.insert(s.metric);
  }
  if (!options.machine.empty() && machine != options.machine) return;
  const std::string point_key = run.git_commit.empty() ? "run:" + run.uuid : run.git_commit;
  const uint32_t point_id =
      state_->point_ids.try_emplace(point_key, static_cast<uint32_t>(state_->point_ids.size()))
          .first->second;
  TextPool& texts = *state_->texts;
  const SharedText commit = texts.keep(run.git_commit);
  const SharedText branch = texts.keep(run.git_branch);
  const SharedText uuid = texts.keep(run.uuid);
  const int64_t ctime = commit_time_ns(run);
  const int64_t time = ctime > 0 ? ctime : run.started_at;
  std::size_t slot = 0;  // into state_->recent
  for (auto& v : variants) {
    const std::string& benchmark = *v.benchmark;
    const std::string& name = *v.name;
    for (auto& sample : v.samples) {
      const std::string& m = sample.metric;
      auto& data = sample.data;
      auto& recent = state_->recent;
      auto it = state_->gathered.end();
      if (slot < recent.size()) {
        const SeriesKey& k = recent[slot]->first;
        if (std::get<0>(k) == benchmark && std::get<1>(k) == name && std::get<2>(k) == m &&
            std::get<3>(k) == machine)
          it = recent[slot];
      }
      if (it == state_->gathered.end())
        it = state_->gathered.find(SeriesKeyView(benchmark, name, m, machine));
      if (it == state_->gathered.end()) {
        it = state_->gathered.try_emplace({benchmark, name, m, machine}).first;
        Gathering& g = it->second;
        g.series.benchmark = benchmark;
        g.series.variant = name;
        g.series.machine = machine;
        g.series.metric = std::move(sample.info);
        g.series.texts = state_->texts;
      }
      if (slot < recent.size())
        recent[slot] = it;
      else
        recent.push_back(it);
      ++slot;
      Gathering& g = it->second;
      if (g.point_of.size() == point_id)
        g.point_of.push_back(0);  // mostly: a run of a commit not met before
      else if (g.point_of.size() < point_id)
        g.point_of.resize(point_id + 1, 0);
      if (g.point_of[point_id] == 0) {
        HistoryPoint& point = g.series.points.emplace_back();
        point.commit = commit;
        point.branch = branch;
        point.time = time;
        // Mostly the settings of the point before: looked for from the newest.
        auto& known = g.series.settings;
        const std::string& settings = *v.settings;
        std::size_t at = known.size();
        while (at > 0 && known[at - 1] != settings) --at;
        if (at == 0) {
          known.push_back(settings);
          at = known.size();
        }
        point.settings = static_cast<uint32_t>(at - 1);
        g.point_of[point_id] = static_cast<uint32_t>(g.series.points.size());
      }
      HistoryPoint& point = g.series.points[g.point_of[point_id] - 1];
      if (point.runs.empty() || point.runs.back() != id) {
        point.runs.push_back(id);
        point.run_uuids.push_back(uuid);
      }
      if (point.data.empty())
        point.data = std::move(data);  // holds no empty instance: as add_instance() would
      else
        for (size_t i = 0; i < data.instances(); ++i) point.data.add_instance(data.instance(i));
      if (sample.summary != nullptr) point.summaries.push_back(*sample.summary);
    }
  }
}

std::vector<std::string> differing_settings(const HistorySeries& series) {
  if (series.settings.size() < 2) return {};
  std::vector<bool> used(series.settings.size(), false);
  for (const auto& p : series.points) used[p.settings] = true;
  // key -> its values, in the order of the settings met; a key a variant does not record is
  // "none".
  std::vector<std::pair<std::string, std::vector<std::string>>> values;
  for (const char* key : kSettingKeys) values.push_back({key, {}});
  const auto value_of = [](std::string_view words, std::string_view key) -> std::string {
    std::size_t at = 0;
    while (at < words.size()) {
      const std::size_t end = std::min(words.find(' ', at), words.size());
      const std::string_view word = words.substr(at, end - at);
      if (word.size() > key.size() && word.substr(0, key.size()) == key && word[key.size()] == '=')
        return std::string(word.substr(key.size() + 1));
      at = end + 1;
    }
    return "none";
  };
  for (std::size_t i = 0; i < series.settings.size(); ++i) {
    if (!used[i]) continue;
    for (auto& [key, seen] : values) {
      std::string v = value_of(series.settings[i], key);
      if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(std::move(v));
    }
  }
  std::vector<std::string> out;
  for (const auto& [key, seen] : values) {
    if (seen.size() < 2) continue;
    std::string text = key;
    for (std::size_t k = 0; k < seen.size(); ++k) text += (k == 0 ? " " : ", ") + seen[k];
    out.push_back(std::move(text));
  }
  return out;
}

History HistoryBuilder::finish() {
  const HistoryOptions& options = state_->options;
  History out;
  if (state_->skipped_commit > 0)
    out.warnings.push_back(fmt::format("{} run(s) of commits outside the history followed left out",
                                       state_->skipped_commit));
  const auto& position = state_->position;
  // Each series is finished on its own, several at once; they are kept in the map's order.
  std::vector<HistorySeries*> gathered;
  gathered.reserve(state_->gathered.size());
  for (auto& [key, g] : state_->gathered) gathered.push_back(&g.series);
  const auto finish_series = [&](HistorySeries& s, TQuantiles& quantile,
                                 std::vector<double>& means) {
    // Runs are mostly added in the order of their commits: the points are then in order
    // already, and a sort would only move them.
    if (!options.commits.empty()) {
      const auto before = [&](const auto& a, const auto& b) {
        return position.at(a.commit) < position.at(b.commit);
      };
      if (!std::is_sorted(s.points.begin(), s.points.end(), before))
        std::stable_sort(s.points.begin(), s.points.end(), before);
    } else {
      const auto before = [](const auto& a, const auto& b) { return a.time < b.time; };
      if (!std::is_sorted(s.points.begin(), s.points.end(), before))
        std::stable_sort(s.points.begin(), s.points.end(), before);
    }
    if (options.since > 0)
      std::erase_if(s.points, [&](const HistoryPoint& p) { return p.time < options.since; });
    if (options.last > 0 && s.points.size() > options.last)
      s.points.erase(s.points.begin(), s.points.end() - static_cast<std::ptrdiff_t>(options.last));
    for (auto& p : s.points) {
      means.clear();
      if (p.summary()) {
        double weighted = 0;
        for (const auto& x : p.summaries) {
          means.push_back(x.mean);
          weighted += x.mean * static_cast<double>(x.count);
        }
        const int64_t n = p.summarised();
        p.centre = n > 0 ? weighted / static_cast<double>(n) : stats::mean(means);
        p.interval = mean_interval(means, quantile);
        continue;
      }
      // stats::instance_means, into a vector that is reused.
      for (std::size_t i = 0; i < p.data.instances(); ++i)
        means.push_back(stats::mean(p.data.instance(i)));
      p.centre = stats::mean(means);
      p.interval = mean_interval(means, quantile);
    }
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, gathered.size(), 16),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      TQuantiles quantile;
                      std::vector<double> means;
                      for (std::size_t i = range.begin(); i != range.end(); ++i)
                        finish_series(*gathered[i], quantile, means);
                    });
  for (HistorySeries* s : gathered)
    if (!s->points.empty()) out.series.push_back(std::move(*s));
  state_->recent.clear();
  state_->gathered.clear();
  out.benchmarks.assign(state_->benchmarks.begin(), state_->benchmarks.end());
  out.metrics.assign(state_->metric_names.begin(), state_->metric_names.end());
  out.machines.assign(state_->machines.begin(), state_->machines.end());
  std::sort(out.benchmarks.begin(), out.benchmarks.end());
  std::sort(out.metrics.begin(), out.metrics.end());
  std::sort(out.machines.begin(), out.machines.end());
  out.runs = state_->runs;
  return out;
}

namespace {

// "a, b, c" (at most 12, then "and N more").
std::string listing(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 12; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 12) s += fmt::format(" and {} more", names.size() - 12);
  return s;
}

Status unmatched(const std::string& what, const std::string& name,
                 const std::vector<std::string>& known, const std::string& where) {
  const std::string near = closest_name(name, known);
  return Error{fmt::format("no {} '{}' in the history of {}{}; {}: {}", what, escape_name(name),
                           where, near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                           what == "machine class" ? "machine classes" : what + "s",
                           known.empty() ? "none" : listing(known))};
}

}  // namespace

void free_series(History& history) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, history.series.size(), 16),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i != range.end(); ++i)
                        std::vector<HistoryPoint>().swap(history.series[i].points);
                    });
  history.series.clear();
}

Status check_selection(const History& history, const HistoryOptions& options,
                       const std::string& where) {
  if (history.runs == 0)
    return Error{fmt::format(
        "no finished runs in the history of {}{}: run the suite first (probe runs of ab, "
        "bisect, calibrate and run --null are not history)",
        where, options.branch.empty() ? "" : " on branch " + options.branch)};
  for (const auto& b : options.benchmarks)
    if (!std::binary_search(history.benchmarks.begin(), history.benchmarks.end(), b))
      return unmatched("benchmark", b, history.benchmarks, where);
  for (const auto& m : options.metrics)
    if (m != "all" && !std::binary_search(history.metrics.begin(), history.metrics.end(), m))
      return unmatched("metric", m, history.metrics, where);
  if (!options.machine.empty() &&
      !std::binary_search(history.machines.begin(), history.machines.end(), options.machine))
    return unmatched("machine class", options.machine, history.machines, where);
  return ok_status();
}

History build_history(const std::vector<RunData>& runs, const HistoryOptions& options) {
  // Oldest runs first, so that each point's first run is its oldest.
  std::vector<const RunData*> ordered;
  ordered.reserve(runs.size());
  for (const auto& r : runs) ordered.push_back(&r);
  std::stable_sort(ordered.begin(), ordered.end(), [](const RunData* a, const RunData* b) {
    return std::tie(a->run.started_at, a->id) < std::tie(b->run.started_at, b->id);
  });
  HistoryBuilder builder(options);
  for (const RunData* r : ordered) builder.add(*r);
  return builder.finish();
}

}  // namespace benchguard::analysis
