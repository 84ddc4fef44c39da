// Flags `report --html` and `serve` share: which series, and how the pages are built.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "cli/analysis_flags.hpp"
#include "cli/history_flags.hpp"  // now_ns
#include "cli/shared_flags.hpp"
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
  double target = 0.05;

  void add_to(CLI::App* c, bool static_site) {
    add_metrics(c, analysis.metrics);
    add_burn_in(c, analysis.burn_in);
    add_resamples(c, analysis.resamples);
    add_bootstrap_seed(c, analysis.seed);
    add_renamed(c, "--seed", "--bootstrap-seed",
                "the seed of the resampling; --seed is the order a run measures in");
    add_branch(c, branch);
    add_machine(c, machine);
    if (static_site) {
      c->add_option("--run-pages", run_pages, "The newest N runs get a page of their own")
          ->check(whole_number("--run-pages", 0));
      c->add_option("--plan-run", plan_run,
                    "Add the plan page of this run: minimal detectable slowdown per "
                    "instances x iterations (serve: any run's, on request)");
      add_renamed(c, "--plan", "--plan-run",
                  "the run whose plan page is added; --plan is a plan file that run reads");
    }
    add_target(c, target);
    c->add_option("--compare-runs", compare_runs,
                  "The compare page: the newest N runs against the run before them")
        ->check(whole_number("--compare-runs", 1, 1000));
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
    o.plan_target = target;
    return o;
  }
};

}  // namespace benchguard::cli
