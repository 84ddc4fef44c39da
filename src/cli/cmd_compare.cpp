// benchguard compare [A] [B]: per benchmark and metric, the ratio B / A with its interval,
// the U test, a verdict; Holm across benchmarks; the geometric mean.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/conditions.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/compare_inputs.hpp"
#include "cli/shared_flags.hpp"
#include "core/json_error.hpp"
#include "core/names.hpp"
#include "report/compare.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct CompareFlags {
  CompareRequest request;
  std::string fail_on;  // slower | faster | change
  double simulate = 0;
  double min_overlap = 0.4;
  std::string calibration;
  bool no_duet = false;
  AnalysisFlags analysis;
  VerdictFlags verdict;
};

Result<int> do_compare(Context& ctx, const CompareFlags& f) {
  LazyStore store(ctx);
  std::vector<std::string> import_warnings;
  BG_ASSIGN(auto inputs, resolve_compare_inputs(ctx, store, f.request, import_warnings));
  for (const auto& w : import_warnings)
    ctx.err << "benchguard: warning: " << escape_text(w) << "\n";
  BG_ASSIGN(analysis::CompareOptions opts, compare_options(f.analysis, f.verdict));
  opts.simulate_slowdown = f.simulate;
  opts.duet = !f.no_duet;
  std::optional<Calibration> calibration;
  if (!f.calibration.empty()) {
    BG_ASSIGN(calibration, load_calibration(f.calibration));
    opts.calibration = &*calibration;
  }
  opts.min_overlap = f.min_overlap;
  const std::string statistic = stats::to_string(opts.verdict.statistic);
  if (inputs.sequential) opts.sequential = &*inputs.sequential;
  opts.by_variant = inputs.by_variant;
  auto report = analysis::compare_sides(inputs.a, inputs.b, opts);
  const auto conditions = analysis::condition_warnings(inputs.conditions_a, inputs.conditions_b);
  report.warnings.insert(report.warnings.begin(), conditions.begin(), conditions.end());
  if (!inputs.packages_note.empty())
    report.warnings.insert(report.warnings.begin() + static_cast<std::ptrdiff_t>(conditions.size()),
                           inputs.packages_note);
  report.warnings.insert(report.warnings.begin(), inputs.notes.begin(), inputs.notes.end());
  if (report.metrics.empty()) {
    // Why, when the comparison knows: the first of its warnings.
    return Error{"nothing to compare: no benchmark has measurements on both sides" +
                 (report.warnings.empty() ? std::string() : "; " + report.warnings.front())};
  }
  report::write(
      report::compare_document(report, inputs.description, statistic, opts.verdict.confidence),
      ctx.globals.format, ctx.out);
  return fails_on(f.fail_on, report) ? static_cast<int>(ExitCode::kRegression) : 0;
}

}  // namespace

Action add_compare(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<CompareFlags>();
  auto* c = app.add_subcommand(
      "compare",
      "A against B: two variants of a run (default: the latest), two runs, two KEY=VALUE labels, "
      "two git commits, two database files, or result files of other harnesses "
      "(OLD NEW, or OLD... vs NEW...)");
  c->add_option("refs", f->request.refs,
                "Nothing, a run, two references, or result files as FILE... vs FILE...");
  c->add_option("--variant-a", f->request.variant_a, "Variant for side A when a run has several");
  c->add_option("--variant-b", f->request.variant_b, "Variant for side B when a run has several");
  add_input_format(c, f->request.input_format);
  c->add_flag("--pool", f->request.pool,
              "With two KEY=VALUE labels: each side every run with its label, instances pooled "
              "(repeated pytest sessions, say); without it a label is its newest run");
  f->verdict.add_to(c);
  add_fail_on(c, f->fail_on);
  add_percentage(c, "--simulate-slowdown", f->simulate, "What if B were this much slower, e.g. 5%",
                 {});
  c->add_flag("--no-duet", f->no_duet,
              "Analyse concurrent (duet) runs like any other instances, not by overlapping "
              "iterations");
  add_percentage(c, "--min-overlap", f->min_overlap,
                 "Duet: pair iterations that overlap by at least this much of each",
                 {.min = 0, .max = 1, .min_open = true, .max_open = false});
  c->add_option("--calibration", f->calibration,
                "Calibration JSON from `benchguard calibrate`: raise each benchmark's threshold "
                "to what A/A runs on this machine showed");
  f->analysis.add_to(c);
  return [&ctx, f]() { return do_compare(ctx, *f); };
}

}  // namespace benchguard::cli
