// benchguard calibrate SUITE.yml: repeated A/A runs of the suite under its schedule and
// configuration; per benchmark and metric, how often `compare` would call a false slower or
// faster here, and the threshold that keeps that at or below 1 - confidence.
#include <fmt/format.h>

#include <cmath>
#include <csignal>
#include <fstream>

#include "analysis/calibrate.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "core/suite.hpp"
#include "core/units.hpp"
#include "report/table.hpp"
#include "stats/null_calibration.hpp"

namespace benchguard::cli {

namespace {

struct CalibrateFlags {
  RunFlags run;
  int repetitions = 20;
  std::string output;
  std::string statistic = "trimmed";
  std::string threshold = "1%";
  std::vector<std::string> metrics;
  int resamples = 10000;
  double confidence = 0.95;
};

void on_signal(int) {
  schedule::request_stop();
}

std::string percent(double x) {
  if (!std::isfinite(x)) return "-";
  return fmt::format("{:.3g}%", 100 * x);
}

// The plan's simulated A/A rate for a benchmark of the suite, if it has one.
std::optional<double> planned_fpr(const Plan& plan, const Suite& suite,
                                  const std::string& benchmark) {
  for (const auto& b : suite.benchmarks)
    if (b.name == benchmark)
      if (const PlanEntry* e = plan_entry(plan, b)) return e->fpr;
  return std::nullopt;
}

void print_table(Context& ctx, const Calibration& c, const Suite& suite, const Plan* plan) {
  const bool md = ctx.globals.format == "md";
  ctx.out << (md ? "**benchguard calibrate**: " : "")
          << fmt::format(
                 "{}, {} A/A repetitions ({} schedule, variant {} against itself), {}s, "
                 "threshold {}, {:.0f}% confidence\n\n",
                 c.suite, c.repetitions, c.schedule, c.variant, c.statistic, percent(c.threshold),
                 100 * c.confidence);
  report::Table t;
  t.header = {"benchmark",    "metric", "instances", "largest A/A change",
              "false alarms", "rate",   "rate CI",   "calibrated threshold"};
  if (plan != nullptr) t.header.emplace_back("plan's simulated rate");
  t.right = {false, false, true, true, true, true, true, true, true};
  for (const auto& e : c.entries) {
    std::vector<std::string> row = {e.benchmark,
                                    e.metric,
                                    std::to_string(e.instances),
                                    percent(e.max_change),
                                    fmt::format("{} of {}", e.slower + e.faster, e.comparisons),
                                    percent(e.rate),
                                    percent(e.rate_lower) + " .. " + percent(e.rate_upper),
                                    percent(e.threshold)};
    if (plan != nullptr) {
      const auto fpr = planned_fpr(*plan, suite, e.benchmark);
      row.push_back(fpr && e.metric == "wall_time" ? percent(*fpr) : "-");
    }
    t.add_row(std::move(row));
  }
  report::render(t, ctx.globals.format, ctx.out);
  if (ctx.globals.format == "csv") return;
  const char* bullet = md ? "- " : "  ";
  ctx.out << fmt::format(
      "\n{}repetitions with any false alarm: {} of {} ({}, {:.0f}% CI {} .. {})\n", bullet,
      c.repetitions_with_alarm, c.repetitions,
      percent(c.repetitions > 0 ? static_cast<double>(c.repetitions_with_alarm) /
                                      static_cast<double>(c.repetitions)
                                : NAN),
      100 * c.confidence, percent(c.family_rate_lower), percent(c.family_rate_upper));
  bool short_of_bound = false;
  for (const auto& e : c.entries) short_of_bound = short_of_bound || !e.reached;
  if (short_of_bound && !c.entries.empty()) {
    const std::size_t needed = stats::repetitions_for_bound(c.alpha);
    ctx.out << fmt::format(
        "{}with {} repetitions the calibrated threshold is the largest A/A change, and a further "
        "A/A change exceeds it with probability up to {}, above {}: run at least {} "
        "repetitions\n",
        bullet, c.repetitions, percent(1.0 / static_cast<double>(c.repetitions + 1)),
        percent(c.alpha), needed);
  }
  double bound = 0;
  for (const auto& e : c.entries) bound = std::max(bound, e.bound);
  ctx.out << fmt::format(
      "{}a further A/A comparison exceeds its calibrated threshold with probability at most {}; "
      "`compare --calibration FILE` raises the threshold of these rows to it\n",
      bullet, percent(bound));
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

  analysis::CompareOptions opts;
  if (!f.metrics.empty()) opts.metrics = f.metrics;
  BG_ASSIGN(opts.verdict.threshold, parse_fraction(f.threshold, "--threshold"));
  BG_ASSIGN(opts.verdict.statistic, statistic_from_flag(f.statistic));
  opts.verdict.confidence = f.confidence;
  opts.verdict.resamples = f.resamples;

  BG_TRY(schedule::preflight(suite));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  ProgressBar bar(ctx.err, ctx.interactive());
  const std::string id = schedule::new_uuid().substr(0, 8);
  std::vector<RunData> runs;
  bool interrupted = false;
  for (int k = 0; k < f.repetitions && !interrupted; ++k) {
    schedule::RunOptions o = base;
    o.seed = base.seed + static_cast<uint64_t>(k);
    o.labels.emplace_back("calibration", id);
    o.labels.emplace_back("repetition", std::to_string(k + 1));
    const int reps = f.repetitions;
    auto progress = [&bar, k, reps](const schedule::ProgressEvent& e) {
      schedule::ProgressEvent scaled = e;
      scaled.done = k * e.total + e.done;
      scaled.total = reps * e.total;
      scaled.finished = e.finished && k + 1 == reps;
      bar(scaled);
    };
    auto outcome = schedule::run_suite(suite, *store, o, progress);
    if (!outcome.ok()) {
      std::signal(SIGINT, SIG_DFL);
      std::signal(SIGTERM, SIG_DFL);
      return outcome.error();
    }
    interrupted = outcome->status == "interrupted";
    if (interrupted) bar({0, 0, nullptr, nullptr, 0, true});
    BG_ASSIGN(RunData data, store->load_run(std::to_string(outcome->run_id)));
    if (!interrupted) runs.push_back(std::move(data));
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (runs.empty()) return Error{"calibration interrupted before its first repetition ended"};

  Calibration c = analysis::calibrate_runs(runs, opts);
  c.schedule = suite.schedule;
  if (ctx.globals.format == "json")
    ctx.out << format_calibration(c);
  else
    print_table(ctx, c, suite, plan ? &*plan : nullptr);
  if (!f.output.empty()) {
    std::ofstream out(f.output);
    out << format_calibration(c);
    out.close();
    if (!out) return Error{"cannot write the calibration to " + f.output};
    ctx.err << fmt::format("benchguard: wrote the calibration of {} repetition(s) to {}\n",
                           c.repetitions, f.output);
  }
  ctx.err << fmt::format("benchguard: stored {} A/A run(s) labelled calibration={} in {}\n",
                         runs.size(), id, ctx.db_name());
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
      ->check(CLI::Range(1, 100000));
  c->add_option("--variant", f->run.null_variant,
                "The variant to run against itself (default: each benchmark's first)");
  c->add_option("-o,--output", f->output, "Write the calibration JSON that compare reads");
  c->add_option("--statistic", f->statistic, "As in compare: trimmed (default), median, or mean")
      ->check(CLI::IsMember({"trimmed", "median", "mean"}));
  c->add_option("--threshold", f->threshold, "compare's threshold to measure (default 1%)");
  c->add_option("--metric", f->metrics,
                "Metric(s) to calibrate, or all (default: as compare chooses)");
  c->add_option("--resamples", f->resamples, "Bootstrap resamples")
      ->check(CLI::Range(100, 10000000));
  c->add_option("--confidence", f->confidence, "Confidence of the verdict (alpha = 1 - it)")
      ->check(CLI::Range(0.5, 0.9999));
  add_run_flags(c, f->run);
  return [&ctx, f]() { return do_calibrate(ctx, *f); };
}

}  // namespace benchguard::cli
