// The follow plan (docs/dashboard.md): a build into a directory whose previous build's state
// (site_state.hpp) still holds, where nothing changed but runs added after its runs and the
// change points of some series, reads the history of the benchmarks those runs measured alone
// and makes only their pages again; every other page is kept as that build wrote it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/history.hpp"
#include "core/result.hpp"
#include "report/html/site_series.hpp"
#include "report/html/site_state.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

// A build that can follow the previous one: its state, and the benchmarks whose series are to
// be made again (the others are as that build left them).
struct FollowPlan {
  SiteState state;
  std::vector<std::string> benchmarks;  // sorted
};

// Whether the series' pages of the previous build can be kept but for the series new runs
// measure: nothing it was made from changed but runs added after its runs, of commits it did
// not have, and the change points and detection states of some series. Then the benchmarks to
// make again; nothing means the whole site is built.
Result<std::optional<FollowPlan>> plan_follow(store::Store& store, const SeriesContext& ctx);

// The series' pages of the previous build with those of `history` (the series of the plan's
// benchmarks) made again. Nothing when the history does not fit the previous build's series,
// or a page to keep is no longer as it wrote it.
std::optional<SeriesPages> follow_series(const SeriesContext& ctx, FollowPlan plan,
                                         analysis::History history);

}  // namespace benchguard::report::html
