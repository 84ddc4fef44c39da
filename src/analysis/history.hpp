// History over commits: stored runs turned into series, one per benchmark variant, metric and
// machine class, ordered by commit, one point per commit (docs/history.md).
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "analysis/history_runs.hpp"
#include "analysis/samples.hpp"
#include "core/model.hpp"
#include "stats/confidence.hpp"
#include "stats/hierarchical.hpp"

namespace benchguard::analysis {

// The run label that names a machine class (overrides the host fingerprint).
inline constexpr const char* kMachineLabel = "machine";
// The artifact `run` records with the committer time of the run's commit (unix seconds).
inline constexpr const char* kCommitTimeArtifact = "git_commit_time";

// The machine class of a run: its `machine` label when set; else the host fingerprint from
// its artifacts, "CPU MODEL, N CPUs, M GiB, OS" (the parts it has); else its hostname; else
// "unknown". Runs of one class are comparable over time; runs of two classes are not.
std::string machine_class(const RunRecord& run);

class RunSeries;

struct HistoryOptions {
  std::vector<std::string> benchmarks;  // exact names; empty: every benchmark
  // Empty: every metric a series has, as `compare` chooses them (wall time and peak memory,
  // the benchmark's own metrics, an imported file's columns); {"all"}: every metric.
  std::vector<std::string> metrics;
  // Followed too, where a series has them, whatever `metrics` selects (gate --require).
  std::vector<std::string> also;
  std::string machine;  // one machine class; empty: every class
  std::string branch;   // without `commits`: only runs recorded on this branch
  // The commits to follow, oldest first (a branch's first-parent history). When given, points
  // are ordered by it and runs of other commits are left out; otherwise points are ordered by
  // their commit time (the git_commit_time artifact), then the first run's start.
  std::vector<std::string> commits;
  int64_t since = 0;     // unix ns: only points at or after it (commit time, else run start)
  std::size_t last = 0;  // only the newest `last` points of each series; 0: all
  BurnInPolicy burn_in;
};

// Text that many points share (a commit, a branch, a run's uuid), kept once by the history
// (TextPool) and referred to by each point, which allocates nothing for it. Reads as the
// string it refers to; empty by default.
class SharedText {
 public:
  SharedText() = default;
  explicit SharedText(const std::string& kept) : text_(&kept) {}
  const std::string& str() const { return *text_; }
  operator const std::string&() const { return *text_; }  // NOLINT(google-explicit-constructor)
  operator std::string_view() const { return *text_; }    // NOLINT(google-explicit-constructor)
  bool empty() const { return text_->empty(); }
  friend bool operator==(const SharedText& a, const SharedText& b) {
    return a.text_ == b.text_ || *a.text_ == *b.text_;
  }
  friend bool operator==(const SharedText& a, std::string_view b) { return *a.text_ == b; }
  friend std::ostream& operator<<(std::ostream& out, const SharedText& t) {
    return out << *t.text_;
  }

 private:
  inline static const std::string kEmpty;
  const std::string* text_ = &kEmpty;
};

template <class Json>
void to_json(Json& j, const SharedText& t) {
  j = t.str();
}

// Where the shared texts of a history's points live: one copy of each distinct text. Every
// series holds the pool of its points, so a series copied out of its history stays whole.
class TextPool {
 public:
  SharedText keep(const std::string& text) { return SharedText(*texts_.insert(text).first); }

 private:
  std::unordered_set<std::string> texts_;  // nodes do not move: the texts keep their addresses
};

// One commit of a series: every instance of every run of that commit.
struct HistoryPoint {
  // Moved, never copied, when a series' points grow (small_vector's move is not declared
  // noexcept, though it cannot throw: it allocates nothing).
  HistoryPoint() = default;
  HistoryPoint(const HistoryPoint&) = default;
  HistoryPoint(HistoryPoint&&) noexcept = default;  // NOLINT(bugprone-exception-escape)
  HistoryPoint& operator=(const HistoryPoint&) = default;
  HistoryPoint& operator=(HistoryPoint&&) noexcept = default;  // NOLINT(bugprone-exception-escape)
  ~HistoryPoint() = default;

