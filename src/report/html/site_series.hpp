// Grouping and detection (docs/dashboard.md): the series of the history grouped into benchmark
// pages (a benchmark variant on one machine class each), their change points detected in
// memory from the stored ones, and the pages made from them: the overview, the regressions
// page and every benchmark page, a page whose key is unchanged kept from the previous build.
// What both ways of building those pages share: from the whole history (every_series) or
// following the previous build (site_follow.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/gate.hpp"
#include "analysis/history.hpp"
#include "core/hash.hpp"
#include "report/html/site.hpp"
#include "report/html/site_data.hpp"
#include "report/html/site_state.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

// The series of one benchmark variant on one machine class: one page, a chart per metric.
struct Group {
  std::string benchmark, variant, machine;
  std::vector<std::size_t> series;  // into History::series
};

// The file of benchmark page `g`.
std::string group_page(std::size_t g);

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

// The change points of `history`'s series with their acknowledgements, and its groups, the
// series of each in the order the metrics were asked for (wall_time first with all).
struct Detected {
  std::vector<analysis::ChangeRow> rows;
  std::vector<Group> groups;
};
Detected detect_and_group(const SeriesContext& ctx, const analysis::History& history);

// Each series' change points, by series index.
std::vector<std::vector<const analysis::ChangeRow*>> rows_by_series(
    const analysis::History& history, const std::vector<analysis::ChangeRow>& rows);

// Series `i` of `history` as the state keeps it: its overview row and regressions rows.
SiteState::Series series_entry(const SeriesContext& ctx, const analysis::History& history,
                               std::size_t i, const std::vector<const analysis::ChangeRow*>& rows,
                               std::size_t group, const CommitTable& commits);

// The overview and the regressions page from every series' entry.
void render_summaries(SeriesPages& out, const SiteOptions& options);

// Benchmark page `number` of `grp`: kept from the previous build when its key is unchanged
// (then true).
bool render_group(const SeriesContext& ctx, const analysis::History& history,
                  const std::vector<analysis::ChangeRow>& rows, const CommitTable& commits,
                  std::size_t number, const Group& grp, SeriesPages& out);

// Every series' pages from the whole history.
SeriesPages every_series(const SeriesContext& ctx, analysis::History history);

}  // namespace benchguard::report::html
