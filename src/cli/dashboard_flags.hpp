// Flags `report --html` and `serve` share: which series, and how the pages are built.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/analysis_flags.hpp"
#include "cli/history_flags.hpp"  // now_ns
#include "core/units.hpp"
#include "report/html/site.hpp"

namespace benchguard::cli {

struct DashboardFlags {
  AnalysisFlags analysis;
  std::string branch;
  std::string machine;
  std::size_t run_pages = 20;
  std::string title = "benchguard";
  std::string plan_run;
  std::size_t compare_runs = 8;
  std::string target = "5%";

  void add_to(CLI::App* c, bool static_site) {
    c->add_option("--metric", analysis.metrics,
                  "Metric(s) charted, one chart each on a benchmark's page, or all (those of the "
                  "newest run; default: wall_time)");
    c->add_option("--burn-in", analysis.burn_in,
                  "auto (flagged + detected), configured (flagged only), or a count per instance");
    c->add_option("--resamples", analysis.resamples, "Bootstrap resamples (run pages, A/B table)")
        ->check(CLI::Range(100, 10000000));
    c->add_option("--seed", analysis.seed, "Seed of the bootstrap (same seed, same answer)");
    c->add_option("--branch", branch, "Only runs recorded on this branch");
    c->add_option("--machine", machine, "Only this machine class (see `history`)");
    if (static_site) {
      c->add_option("--run-pages", run_pages, "The newest N runs get a page of their own");
      c->add_option("--plan", plan_run,
                    "Add the plan page of this run: minimal detectable slowdown per "
                    "instances x iterations (serve: any run's, on request)");
    }
    c->add_option("--target", target, "The slowdown the plan page is to detect (5%)");
    c->add_option("--compare-runs", compare_runs,
                  "The compare page: the newest N runs against the run before them")
        ->check(CLI::Range(1, 1000));
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
    o.plan_run = plan_run;
    o.compare_runs = compare_runs;
    BG_ASSIGN(o.plan_target, parse_fraction(target, "--target"));
    if (!(o.plan_target > 0)) return Error{"--target must be a slowdown above 0%, e.g. 5%"};
    return o;
  }
};

}  // namespace benchguard::cli
