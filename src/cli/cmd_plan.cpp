// benchguard plan [RUN|LABEL]: per benchmark, the minimal detectable slowdown of every
// instances x iterations configuration, and the cheapest one that detects the target; writes
// the plan YAML that `run --plan` reads.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/plan.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/compare_inputs.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/atomic_file.hpp"
#include "core/suite.hpp"
#include "core/units.hpp"
#include "report/plan.hpp"
#include "report/write.hpp"
#include "schedule/runner.hpp"

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

// A target is met when the lower bound of the detection rate reaches the power: with too few
// experiments not even all of them detecting gets there, and every plan falls short. Empty when
// enough.
std::string experiments_warning(const analysis::PlanOptions& o) {
  const auto experiments = static_cast<std::size_t>(o.mds.experiments);
  const auto short_of = [&](std::size_t n) {
    return stats::successes_for_bound(n, o.power, o.mds.bound_confidence) > n;
  };
  if (o.budget_s || !short_of(experiments)) return "";
  std::size_t least = experiments;
  while (least < 100000 && short_of(least)) ++least;
  return fmt::format(
      "--experiments {} cannot show a power of {:g}: even {} detections of {} have a {:g} lower "
      "bound below it, so no configuration reaches the target; give at least {}",
      experiments, o.power, experiments, experiments, o.mds.bound_confidence, least);
}

Status write_plan_file(const std::string& path, const std::string& text) {
  if (auto written = write_file_atomically(path, text); !written.ok())
    return Error{"cannot write the plan to " + path + ": " + written.error().message};
  return ok_status();
}

bool is_suite_file(const std::string& ref) {
  const auto ext = std::filesystem::path(ref).extension().string();
  std::error_code ec;
  return (ext == ".yml" || ext == ".yaml") && std::filesystem::is_regular_file(ref, ec);
}

// The pilot `plan SUITE.yml` measures first: every benchmark an A/A run with the instances and
// iterations the whole grid needs (instance-based selection draws 2n distinct instances of m
// iterations; trial-based n of 2m), a fifth more iterations for the burn-in that steady-state
// detection may find. Returns the stored run's id.
Result<std::string> run_pilot(Context& ctx, const std::string& path,
                              const analysis::PlanOptions& o) {
  BG_ASSIGN(Suite suite, load_suite(path));
  const bool trial = o.selection == stats::Selection::kTrial;
  const std::size_t n = *std::max_element(o.mds.instances.begin(), o.mds.instances.end());
  const std::size_t m = *std::max_element(o.mds.iterations.begin(), o.mds.iterations.end());
  const std::size_t iterations = (trial ? 2 * m : m) + std::max<std::size_t>(2, m / 5);
  for (auto& b : suite.benchmarks) {
    b.instances = static_cast<int>(trial ? n : 2 * n);
    b.iterations = static_cast<int>(iterations);
  }
  BG_TRY(schedule::preflight(suite));
  RunFlags flags;
  flags.no_counters = true;
  BG_ASSIGN(schedule::RunOptions opts, run_options(ctx, flags, suite));
  opts.labels.emplace_back("plan", "pilot");
  const auto& first = suite.benchmarks.front();
  ctx.err << fmt::format(
      "benchguard: plan: no run given, so a pilot of {} first: {} benchmark(s), {} instance(s) of "
      "{} iteration(s) each (after {} of burn-in), what the grid up to {} x {} needs\n",
      path, suite.benchmarks.size(), first.instances, first.iterations, first.burn_in, n, m);
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  const StopOnSignals stop;
  Progress bar(ctx, "plan");
  BG_ASSIGN(const auto outcome, schedule::run_suite(suite, *store, opts, std::ref(bar)));
  if (outcome.status == "interrupted") return Error{"the pilot was interrupted; nothing planned"};
  if (outcome.status != "complete")
    return Error{"every instance of the pilot failed; nothing planned (`benchguard show " +
                 outcome.uuid.substr(0, 8) + "` says why)"};
  ctx.err << fmt::format("benchguard: plan: stored the pilot as run {} (label plan=pilot)\n",
                         outcome.uuid.substr(0, 8));
  return outcome.uuid;
}

Result<int> do_plan(Context& ctx, const PlanFlags& f) {
  BG_ASSIGN(analysis::PlanOptions options, plan_options(f));
  if (const auto warning = experiments_warning(options); !warning.empty())
    ctx.err << "benchguard: warning: " << warning << "\n";
  std::string ref = f.ref;
  if (is_suite_file(ref)) {
    BG_ASSIGN(ref, run_pilot(ctx, f.ref, options));
  }
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  BG_ASSIGN(const RunData run, ctx.resolve_run(*store, ref));
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
  // A plan that does not reach its target says so: in the file (reaches_target: false, and a
  // comment) and in the exit status.
  std::vector<std::string> short_of;
  for (const auto& p : plans) {
    const auto& r = p.recommendation;
    if (r.found && !options.budget_s && !r.meets_target) short_of.push_back(p.benchmark);
  }
  auto comment = report::plan_comment(run, options);
  if (!short_of.empty())
    comment.push_back(fmt::format(
        "target not reached for {} of {} benchmark(s) ({}): their counts are the most sensitive "
        "configuration tried, which detects less than the target (reaches_target: false)",
        short_of.size(), plans.size(), fmt::join(short_of, ", ")));
  const std::string yaml = format_plan(analysis::to_plan(plans), comment);
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
  if (short_of.empty()) return 0;
  ctx.err << fmt::format(
      "benchguard: the plan does not reach the target for {} of {} benchmark(s) ({}): more "
      "instances (--instances-grid), a larger --target, or --budget to accept the best in a "
      "time\n",
      short_of.size(), plans.size(), fmt::join(short_of, ", "));
  return 1;
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
                "database file, or 'latest'; or a suite file, measured first as the pilot the "
                "grid needs");
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
