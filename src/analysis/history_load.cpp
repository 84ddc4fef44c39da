#include "analysis/history_load.hpp"

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

#include "analysis/series_cache.hpp"

namespace benchguard::analysis {

bool in_history(const store::RunSummary& r, const HistoryOptions& options,
                const std::set<std::string>& commits) {
  if (!is_history_run(r.status, r.labels)) return false;
  if (!commits.empty()) return commits.contains(r.git_commit);
  return options.branch.empty() || r.git_branch == options.branch;
}

Result<History> load_history(store::Store& store, const HistoryOptions& options) {
  BG_ASSIGN(auto summaries, store.list_runs({.counts = false}));
  return load_history(store, options, std::move(summaries));
}

namespace {

// The runs history reads, oldest first (as build_history orders them).
void history_runs(const HistoryOptions& options, std::vector<store::RunSummary>& summaries) {
  const std::set<std::string> commits(options.commits.begin(), options.commits.end());
  std::erase_if(summaries, [&](const auto& s) { return !in_history(s, options, commits); });
  std::stable_sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.started_at, a.id) < std::tie(b.started_at, b.id);
  });
}

// A run as history takes it: its series cache entry, read or derived.
struct ReadRun {
  RunRecord run;
  int64_t id = 0;
  std::optional<RunSeries> series;  // else `records`
  std::optional<RunData> records;
  bool derived = false;  // `series` derived here, not read: to be saved
  std::string warning;
  std::optional<HistoryBuilder::Prepared> prepared;  // of `series`, when made ahead
};

// Reads run `id` through `reader`: from its entry under `key` when it has a readable one (the
// variants of `only`'s benchmarks alone, when given); else from its records, deriving the
// entry when `derive` (the caller saves it).
Result<ReadRun> read_run(store::Store& reader, int64_t id, const std::string& key,
                         const BurnInPolicy& policy, bool derive,
                         const std::vector<std::string>& only) {
  ReadRun out;
  out.id = id;
  BG_ASSIGN(store::CachedRun cached, reader.load_cached_run(id, key, {.columns = true}));
  if (cached.cache) {
    auto series = RunSeries::decode(std::move(*cached.cache), only);
    if (series.ok()) {
      out.run = std::move(cached.data.run);
      out.series = std::move(*series);
      return out;
    }
    out.warning = fmt::format(
        "run {}: its series cache entry cannot be read ({}), so its instances were read; "
        "`benchguard db check` checks the cache",
        id, series.error().message);
    BG_ASSIGN(cached.data, reader.load_run(std::to_string(id), {.columns = true}));
  }
  out.run = cached.data.run;
  if (derive && is_history_run(cached.data.run)) {
    out.series = RunSeries::of(cached.data, policy);
    out.derived = true;
  } else {
    out.records = std::move(cached.data);
  }
  return out;
}

void add_read(HistoryBuilder& builder, ReadRun& r) {
  if (r.prepared)
    builder.add(r.run, r.id, std::move(*r.prepared));
  else if (r.series)
    builder.add(r.run, r.id, *r.series);
  else
    builder.add(*r.records);
}

}  // namespace

Result<History> load_history(store::Store& store, const HistoryOptions& options,
                             std::vector<store::RunSummary> summaries) {
  // One run in memory at a time. Entries of runs that have none yet are derived and saved, a
  // batch at a time, where the store may be written.
  history_runs(options, summaries);
  const std::string key = series_cache_key(options.burn_in);
  const bool derive = store.writable();
  HistoryBuilder builder(options);
  std::vector<std::string> warnings;
  std::vector<store::SeriesCacheEntry> fill;
  const auto save = [&]() -> Status {
    if (!fill.empty()) BG_TRY(store.save_series_cache(fill));
    fill.clear();
    return ok_status();
  };
  for (const auto& s : summaries) {
    BG_ASSIGN(ReadRun r, read_run(store, s.id, key, options.burn_in, derive, {}));
    add_read(builder, r);
    if (!r.warning.empty()) warnings.push_back(std::move(r.warning));
    if (r.derived) fill.push_back({r.id, key, r.series->bytes()});
    if (fill.size() >= kSeriesCacheBatch) BG_TRY(save());
  }
  BG_TRY(save());
  History out = builder.finish();
  out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
  return out;
}

Result<History> load_history(const store::StoreOpener& open_reader, const HistoryOptions& options,
                             std::vector<store::RunSummary> summaries, store::Store* save_to,
                             Variants read) {
  static const std::vector<std::string> kEvery;
  const auto& only = read == Variants::kNamed ? options.benchmarks : kEvery;
  history_runs(options, summaries);
  const std::string key = series_cache_key(options.burn_in);
  const bool derive = save_to != nullptr && save_to->writable();
  std::vector<store::SeriesCacheEntry> fill;  // derived entries, saved once every run is read
  // Three stages: hand out the runs in order; read each on the calling thread's own
  // connection, several at once; add them to the series in order. At most `tokens` runs are in
  // memory at once.
  tbb::enumerable_thread_specific<std::unique_ptr<store::Store>> readers;
  std::mutex failure_mutex;
  std::optional<Error> failed;
  std::atomic<bool> stop{false};  // set with `failed`: no more runs are handed out
  const auto fail = [&](const Error& e) {
    const std::lock_guard lock(failure_mutex);
    if (!failed) failed = e;
    stop = true;
  };
  HistoryBuilder builder(options);
  std::vector<std::string> warnings;
  size_t next = 0;
  const size_t tokens = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  tbb::parallel_pipeline(
      tokens, tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                             [&](tbb::flow_control& fc) -> size_t {
                                               if (next == summaries.size() || stop) fc.stop();
                                               return next < summaries.size() ? next++ : 0;
                                             }) &
                  tbb::make_filter<size_t, std::shared_ptr<ReadRun>>(
                      tbb::filter_mode::parallel,
                      [&](size_t k) -> std::shared_ptr<ReadRun> {
                        auto& reader = readers.local();
                        if (!reader) {
                          auto opened = open_reader();
                          if (!opened.ok()) return fail(opened.error()), nullptr;
                          reader = std::move(*opened);
                        }
                        auto r =
                            read_run(*reader, summaries[k].id, key, options.burn_in, derive, only);
                        if (!r.ok()) return fail(r.error()), nullptr;
                        auto read = std::make_shared<ReadRun>(std::move(*r));
                        // Decoding the values here keeps them off the stage that adds runs
                        // one at a time.
                        if (read->series) read->prepared = builder.prepare(*read->series);
                        return read;
                      }) &
                  tbb::make_filter<std::shared_ptr<ReadRun>, void>(
                      tbb::filter_mode::serial_in_order, [&](const std::shared_ptr<ReadRun>& r) {
                        if (r == nullptr) return;
                        add_read(builder, *r);
                        if (!r->warning.empty()) warnings.push_back(r->warning);
                        if (r->derived) fill.push_back({r->id, key, r->series->bytes()});
                      }));
  if (failed) return *failed;
  readers.clear();  // their read transactions end before the entries are written
  if (!fill.empty()) BG_TRY(save_to->save_series_cache(fill));
  History out = builder.finish();
  out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace benchguard::analysis
