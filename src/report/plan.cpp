#include "report/plan.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/table.hpp"

namespace benchguard::report {

namespace {

using analysis::BenchmarkPlan;
using analysis::PlanOptions;

std::string fixed(double x, int digits) {
  return std::isfinite(x) ? fmt::format("{:.{}f}", x, digits) : "-";
}

std::string percent(double x) {
  return std::isfinite(x) ? fmt::format("{:.0f}%", 100 * x) : "-";
}

std::string decision_text(const PlanOptions& o) {
  if (o.decision != stats::Decision::kCompare)
    return fmt::format("{} decision; {} experiments x {} resamples", stats::to_string(o.decision),
                       o.mds.experiments, o.mds.resamples);
  const auto& v = o.mds.verdict;
  return fmt::format(
      "compare's verdict ({}, {} interval at {:g}, threshold {:g}%{}); {} experiments",
      stats::to_string(v.statistic),
      stats::interval_of(v) == stats::CiMethod::kStudentT ? "t" : "bootstrap", o.mds.confidence,
      100 * v.threshold, o.family > 1 ? fmt::format(", Holm over {} benchmarks", o.family) : "",
      o.mds.experiments);
}

std::string describe(const PlanOptions& o) {
  return fmt::format(
      "detect {:g} with power {:g} (its {:g} lower bound) at a false-positive rate <= {:g} (<= "
      "{:.3f} with Monte Carlo error){}; {}-based selection, {}, seed {}",
      o.target, o.power, o.mds.bound_confidence, o.alpha, analysis::fpr_limit(o),
      o.budget_s ? ", within " + format_duration(*o.budget_s) + " per variant" : "",
      stats::to_string(o.selection), decision_text(o), o.mds.seed);
}

nlohmann::json grid_json(const BenchmarkPlan& p, const PlanOptions& o) {
  nlohmann::json grid = nlohmann::json::array();
  for (const auto& c : p.grid) {
    nlohmann::json row = {
        {"selection", stats::to_string(c.config.selection)},
        {"instances", c.config.instances},
        {"iterations", c.config.iterations},
        {"feasible", c.feasible},
        {"expected_seconds", json_number(analysis::expected_seconds(c.config, p.burn_in, p.mean))},
        {"draws", c.fresh_draws ? "with replacement" : "distinct"}};
    if (c.feasible) {
      for (const stats::Decision d :
           {stats::Decision::kOverlap, stats::Decision::kRatio, stats::Decision::kCompare}) {
        const auto& r = c[d];
        if (r.upper.empty()) continue;  // not simulated
        nlohmann::json detection = nlohmann::json::array();
        for (std::size_t k = 0; k < o.mds.slowdowns.size(); ++k)
          detection.push_back({{"slowdown", o.mds.slowdowns[k]},
                               {"rate", r.detection[k]},
                               {"lower_bound", r.detection_lower[k]}});
        nlohmann::json entry = {
            {"fpr", r.false_positive_rate}, {"mds", json_number(r.mds)}, {"detection", detection}};
        if (d == stats::Decision::kCompare)
          entry["at_target"] = {{"slowdown", o.target},
                                {"rate", stats::detection_rate(r, o.target)},
                                {"lower_bound", stats::detection_lower_bound(r, o.target)}};
        row[std::string(stats::to_string(d))] = entry;
      }
    }
    grid.push_back(row);
  }
  return grid;
}

nlohmann::json benchmark_plan_json(const BenchmarkPlan& p, const PlanOptions& o) {
  const auto& c = p.cleaning;
  const auto& r = p.recommendation;
  nlohmann::json j = {
      {"benchmark", p.benchmark},
      {"metric", p.metric.name},
      {"unit", p.metric.unit},
      {"variants", p.variants},
      {"viable", p.viable},
      {"not_viable", p.not_viable.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.not_viable)},
      {"burn_in", p.burn_in},
      {"mean", json_number(p.mean)},
      {"cv", json_number(p.cv)},
      {"cleaning",
       {{"instances_ok", c.instances_ok},
        {"instances_failed", c.instances_failed},
        {"iterations_failed", c.iterations_failed},
        {"configured_burn_in", c.configured_burn_in},
        {"detected_burn_in", c.detected_burn_in},
        {"outliers", c.outliers},
        {"instances", c.instances},
        {"min_iterations", c.min_iterations},
        {"max_iterations", c.max_iterations}}},
      {"whole_grid_needs", {{"instances", p.need_instances}, {"iterations", p.need_iterations}}},
      {"recommendation", nullptr},
      {"warnings", p.warnings},
      {"grid", grid_json(p, o)}};
  if (r.found)
    j["recommendation"] = {{"instances", r.config.instances},
                           {"iterations", r.config.iterations},
                           {"mds", json_number(r.mds)},
                           {"fpr", r.false_positive_rate},
                           {"detection_at_target", r.detection_at_target},
                           {"detection_lower_bound", r.detection_lower},
                           {"experiments", r.experiments},
                           {"draws", r.fresh_draws ? "with replacement" : "distinct"},
                           {"meets_target", r.meets_target},
                           {"expected_seconds", json_number(r.seconds)}};
  return j;
}

}  // namespace