  SharedText commit;  // the full hash; "" for a run without one (one point per such run)
  SharedText branch;  // the branch the first run was recorded on
  int64_t time = 0;   // the commit time, else the start of its first run (unix ns)
  // Most points have one run: it is held inline, without an allocation of its own.
  boost::container::small_vector<int64_t, 1> runs;  // store ids, oldest first
  boost::container::small_vector<SharedText, 1> run_uuids;
  stats::Hierarchical data;  // the metric's steady-state iterations, one group per instance
  std::size_t instances() const { return data.instances(); }
  // The summary records of the metric from runs of this commit that kept no measurements
  // (pytest-benchmark stats only, Google Benchmark aggregates only, Otava CSV).
  std::vector<SummaryRecord> summaries;
  // A summary point: no instance of this commit measured the metric, only summaries did.
  // Its centre is theirs, it has no instance-level statistics, and a change point that
  // needs it for confirmation stays suspected.
  bool summary() const { return data.empty() && !summaries.empty(); }
  // The measurements behind a summary point, summed over its summaries (0: not known).
  int64_t summarised() const;
  // Instance points: the mean of the instance means, and its 95% Student t interval over
  // instances (NaN for fewer than 2). Summary points: the mean of the summaries' means,
  // weighted by their counts when every count is known, and the t interval over those means
  // when there are 2 or more summaries (NaN otherwise: the spread a summary reports is
  // within one process, not between instances).
  double centre = 0;
  stats::Interval interval{};
  // Its first run's settings (settings_of), as an index into its series' `settings`.
  uint32_t settings = 0;
};

static_assert(std::is_nothrow_move_constructible_v<HistoryPoint>);

struct HistorySeries {
  std::string benchmark;  // the benchmark name, parameters included
  std::string variant;
  std::string machine;
  MetricInfo metric;
  std::vector<HistoryPoint> points;       // oldest first
  std::shared_ptr<const TextPool> texts;  // where its points' commits, branches and uuids live
  // The settings of its runs' variants (settings_of), each once, first met first.
  std::vector<std::string> settings;
  // "benchmark|variant|metric|machine": stable across runs, the key of stored detections.
  std::string key() const;
};

struct History {
  std::vector<HistorySeries> series;  // by benchmark, variant, metric, machine
  std::vector<std::string> warnings;  // runs left out, and why
  // What the history runs (of the commits or branch asked for) hold, whatever the names asked
  // for: sorted, for saying what exists when a name matches nothing.
  std::vector<std::string> benchmarks, metrics, machines;
  std::size_t runs = 0;  // history runs read
};

// The settings in which the points of `series` differ, each as its key and its values in the
// order met ("iterations 1, 6"); empty when they all ran with the same.
std::vector<std::string> differing_settings(const HistorySeries& series);

// Frees the points of `history`'s series, several series at once, leaving it without series:
// a history of a million points takes a quarter of a second to free on one thread. For the
// end of a command that read a long history.
void free_series(History& history);

// An Error when the selection matches nothing: a benchmark, metric or machine class named
// that no history run has (the message lists what exists and the closest name), or no
// history run at all. `where` names the store.
Status check_selection(const History& history, const HistoryOptions& options,
                       const std::string& where);

// The series of `runs` (as loaded from the store; runs that are not is_history_run are left
// out). Deterministic: the same runs give the same series in the same order.
History build_history(const std::vector<RunData>& runs, const HistoryOptions& options);

// build_history one run at a time, so that the runs of a long history need not all be in
// memory together: add() them oldest first (by start, then id), then finish() once.
class HistoryBuilder {
 public:
  explicit HistoryBuilder(const HistoryOptions& options);
  ~HistoryBuilder();
  HistoryBuilder(const HistoryBuilder&) = delete;
  HistoryBuilder& operator=(const HistoryBuilder&) = delete;
  void add(const RunData& run);
  // The same run read from its series cache entry (series_cache.hpp), derived under
  // options.burn_in: the same series as add() of the run's records.
  void add(const RunRecord& run, int64_t id, const RunSeries& series);
  History finish();

  // One followed metric of a benchmark variant of a run: its description, steady-state
  // values and summary record (null when none).
  struct Sample {
    std::string metric;
    MetricInfo info;
    stats::Hierarchical data;
    const SummaryRecord* summary = nullptr;
  };
  // A benchmark variant of a run as the builder takes it, from the run's records or from its
  // series cache entry (which hold the same): its names and what it measured, by reference,
  // and its followed metrics' values (none when the options leave the benchmark out).
  struct VariantSource {
    const std::string* benchmark = nullptr;
    const std::string* name = nullptr;
    const std::vector<std::string>* measured = nullptr;  // metrics_of
    const std::vector<SummaryRecord>* summaries = nullptr;
    const std::string* settings = nullptr;  // settings_of
    std::vector<Sample> samples;
  };
  using Prepared = std::vector<VariantSource>;
  // A run's series cache entry made ready for add(): the values of the metrics followed,
  // decoded. It reads only the options, so runs can be prepared on several threads while
  // add() takes them, in order, on one; what it returns refers to `series`.
  Prepared prepare(const RunSeries& series) const;
  // add(run, id, series) of a run prepare() made ready: the same series.
  void add(const RunRecord& run, int64_t id, Prepared prepared);

 private:
  void add_sources(const RunRecord& run, int64_t id, std::span<VariantSource> variants);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace benchguard::analysis
