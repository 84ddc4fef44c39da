// benchguard plan [RUN|LABEL]: per benchmark, the minimal detectable slowdown of every
// instances x iterations configuration, and the cheapest one that detects the target; writes
// the plan YAML that `run --plan` reads.
#include <fmt/format.h>

#include <fstream>
#include <set>

#include "analysis/plan.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/compare_inputs.hpp"
#include "cli/shared_flags.hpp"
#include "core/atomic_file.hpp"
#include "core/suite.hpp"
#include "core/units.hpp"
#include "report/plan.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct PlanFlags {
  std::string ref = "latest";
  std::vector<std::string> metrics;  // one (empty: wall_time)
  std::string variant;
  double target = 0.05;
  double alpha = 0.05;
  double power = 0.95;
  std::string budget;
  std::string selection = "instance";
  std::string decision = "compare";
  std::string output = "plan.yml";
  VerdictFlags verdict;           // --statistic, --interval, --threshold: as compare's
  analysis::PlanOptions options;  // grid, experiments, resamples, seed, confidence, family
};

Result<analysis::PlanOptions> plan_options(const PlanFlags& f) {
  analysis::PlanOptions o = f.options;
  if (f.metrics.size() > 1) return Error{"plan plans for one metric: give one --metric"};
  if (!f.metrics.empty()) o.metric = f.metrics.front();
  o.target = 1.0 + f.target;
  o.alpha = f.alpha;
  o.power = f.power;
  if (!f.budget.empty()) {
    BG_ASSIGN(o.budget_s, parse_duration(f.budget));
  }
  o.selection = f.selection == "trial" ? stats::Selection::kTrial : stats::Selection::kInstance;
  o.decision = f.decision == "overlap" ? stats::Decision::kOverlap
               : f.decision == "ratio" ? stats::Decision::kRatio
                                       : stats::Decision::kCompare;
  // compare's verdict rule, from the same flags compare reads (analysis_flags.cpp); its
  // confidence is --confidence, its bootstrap resamples (--interval bootstrap) --resamples.
  o.mds.verdict.threshold = f.verdict.threshold;
  BG_ASSIGN(o.mds.verdict.statistic, statistic_from_flag(f.verdict.statistic));
  o.mds.verdict.interval = f.verdict.interval == "bootstrap" ? stats::CiMethod::kExpandedPercentile
                                                             : stats::CiMethod::kStudentT;
  o.mds.verdict.confidence = o.mds.confidence;
  for (const double s : o.mds.slowdowns)
    if (!(s >= 1.0)) return Error{fmt::format("--slowdowns must be at least 1, got {}", s)};
  return o;
}

Status write_plan_file(const std::string& path, const std::string& text) {
  if (auto written = write_file_atomically(path, text); !written.ok())
    return Error{"cannot write the plan to " + path + ": " + written.error().message};
  return ok_status();
}

Result<int> do_plan(Context& ctx, const PlanFlags& f) {
  BG_ASSIGN(analysis::PlanOptions options, plan_options(f));
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  BG_ASSIGN(const RunData run, ctx.resolve_run(*store, f.ref));
  std::vector<const VariantData*> variants;
  for (const auto& v : run.variants)
    if (f.variant.empty() || v.variant.name == f.variant) variants.push_back(&v);
  if (variants.empty())
    return Error{f.variant.empty()
                     ? "run " + run.run.uuid.substr(0, 8) + " has no benchmarks"
                     : "run " + run.run.uuid.substr(0, 8) + " has no variant '" + f.variant + "'"};

  if (options.family == 0) {  // compare adjusts every benchmark of the run together
    std::set<std::string> names;
    for (const auto* v : variants) names.insert(v->variant.benchmark);
    options.family = names.size();
  }
  const auto plans = analysis::plan_benchmarks(variants, options);
  const std::string yaml =
      format_plan(analysis::to_plan(plans), report::plan_comment(run, options));
  if (f.output == "-") {
    ctx.out << yaml;
  } else {
    report::write(report::plan_document(ctx.globals.verbose, run, plans, options),
                  ctx.globals.format, ctx.out);
    BG_TRY(write_plan_file(f.output, yaml));
    if (!ctx.globals.quiet)
      ctx.err << fmt::format("benchguard: wrote the plan for {} benchmark(s) to {}\n", plans.size(),
                             f.output);
  }
  return 0;
}

}  // namespace

Action add_plan(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<PlanFlags>();
  auto& o = f->options;
  o.mds.seed = 1;  // as the other analysing commands
  auto* c = app.add_subcommand(
      "plan",
      "Minimal detectable slowdown per instances x iterations, and the cheapest configuration "
      "that detects the target; writes the plan YAML that `run --plan` reads");
  c->add_option("run", f->ref,
                "Run with many instances (an A/A run): id, uuid prefix, KEY=VALUE label, commit, "
                "database file, or 'latest'");
  add_target(c, f->target);
  add_percentage(c, "--alpha", f->alpha, "Highest false-positive rate allowed, e.g. 5% or 0.05",
                 {.min = 0, .max = 1});
  add_percentage(c, "--power", f->power, "Lowest detection rate at the target, e.g. 95% or 0.95",
                 {.min = 0, .max = 1, .min_open = true, .max_open = false});
  c->add_option("--budget", f->budget,
                "Time per variant (e.g. 10m): the smallest detectable slowdown within it");
  add_metrics(c, f->metrics);
  add_variant(c, f->variant);
  add_bootstrap_seed(c, o.mds.seed);
  add_renamed(c, "--seed", "--bootstrap-seed",
              "the seed of the simulated experiments; --seed is the order a run measures in");
  c->add_option("--experiments", o.mds.experiments, "Simulated experiments per configuration")
      ->check(whole_number("--experiments", 10, 100000));
  add_resamples(c, o.mds.resamples);
  add_confidence(c, o.mds.confidence);
  c->add_option("--instances-grid", o.mds.instances, "Instances per side to try (5,10,...)")
      ->delimiter(',')
      ->check(whole_number("--instances-grid", 1));
  c->add_option("--iterations-grid", o.mds.iterations, "Iterations per instance to try")
      ->delimiter(',')
      ->check(whole_number("--iterations-grid", 1));
  c->add_option("--slowdowns", o.mds.slowdowns, "Slowdowns whose detection rate is reported")
      ->delimiter(',');
  c->add_option("--selection", f->selection,
                "What the recommendation assumes: instance (A and B in different processes, as "
                "`run` measures) or trial (on the same instances)")
      ->check(CLI::IsMember({"instance", "trial"}));
  c->add_option("--decision", f->decision,
                "compare (default: compare's verdict, with --statistic, --interval, --threshold "
                "and --confidence as compare takes them), ratio (the bootstrap interval of the "
                "ratio of means excludes 1) or overlap (the two means' intervals do not overlap)")
      ->check(CLI::IsMember({"compare", "ratio", "overlap"}));
  f->verdict.add_to(c);
  c->add_option("--family", o.family,
                "Benchmarks compare will adjust together with Holm's method (default: as many "
                "as are planned)")
      ->check(whole_number("--family", 1));
  c->add_option("-o,--output", f->output, "Plan file to write ('-': the YAML on stdout)");
  return [&ctx, f]() { return do_plan(ctx, *f); };
}

}  // namespace benchguard::cli
