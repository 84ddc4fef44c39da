// The data of each dashboard page, as the JSON its script reads (docs/dashboard.md).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
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

// data/commits.js: the commits table and which runs have a page (and a plan page), for every
// page that links to them. With all_run_pages every run has both (serve).
std::string commits_script(const CommitTable& commits, const std::vector<int64_t>& run_pages,
                           const std::vector<int64_t>& plan_pages, bool all_run_pages);

nlohmann::json overview_data(const analysis::History& history,
                             const std::vector<analysis::ChangeRow>& changes,
                             const std::map<std::string, std::size_t>& group_of,
                             const CommitTable& commits, const SiteOptions& options);

nlohmann::json regressions_data(const analysis::History& history,
                                const std::vector<analysis::ChangeRow>& changes,
                                const std::map<std::string, std::size_t>& group_of);

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
