// Loading history from a store (docs/history.md): the runs history takes, read from their
// series cache entries (series_cache.hpp) where they have one and from their instances where
// not, deriving and saving the entries they lack, then built into series (history.hpp). What
// `history`, `detect`, the gate and the dashboard read.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analysis/history.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace benchguard::analysis {

// Whether a run belongs to the history `options` asks for, from its summary alone: a history
// run (is_history_run) of one of `commits` (options.commits as a set), else of
// options.branch when given.
bool in_history(const store::RunSummary& r, const HistoryOptions& options,
                const std::set<std::string>& commits);

// Loads what history needs from `store` (finished runs that are not calibration or null
// runs; with options.commits, only runs of those commits; else with options.branch, only runs
// of that branch) and builds the series.
Result<History> load_history(store::Store& store, const HistoryOptions& options);
// The same from `runs`, the store's list_runs() when the caller has it already.
Result<History> load_history(store::Store& store, const HistoryOptions& options,
                             std::vector<store::RunSummary> runs);

// What a history of options.benchmarks reads of each run: every variant, so that
// History::benchmarks and History::metrics list every name the runs have (what
// check_selection suggests from), or the variants of those benchmarks alone, which is faster
// where the names are not needed.
enum class Variants { kEvery, kNamed };
// The same, reading the runs on read-only connections of `open_reader`, one per thread, several
// at once, and decoding their values there, while the series are built in the runs' order on
// one: the same History, in less time on more than one core. With `save_to` (the store the
// runs are listed from, opened for writing), the entries of runs that have none are derived on
// those threads and saved through it once every run is read, as the one-connection version
// saves them.
Result<History> load_history(const store::StoreOpener& open_reader, const HistoryOptions& options,
                             std::vector<store::RunSummary> runs, store::Store* save_to = nullptr,
                             Variants read = Variants::kEvery);

}  // namespace benchguard::analysis
