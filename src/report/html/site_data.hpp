// The data of each dashboard page, as the JSON its script reads (docs/dashboard.md).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/gate.hpp"
#include "analysis/history.hpp"
#include "report/html/site.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

// Every commit of the history (or run uuid, for points without one), ordered by time: series
// refer to them by index.
struct CommitTable {
  struct Entry {
    std::string commit;
    int64_t time = 0;  // unix s
    std::string branch;
  };
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::size_t> index;
  // The same by the address of the history's one copy of each commit (its TextPool): a
  // million points are looked up without hashing their commits.
  std::unordered_map<const std::string*, std::size_t> by_address;
  std::size_t of(const analysis::HistoryPoint& point) const;
};

CommitTable commit_table(const analysis::History& history);

// The table of a history of which `before` (a commit_table's entries) lists the commits
// already known: those of `history`'s points not among them are added after them. Nothing when
// a new commit would come before one of them (their numbers would move).
std::optional<CommitTable> commit_table_after(std::vector<CommitTable::Entry> before,
                                              const analysis::History& history);

// data/commits.js: the commits table and which runs have a page (and a plan page), for every
// page that links to them. With all_run_pages every run has both (serve).
std::string commits_script(const CommitTable& commits, const std::vector<int64_t>& run_pages,
                           const std::vector<int64_t>& plan_pages, bool all_run_pages);

// A series' row of the overview (null when it has no points): `newest` is its newest change
// point, `page` its benchmark page.
nlohmann::json overview_row(const analysis::HistorySeries& s, const analysis::ChangeRow* newest,
                            std::size_t page, const CommitTable& commits,
                            const SiteOptions& options);

// The overview's data as JSON text: the rows of every series in the history's order, each as
// JSON text ("" for a series without points) with its severity, and the counts of their
// statuses.
std::string overview_text(const std::vector<std::pair<std::string_view, int>>& rows,
                          const std::vector<std::string>& warnings);

// The newest (by index) of one series' change points; nullptr when none.
const analysis::ChangeRow* newest_change(const std::vector<const analysis::ChangeRow*>& rows);

// A change point as the regressions page lists it, with its series' unit and page.
nlohmann::json regression_row(const analysis::ChangeRow& row, const std::string& unit,
                              std::optional<std::size_t> page);

// The regressions page's data as JSON text: each series' rows (a JSON array's text), in the
// history's order.
std::string regressions_text(const std::vector<std::string_view>& changes);

nlohmann::json runs_data(const std::vector<store::RunSummary>& runs,
                         const std::vector<int64_t>& run_pages, bool all_run_pages);

nlohmann::json benchmark_data(const std::string& benchmark, const std::string& variant,
                              const std::string& machine,
                              const std::vector<const analysis::HistorySeries*>& series,
                              const std::vector<analysis::ChangeRow>& changes,
                              const CommitTable& commits, const SiteOptions& options);

// The status of a series from its newest change point: regression (confirmed, not
// acknowledged), suspected, acknowledged, ok (no change, or an improvement).
std::string series_status(const analysis::ChangeRow* newest);

}  // namespace benchguard::report::html
