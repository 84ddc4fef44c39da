// Flags `report --html` and `serve` share: which series, and how the pages are built.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <string>

#include "cli/analysis_flags.hpp"
#include "report/html/site.hpp"

namespace benchguard::cli {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct DashboardFlags {
  AnalysisFlags analysis;
  std::string branch;
  std::string machine;
  std::size_t run_pages = 20;
  std::string title = "benchguard";

  void add_to(CLI::App* c, bool static_site) {
    analysis.add_to(c);
    c->add_option("--branch", branch, "Only runs recorded on this branch");
    c->add_option("--machine", machine, "Only this machine class (see `history`)");
    if (static_site)
      c->add_option("--run-pages", run_pages, "The newest N runs get a page of their own");
    c->add_option("--title", title, "The overview's heading");
  }

  Result<report::html::SiteOptions> options() const {
    report::html::SiteOptions o;
    o.history.metrics = analysis.metrics;
    o.history.branch = branch;
    o.history.machine = machine;
    BG_ASSIGN(o.history.burn_in, analysis.burn_in_policy());
    BG_ASSIGN(o.summary, analysis.summary_options());
    // As `detect` and `gate` by default, so that their stored results are reused.
    o.detect.seed = 1;
    o.detect.verdict.seed = 1;
    o.run_pages = run_pages;
    o.title = title;
    return o;
  }
};

}  // namespace benchguard::cli
