// benchguard calibrate SUITE.yml: repeated A/A runs of the suite under its schedule and
// configuration; per benchmark and metric, how often `compare` would call a false slower or
// faster here, and the threshold that keeps that at or below 1 - confidence.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "analysis/calibrate.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/atomic_file.hpp"
#include "core/suite.hpp"
#include "core/units.hpp"
#include "report/calibrate.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct CalibrateFlags {
  RunFlags run;
  int repetitions = 20;
  std::string output;
  AnalysisFlags analysis;
  VerdictFlags verdict;
};

// The plan's simulated A/A rate of each benchmark of the suite that has one.
std::map<std::string, double> planned_rates(const Plan& plan, const Suite& suite) {
  std::map<std::string, double> out;
  for (const auto& b : suite.benchmarks)
    if (const PlanEntry* e = plan_entry(plan, b); e != nullptr && e->fpr)
      out.emplace(b.name, *e->fpr);
  return out;
}

// The suite with every randomized layout fixed instead.
Suite fixed_layout(Suite suite) {
  for (auto& b : suite.benchmarks)
    if (b.layout == "randomized") b.layout = "fixed";
  return suite;
}

Result<int> do_calibrate(Context& ctx, CalibrateFlags f) {
  if (f.run.suite.empty() && ctx.trailing.empty())
    return Error{"nothing to calibrate: give a suite file or `-- COMMAND ARGS...`"};
  f.run.null = true;
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f.run));
  BG_ASSIGN(const schedule::RunOptions base, run_options(ctx, f.run, suite));
  std::optional<Plan> plan;
  if (!f.run.plan.empty()) {
    BG_ASSIGN(plan, load_plan(f.run.plan));
  }

  BG_ASSIGN(const analysis::CompareOptions opts, compare_options(f.analysis, f.verdict));

  BG_TRY(schedule::preflight(suite));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));

  // With a randomized layout, each repetition runs a second time with the layout fixed, so
  // that the report can say how much of the A/A spread layout causes.
  std::vector<const Suite*> layouts = {&suite};
  const Suite fixed = fixed_layout(suite);
  if (std::any_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                  [](const BenchmarkSpec& b) { return b.layout == "randomized"; }))
    layouts.push_back(&fixed);

  const StopOnSignals stop;
  Progress bar(ctx, "calibrate");
  const std::string id = schedule::new_uuid().substr(0, 8);
  std::vector<RunData> runs, fixed_runs;
  bool interrupted = false;
  const int steps = f.repetitions * static_cast<int>(layouts.size());
  for (int k = 0; k < f.repetitions && !interrupted; ++k) {
    for (std::size_t li = 0; li < layouts.size() && !interrupted; ++li) {
      schedule::RunOptions o = base;
      o.seed = base.seed + static_cast<uint64_t>(k);
      o.labels.emplace_back("calibration", id);
      o.labels.emplace_back("repetition", std::to_string(k + 1));
      if (layouts.size() > 1) o.labels.emplace_back("layout", li == 0 ? "randomized" : "fixed");
      const int step = k * static_cast<int>(layouts.size()) + static_cast<int>(li);
      bar.step(fmt::format(
          "repetition {} of {}{}", k + 1, f.repetitions,
          layouts.size() > 1 ? (li == 0 ? ", layout randomized" : ", layout fixed") : ""));
      auto progress = [&bar, step, steps](const schedule::ProgressEvent& e) {
        schedule::ProgressEvent scaled = e;
        scaled.done = step * e.total + e.done;
        scaled.total = steps * e.total;
        scaled.finished = e.finished && step + 1 == steps;
        bar(scaled);
      };
      auto outcome = schedule::run_suite(*layouts[li], *store, o, progress);
      if (!outcome.ok()) return outcome.error();
      interrupted = outcome->status == "interrupted";
      if (interrupted) bar({.finished = true});
      BG_ASSIGN(RunData data, store->load_run(std::to_string(outcome->run_id)));
      if (!interrupted) (li == 0 ? runs : fixed_runs).push_back(std::move(data));
    }
  }
  if (runs.empty()) return Error{"calibration interrupted before its first repetition ended"};

  Calibration c = analysis::calibrate_runs(runs, opts);
  if (layouts.size() > 1) analysis::add_fixed_layout(c, fixed_runs, opts);
  c.schedule = suite.schedule;
  std::map<std::string, double> planned;
  report::write(
      report::calibration_document(c, plan ? &(planned = planned_rates(*plan, suite)) : nullptr),
      ctx.globals.format, ctx.out);
  if (!f.output.empty()) {
    if (auto written = write_file_atomically(f.output, format_calibration(c)); !written.ok())
      return Error{"cannot write the calibration to " + f.output + ": " + written.error().message};
    ctx.err << fmt::format("benchguard: wrote the calibration of {} repetition(s) to {}\n",
                           c.repetitions, f.output);
  }
  ctx.err << fmt::format("benchguard: stored {} A/A run(s) labelled calibration={} in {}\n",
                         runs.size() + fixed_runs.size(), id, ctx.db_name());
  return interrupted ? 130 : 0;
}

}  // namespace

Action add_calibrate(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<CalibrateFlags>();
  auto* c = app.add_subcommand(
      "calibrate",
      "A/A on this machine: run each benchmark's variant against itself, repeatedly, and report "
      "how often compare's verdict is a false alarm and the threshold that keeps it below "
      "1 - confidence");
  c->add_option("suite", f->run.suite, "Suite YAML file");
  c->add_option("--repetitions", f->repetitions,
                "A/A runs (default 20: the fewest for a 5% bound is 19)")
      ->check(whole_number("--repetitions", 1, 100000));
  add_variant(c, f->run.null_variant);
  c->add_option("-o,--output", f->output, "Write the calibration JSON that compare reads");
  // compare's own flags, recorded in the file so that `compare --calibration` can say when it
  // compares otherwise.
  f->verdict.add_to(c);
  add_run_flags(c, f->run);
  f->analysis.add_to_measuring(c);
  return [&ctx, f]() { return do_calibrate(ctx, *f); };
}

}  // namespace benchguard::cli