nlohmann::json plan_json(const RunData& run, std::span<const BenchmarkPlan> plans,
                         const PlanOptions& o) {
  nlohmann::json j = {
      {"run", run.run.uuid},
      {"options",
       {{"metric", o.metric},
        {"target", o.target},
        {"alpha", o.alpha},
        {"power", o.power},
        {"budget_seconds", o.budget_s ? json_number(*o.budget_s) : nullptr},
        {"selection", stats::to_string(o.selection)},
        {"decision", stats::to_string(o.decision)},
        {"instances_grid", o.mds.instances},
        {"iterations_grid", o.mds.iterations},
        {"slowdowns", o.mds.slowdowns},
        {"experiments", o.mds.experiments},
        {"resamples", o.mds.resamples},
        {"confidence", o.mds.confidence},
        {"bound_confidence", o.mds.bound_confidence},
        {"statistic", stats::to_string(o.mds.verdict.statistic)},
        {"interval",
         stats::interval_of(o.mds.verdict) == stats::CiMethod::kStudentT ? "t" : "bootstrap"},
        {"threshold", o.mds.verdict.threshold},
        {"family", o.family},
        {"seed", o.mds.seed}}},
      {"benchmarks", nlohmann::json::array()}};
  for (const auto& p : plans) j["benchmarks"].push_back(benchmark_plan_json(p, o));
  return j;
}

namespace {

// With -v: the grid of the recommendation's selection and decision, one row per configuration.
void print_grid(std::ostream& out, const std::string& format, const BenchmarkPlan& p,
                const PlanOptions& o) {
  report::Table t;
  t.header = {"instances", "iterations", "fpr"};
  // The false-positive rate has its own column; the other slowdowns one each.
  for (const double s : o.mds.slowdowns)
    if (s != 1.0) t.header.push_back(fmt::format("{:g}", s));
  t.header.insert(t.header.end(), {"mds", "time/variant"});
  t.right.assign(t.header.size(), true);
  for (const auto& c : p.grid) {
    if (c.config.selection != o.selection) continue;
    std::vector<std::string> row = {std::to_string(c.config.instances),
                                    std::to_string(c.config.iterations)};
    if (!c.feasible) {
      row.emplace_back("too few data");
      t.add_row(row);
      continue;
    }
    const auto& r = c[o.decision];
    row.push_back(percent(r.false_positive_rate));
    for (std::size_t k = 0; k < r.detection.size(); ++k)
      if (o.mds.slowdowns[k] != 1.0) row.push_back(percent(r.detection[k]));
    row.push_back(fixed(r.mds, 3));
    row.push_back(format_duration(analysis::expected_seconds(c.config, p.burn_in, p.mean)));
    t.add_row(row);
  }
  const bool md = format == "md";
  out << "\n"
      << (md ? "**" : "") << p.benchmark << (md ? "**" : "") << " (detection rate per slowdown)\n";
  if (md) out << "\n";
  render(t, format, out);
}

}  // namespace

std::vector<std::string> plan_comment(const RunData& run, const PlanOptions& options) {
  return {"written by benchguard plan from run " + run.run.uuid.substr(0, 8) +
              (run.run.git_commit.empty() ? "" : " @" + run.run.git_commit.substr(0, 10)),
          describe(options)};
}

void print_plan(std::ostream& out, const std::string& format_option, int verbose,
                const RunData& run, std::span<const BenchmarkPlan> plans, const PlanOptions& o) {
  const std::string format = format_option == "jsonl" ? "csv" : format_option;
  if (format == "json") {
    out << json_text(plan_json(run, plans, o), 2) << "\n";
    return;
  }
  const bool machine = format == "csv";
  const bool md = format == "md";
  if (!machine)
    out << (md ? "**benchguard plan**: " : "") << "run " << run.run.uuid.substr(0, 8) << ": "
        << describe(o) << "\n\n";
  report::Table t;
  t.header = {"benchmark",
              "instances",
              "iterations",
              "burn-in",
              "mean",
              "cv",
              "mds",
              "fpr",
              fmt::format("detects {:g}", o.target),
              fmt::format("{:g} bound", o.mds.bound_confidence),
              "time/variant",
              "note"};
  t.right = {false, true, true, true, true, true, true, true, true, true, true, false};
  for (const auto& p : plans) {
    const auto& r = p.recommendation;
    const auto mean = machine ? fixed(p.mean, 9) : format_value(p.mean, p.metric.unit);
    const auto count = [&](std::size_t v) { return r.found ? std::to_string(v) : "-"; };
    const std::string note = !p.viable                        ? "not viable"
                             : !r.found                       ? "no configuration"
                             : !o.budget_s && !r.meets_target ? "target not reached"
                                                              : "";
    t.add_row({p.benchmark, count(r.config.instances), count(r.config.iterations),
               p.viable ? std::to_string(p.burn_in) : "-", mean,
               machine ? fixed(p.cv, 6) : fixed(100 * p.cv, 1) + "%",
               r.found ? fixed(r.mds, 3) : "-", r.found ? percent(r.false_positive_rate) : "-",
               r.found ? percent(r.detection_at_target) : "-",
               r.found && std::isfinite(r.detection_lower)
                   ? fmt::format("{:.1f}%", 100 * r.detection_lower)
                   : "-",
               r.found ? (machine ? fixed(r.seconds, 3) : format_duration(r.seconds)) : "-", note});
  }
  render(t, format, out);
  if (machine) return;
  if (verbose > 0)
    for (const auto& p : plans)
      if (!p.grid.empty()) print_grid(out, format, p, o);
  bool first = true;
  for (const auto& p : plans) {
    std::vector<std::string> notes = p.warnings;
    if (!p.not_viable.empty()) notes.insert(notes.begin(), p.not_viable);
    for (const auto& w : notes) {
      if (first) out << (md ? "\n**Warnings**\n\n" : "\nwarnings:\n");
      first = false;
      out << fmt::format("{} {}: {}\n", md ? "-" : " ", p.benchmark, w);
    }
  }
}

}  // namespace benchguard::report
