// benchguard bisect --good REF --bad REF SUITE.yml: the first commit at which a benchmark got
// slower, found by measuring (docs/bisect.md).
#include <fmt/format.h>

#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/history_flags.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/json_error.hpp"
#include "refs/refs.hpp"
#include "report/bisect.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct BisectFlags {
  RunFlags run;
  std::string good, bad, change;
  std::string build, repo, variant, benchmark;
  std::string statistic = "robust";
  int max_instances = 0;
  AnalysisFlags analysis;
};

Result<int> do_bisect(Context& ctx, const BisectFlags& f) {
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f.run));
  refs::BisectOptions o;
  BG_ASSIGN(o.refs.run, run_options(ctx, f.run, suite));
  o.refs.build = f.build;
  o.refs.repo = f.repo;
  o.refs.variant = f.variant;
  o.benchmark = f.benchmark;
  if (f.analysis.metrics.size() > 1) return Error{"bisect follows one metric: give one --metric"};
  if (!f.analysis.metrics.empty()) o.metric = f.analysis.metrics.front();
  o.instances = f.run.instances;
  o.max_instances = f.max_instances;
  o.burn_in.mode = analysis::BurnInPolicy::Mode::kAuto;
  BG_ASSIGN(o.statistic, statistic_from_flag(f.statistic));
  o.confidence = f.analysis.confidence;
  o.resamples = f.analysis.resamples;
  o.seed = f.analysis.seed;

  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  std::string good = f.good, bad = f.bad;
  if (!f.change.empty()) {
    if (!good.empty() || !bad.empty()) return Error{"give --change, or --good and --bad, not both"};
    BG_ASSIGN(const store::ChangeRecord change, find_change(ctx.db_name(), *store, f.change));
    const auto* c = &change;
    good = c->last_good;
    bad = c->first_bad;
    if (o.benchmark.empty()) o.benchmark = c->benchmark;
    if (f.analysis.metrics.empty()) o.metric = c->metric;
  }
  if (good.empty() || bad.empty())
    return Error{"bisect needs --good REF and --bad REF (or --change ID)"};

  auto outcome = [&] {
    const StopOnSignals stop;
    Progress progress(ctx, "bisect");
    // On a terminal the step's line stays; a log also gets the instances of its runs.
    schedule::ProgressFn runs;
    if (progress.mode() == ProgressMode::kLines) runs = std::ref(progress);
    return refs::run_bisect(
        suite, *store, good, bad, o, [&](const std::string& line) { progress.step(line); }, runs);
  }();
  if (!outcome.ok()) return outcome.error();
  const std::string benchmark = o.benchmark.empty() ? suite.benchmarks.front().name : o.benchmark;
  report::write(report::bisect_document(*outcome, benchmark, o.metric, o.confidence),
                ctx.globals.format, ctx.out);
  return 0;
}

}  // namespace

Action add_bisect(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<BisectFlags>();
  auto* c = app.add_subcommand(
      "bisect",
      "Find the first commit between a good and a bad one at which a benchmark changed, "
      "by measuring each step against both");
  c->add_option("suite", f->run.suite, "Suite YAML file (read from the working tree)")->required();
  c->add_option("--good", f->good, "A commit (or ref) before the change");
  c->add_option("--bad", f->bad, "A commit (or ref) after it");
  c->add_option("--change", f->change, "A change point id from `benchguard detect`: its range");
  c->add_option("--benchmark", f->benchmark,
                "The benchmark to follow (default: the suite's only one)");
  add_build(c, f->build);
  add_repo(c, f->repo);
  add_variant(c, f->variant);
  add_statistic(c, f->statistic);
  add_max_instances(c, f->max_instances);
  add_run_flags(c, f->run);
  f->analysis.add_to_measuring(c);
  return [&ctx, f]() { return do_bisect(ctx, *f); };
}

}  // namespace benchguard::cli
