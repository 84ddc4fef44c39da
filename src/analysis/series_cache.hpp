// The series cache (docs/store.md "Series cache"): what history takes from a finished run,
// derived once and kept beside the run, so that history, detect and report read it instead of
// the run's instances.
//
// For each benchmark variant of the run: its name, the metrics it measured (metrics_of), its
// summary records, whether Valgrind counted it, its settings (settings_of), and for each of those
// metrics its description and its steady-state values per instance under one burn-in policy
// (extract()'s `data`, bit for bit). A point built from the cache is therefore the point built from
// the instances: every statistic of history (centres, intervals, head checks, the confirmation of a
// change point) comes out the same.
//
// The store keeps the bytes under a key that names the encoding and the burn-in policy
// (series_cache_key); a change to the encoding or to how extract() derives values must change
// kSeriesCacheVersion, so that older entries are no longer read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/samples.hpp"
#include "core/model.hpp"
#include "core/result.hpp"
#include "stats/hierarchical.hpp"
#include "store/store.hpp"

namespace benchguard::analysis {

inline constexpr int kSeriesCacheVersion = 3;
// Entries saved to a transaction when history derives them as it reads.
inline constexpr std::size_t kSeriesCacheBatch = 64;

// "history/3 burn-in=auto": the key of the entries derived under `policy`.
std::string series_cache_key(const BurnInPolicy& policy);

// One run's entry: its encoded bytes, read without copying the values until asked for.
class RunSeries {
 public:
  struct Metric {
    MetricInfo info;
    std::size_t instances = 0;  // with values (extract() leaves the others out)
    std::size_t values = 0;
    std::size_t offset = 0;     // of the instance sizes in the bytes
    std::size_t values_at = 0;  // of the values
  };
  struct Variant {
    std::string benchmark;
    std::string name;
    bool simulated = false;             // counted_by_simulation
    std::string settings;               // settings_of
    std::vector<std::string> measured;  // metrics_of, in its order
    std::vector<SummaryRecord> summaries;
    std::vector<Metric> metrics;  // the measured ones, then the summaries' others
    const Metric* find(const std::string& metric) const;
  };

  // Derives a run's entry: every variant, every metric it measured or summarised.
  static RunSeries of(const RunData& run, const BurnInPolicy& policy);
  // Reads an entry; an Error saying what is wrong with bytes this version did not write. With
  // `only`, the variants of those benchmarks alone (the others are passed over, checked for
  // no more than their bounds).
  static Result<RunSeries> decode(std::string bytes, const std::vector<std::string>& only = {});

  const std::string& bytes() const { return bytes_; }
  const std::vector<Variant>& variants() const { return variants_; }
  // The metric's steady-state values, one group per instance.
  stats::Hierarchical data(const Metric& metric) const;

 private:
  std::string bytes_;
  std::vector<Variant> variants_;
};

// Derives and saves the entries of the runs of `ids` that history reads (is_history_run) and
// that have none under `policy`'s key yet (every one with `again`, replacing what is there),
// `batch` runs to a transaction. Returns how many it saved. A store opened read-only saves
// nothing (and is no error).
Result<std::size_t> cache_run_series(store::Store& store, const std::vector<int64_t>& ids,
                                     const BurnInPolicy& policy = {},
                                     std::size_t batch = kSeriesCacheBatch, bool again = false);

// cache_run_series of every run of the store (db merge, db prune, db cache).
Result<std::size_t> cache_store_series(store::Store& store, bool again = false);

// What `db check` finds in the cache: every entry under the default policy's key derived
// again from its run and compared byte for byte.
struct SeriesCacheCheck {
  std::size_t entries = 0;            // checked
  std::vector<std::string> problems;  // "run 12: ..."
};
Result<SeriesCacheCheck> check_series_cache(store::Store& store);
// The same for `db check`, on a store `open` gives, added to `report` as `series_cache`
// problems, where the store's own check found nothing else; returns the entries derived again.
std::size_t check_series_cache(store::CheckReport& report, const store::StoreOpener& open);

}  // namespace benchguard::analysis
