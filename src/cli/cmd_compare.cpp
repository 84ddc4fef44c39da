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
#include "core/json_error.hpp"
#include "core/names.hpp"
#include "core/units.hpp"
#include "ingest/ingest.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

namespace {

struct CompareFlags {
  CompareRequest request;
  std::string statistic = "trimmed";
  std::string threshold = "1%";
  std::string fail_on;  // slower | faster | change
  std::string simulate;
  std::string min_overlap = "40%";
  std::string calibration;
  bool no_duet = false;
  AnalysisFlags analysis;
};

std::string num(double x, const char* spec = "{:.3f}") {
  return std::isfinite(x) ? fmt::format(fmt::runtime(spec), x) : "-";
}

nlohmann::json jnum(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

// How the U test's p-value was found: over the exact permutation distribution, or by the
// normal approximation.
const char* p_method(const stats::Comparison& c) {
  if (!std::isfinite(c.p_value)) return "none";
  return c.instance_test.exact ? "exact" : "normal approximation";
}

void print_json(Context& ctx, const analysis::CompareReport& r, const std::string& description,
                const std::string& statistic, double confidence) {
  nlohmann::json j = {
      {"a", r.label_a},         {"b", r.label_b},           {"description", description},
      {"statistic", statistic}, {"confidence", confidence}, {"metrics", nlohmann::json::array()},
      {"warnings", r.warnings}, {"only_in_a", r.only_in_a}, {"only_in_b", r.only_in_b}};
  for (const auto& m : r.metrics) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : m.rows) {
      const auto& c = row.result;
      rows.push_back({{"benchmark", row.benchmark},
                      {"value_a", jnum(c.value_a)},
                      {"value_b", jnum(c.value_b)},
                      {"mean_a", jnum(c.mean_a)},
                      {"mean_b", jnum(c.mean_b)},
                      {"instances_a", row.a.data.instances()},
                      {"instances_b", row.b.data.instances()},
                      {"ratio", jnum(c.ratio.value)},
                      {"ci", {jnum(c.ratio.ci.lower), jnum(c.ratio.ci.upper)}},
                      {"p_value", jnum(c.p_value)},
                      {"p_value_method", p_method(c)},
                      {"p_value_holm", jnum(c.p_value_adjusted)},
                      {"p_value_bootstrap", jnum(c.p_value_bootstrap)},
                      {"p_value_bootstrap_holm", jnum(c.p_value_bootstrap_adjusted)},
                      {"verdict", stats::to_string(c.verdict)},
                      {"threshold", jnum(c.threshold)},
                      {"calibrated", row.calibrated != nullptr},
                      {"method", row.duet ? "duet" : "instances"},
                      {"resampling", stats::to_string(c.ratio.method)},
                      {"warnings", c.warnings}});
      if (row.duet)
        rows.back()["duet"] = {{"runs", row.duet->runs},
                               {"paired", row.duet->paired},
                               {"unpaired_a", row.duet->unpaired_a},
                               {"unpaired_b", row.duet->unpaired_b}};
    }
    j["metrics"].push_back(
        {{"metric", m.metric.name},
         {"unit", m.metric.unit},
         {"direction", m.metric.direction == Direction::kLowerIsBetter ? "lower" : "higher"},
         {"rows", rows},
         {"geomean",
          {{"ratio", jnum(m.geomean.value)},
           {"ci", {jnum(m.geomean.ci.lower), jnum(m.geomean.ci.upper)}}}}});
  }
  ctx.out << json_text(j, 2) << "\n";
}

