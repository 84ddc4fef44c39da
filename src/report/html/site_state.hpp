// What a dashboard build leaves beside its site (kSiteState) so that the next build into that
// directory makes again only what the new runs change (docs/dashboard.md): the runs it was made
// from, its commits table, and for each series its overview row and regressions rows with what
// its change points were found from. A build that finds anything else changed builds the whole
// site.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/html/site_data.hpp"

namespace benchguard::report::html {

struct SiteState {
  struct Series {
    std::string key;  // HistorySeries::key()
    std::string benchmark;
    std::size_t group = 0;  // its benchmark page's number
    std::string inputs;     // its stored change points and detection state
    std::string overview;   // its overview row as JSON text; "" when it has no points
    int severity = 0;       // of its status on the overview
    std::string changes;    // its rows of the regressions page as a JSON array's text
  };
  std::string key;   // this build of benchguard and every option, as resolved
  std::string acks;  // every acknowledgement
  std::vector<std::pair<int64_t, int64_t>> runs;  // every run listed: id, hash as listed
  std::vector<CommitTable::Entry> commits;        // CommitTable::entries
  std::vector<Series> series;                     // in the history's order
  std::size_t groups = 0;                         // benchmark pages
};

// One line each: the version, then "key K", "acks A", "groups N", "run ID HASH",
// "commit [COMMIT,TIME,BRANCH]" and "series GROUP SEVERITY INPUTS [KEY,BENCHMARK]" followed by
// the overview row and the regressions rows, each after a tab (JSON text holds no tab); last
// "end RUNS COMMITS SERIES", so that a state cut short is never read as a whole one.
std::string state_text(const SiteState& state);

// Nothing when the text is not a state this build writes.
std::optional<SiteState> parse_state(std::string_view text);

}  // namespace benchguard::report::html
