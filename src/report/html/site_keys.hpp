// The keys of the dashboard's reuse (docs/dashboard.md): what the whole site, each of its pages
// and the state a following build starts from were made from, hashed. This build of
// benchguard, every option that shapes the site, the runs as listed, the stored change points,
// detection states and acknowledgements, a benchmark page's points: a build that finds a key
// unchanged keeps what the previous build made from it (site_reuse.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/gate.hpp"
#include "analysis/history.hpp"
#include "core/hash.hpp"
#include "report/html/site.hpp"
#include "report/html/site_data.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

// A run as listed: a page made from it is made again when any of this changes (a pruned
// benchmark changes its counts, a resumed run its status and end).
void add_run(Fnv1a& h, const store::RunSummary& r);

// What every key holds: this build of benchguard and every option (for a page key, as
// resolved: `--metric all` named). Unset (no key, nothing kept) without a build id.
std::optional<Fnv1a> key_base(std::string_view tag, const SiteOptions& o);

// A key as text: its hash in 16 hex digits.
std::string key_text(const Fnv1a& h);

// The key of benchmark page `g`: everything benchmark_data shows of its series. Each point's
// commit index (its place in data/commits.js), values and runs as listed (the instance values
// shown come from those runs, read under the options `base` holds), and the change points of
// its series with their acknowledgements.
std::string group_key(Fnv1a h, std::size_t g, const std::string& title,
                      const std::vector<const analysis::HistorySeries*>& series,
                      const std::vector<analysis::ChangeRow>& rows, const CommitTable& commits,
                      const std::unordered_map<int64_t, int64_t>& run_hash);

// The store as a site shows it: the runs as listed, their measurements' stamp, the stored
// change points (every field the pages show, not when it was detected), the detection states
// they were found with, and acknowledgements.
std::string fingerprint_of(const std::string& stamp, const std::vector<store::RunSummary>& runs,
                           const std::vector<store::ChangeRecord>& changes,
                           const std::vector<store::SeriesState>& states,
                           const std::vector<store::AckRecord>& acks);

// What each series' change points are found from besides its points: its stored change
// points (every field the pages show) and its stored detection state.
std::map<std::string, std::string> series_inputs(const std::vector<store::ChangeRecord>& stored,
                                                 const std::vector<store::SeriesState>& states);

// Every acknowledgement as the pages show them, hashed (SiteState::acks).
std::string acks_hash(const std::vector<store::AckRecord>& acks);

}  // namespace benchguard::report::html