void print_table(Context& ctx, const analysis::CompareReport& r, const std::string& description,
                 const std::string& statistic, double confidence) {
  const std::string& format = ctx.globals.format;
  const bool md = format == "md";
  const bool machine = format == "csv";
  if (!machine)
    ctx.out << (md ? "**benchguard compare**: " : "")
            << (md ? report::markdown_text(description) : report::terminal_text(description))
            << " (" << statistic << "s)\n\n";
  const std::string ci_head = fmt::format("{:.0f}% CI", 100 * confidence);
  report::Table t;
  t.header = {"benchmark", "metric", statistic + " A", statistic + " B",
              "B/A",       ci_head,  "p (Holm)",       "verdict"};
  t.right = {false, false, true, true, true, true, true, false};
  int counts[4] = {0, 0, 0, 0};
  for (const auto& m : r.metrics) {
    for (const auto& row : m.rows) {
      const auto& c = row.result;
      ++counts[static_cast<int>(c.verdict)];
      auto v = [&](double x) {
        return machine ? num(x, "{:.9g}") : format_value(x, m.metric.unit);
      };
      std::string verdict = stats::to_string(c.verdict);
      if (md && (c.verdict == stats::Verdict::kSlower || c.verdict == stats::Verdict::kFaster))
        verdict = fmt::format("**{}**", verdict);
      t.add_row({row.benchmark, m.metric.name, v(c.value_a), v(c.value_b), num(c.ratio.value),
                 machine ? num(c.ratio.ci.lower) + " " + num(c.ratio.ci.upper)
                         : num(c.ratio.ci.lower) + " .. " + num(c.ratio.ci.upper),
                 num(c.p_value_adjusted, "{:.3g}"), verdict});
    }
    if (std::isfinite(m.geomean.value))
      t.add_row({"geometric mean", m.metric.name, "", "", num(m.geomean.value),
                 machine ? num(m.geomean.ci.lower) + " " + num(m.geomean.ci.upper)
                         : num(m.geomean.ci.lower) + " .. " + num(m.geomean.ci.upper),
                 "", ""});
  }
  report::render(t, format == "jsonl" ? "csv" : format, ctx.out);
  if (machine) return;
  using stats::Verdict;
  ctx.out << fmt::format("\n{} slower, {} faster, {} unchanged, {} inconclusive\n",
                         counts[static_cast<int>(Verdict::kSlower)],
                         counts[static_cast<int>(Verdict::kFaster)],
                         counts[static_cast<int>(Verdict::kUnchanged)],
                         counts[static_cast<int>(Verdict::kInconclusive)]);
  std::vector<std::string> notes = r.warnings;
  for (const auto& b : r.only_in_a) notes.push_back(b + ": only in A");
  for (const auto& b : r.only_in_b) notes.push_back(b + ": only in B");
  for (const auto& m : r.metrics) {
    for (const auto& row : m.rows) {
      if (row.duet && m.metric.name == r.metrics.front().metric.name)
        notes.push_back(fmt::format(
            "{}: duet analysis of {} concurrent runs, {} iterations paired, {} of A and {} of B "
            "unpaired",
            row.benchmark, row.duet->runs, row.duet->paired, row.duet->unpaired_a,
            row.duet->unpaired_b));
      if (row.calibrated != nullptr && row.result.threshold > 0)
        notes.push_back(fmt::format(
            "{} {}: threshold {:.3g}% from calibration (A/A: {} of {} false alarms, largest "
            "change {:.3g}%)",
            row.benchmark, m.metric.name, 100 * row.result.threshold,
            row.calibrated->slower + row.calibrated->faster, row.calibrated->comparisons,
            100 * row.calibrated->max_change));
      if (row.result.ratio.method != stats::ResampleMethod::kFull)
        notes.push_back(fmt::format(
            "{} {}: interval from the large-sample bootstrap ({}; {} and {} iterations; "
            "docs/statistics.md, \"Large samples\")",
            row.benchmark, m.metric.name, stats::to_string(row.result.ratio.method),
            row.a.data.size(), row.b.data.size()));
      for (const auto& w : row.result.warnings) notes.push_back(row.benchmark + ": " + w);
    }
  }
  for (const auto& n : notes)
    ctx.out << (md ? "- " + report::markdown_text(n) : "  " + report::terminal_text(n)) << "\n";
}

Result<int> do_compare(Context& ctx, const CompareFlags& f) {
  LazyStore store(ctx);
  std::vector<std::string> import_warnings;
  BG_ASSIGN(auto inputs, resolve_compare_inputs(ctx, store, f.request, import_warnings));
  for (const auto& w : import_warnings)
    ctx.err << "benchguard: warning: " << escape_text(w) << "\n";
  analysis::CompareOptions opts;
  if (!f.analysis.metrics.empty()) opts.metrics = f.analysis.metrics;
  BG_ASSIGN(opts.burn_in, f.analysis.burn_in_policy());
  BG_ASSIGN(opts.verdict.threshold, parse_fraction(f.threshold, "--threshold"));
  if (!f.simulate.empty()) {
    BG_ASSIGN(opts.simulate_slowdown, parse_fraction(f.simulate, "--simulate-slowdown"));
  }
  opts.duet = !f.no_duet;
  std::optional<Calibration> calibration;
  if (!f.calibration.empty()) {
    BG_ASSIGN(calibration, load_calibration(f.calibration));
    opts.calibration = &*calibration;
  }
  BG_ASSIGN(opts.min_overlap, parse_fraction(f.min_overlap, "--min-overlap"));
  if (!(opts.min_overlap > 0 && opts.min_overlap <= 1))
    return Error{"--min-overlap must be above 0 and at most 100%, not '" + f.min_overlap + "'"};
  BG_ASSIGN(opts.verdict.statistic, statistic_from_flag(f.statistic));
  const std::string statistic = stats::to_string(opts.verdict.statistic);
  opts.verdict.confidence = f.analysis.confidence;
  opts.verdict.resamples = f.analysis.resamples;
  opts.verdict.seed = f.analysis.seed;
  auto report = analysis::compare_sides(inputs.a, inputs.b, opts);
  const auto conditions = analysis::condition_warnings(inputs.conditions_a, inputs.conditions_b);
  report.warnings.insert(report.warnings.begin(), conditions.begin(), conditions.end());
  if (report.metrics.empty())
    return Error{"nothing to compare: no benchmark has measurements on both sides"};
  if (ctx.globals.format == "json")
    print_json(ctx, report, inputs.description, statistic, opts.verdict.confidence);
  else
    print_table(ctx, report, inputs.description, statistic, opts.verdict.confidence);

  using stats::Verdict;
  const bool fail =
      (f.fail_on == "slower" && report.any(Verdict::kSlower)) ||
      (f.fail_on == "faster" && report.any(Verdict::kFaster)) ||
      (f.fail_on == "change" && (report.any(Verdict::kSlower) || report.any(Verdict::kFaster)));
  return fail ? static_cast<int>(ExitCode::kRegression) : 0;
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
  std::vector<std::string> formats{"auto"};
  for (const auto& name : ingest::format_names()) formats.push_back(name);
  c->add_option("--input-format", f->request.input_format,
                "Format of result files given as references (default: recognised from content)")
      ->check(CLI::IsMember(formats));
  c->add_option("--statistic", f->statistic,
                "What B/A compares: trimmed (default: the mean of the middle 80% of iterations, "
                "robust to spikes), median, or mean")
      ->check(CLI::IsMember({"trimmed", "median", "mean"}));
  c->add_option("--threshold", f->threshold, "Smallest change that counts (default 1%)");
  c->add_option("--fail-on", f->fail_on, "Exit 1 when a benchmark is slower, faster, or either")
      ->check(CLI::IsMember({"slower", "faster", "change"}));
  c->add_option("--simulate-slowdown", f->simulate, "What if B were this much slower (e.g. 5%)");
  c->add_flag("--no-duet", f->no_duet,
              "Analyse concurrent (duet) runs like any other instances, not by overlapping "
              "iterations");
  c->add_option("--min-overlap", f->min_overlap,
                "Duet: pair iterations that overlap by at least this much of each (default 40%)");
  c->add_option("--calibration", f->calibration,
                "Calibration JSON from `benchguard calibrate`: raise each benchmark's threshold "
                "to what A/A runs on this machine showed");
  f->analysis.add_to(c);
  return [&ctx, f]() { return do_compare(ctx, *f); };
}

}  // namespace benchguard::cli
