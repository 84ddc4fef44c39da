#include "report/plan.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace benchguard::report {

namespace {

using analysis::BenchmarkPlan;
using analysis::PlanOptions;

std::string fixed(double x, int digits) {
  return fixed_text(x, digits);
}

std::string percent(double x) {
  return percent_text(x, 0);
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

Cell fraction_cell(double x) {
  return Cell::value(x, percent(x));
}

// With -v: the grid of the recommendation's selection and decision, one row per configuration.
void add_grid(Document& d, const BenchmarkPlan& p, const PlanOptions& o) {
  Table t;
  t.columns = {Column::number("instances", "instances"), Column::number("iterations", "iterations"),
               Column::number("fpr", "fpr")};
  // The false-positive rate has its own column; the other slowdowns one each.
  for (const double s : o.mds.slowdowns)
    if (s != 1.0)
      t.columns.push_back(Column::number(fmt::format("{:g}", s), fmt::format("detects_{:g}", s)));
  t.columns.push_back(Column::number("mds", "mds"));
  t.columns.push_back(Column::number("time/variant", "seconds_per_variant"));
  for (const auto& c : p.grid) {
    if (c.config.selection != o.selection) continue;
    std::vector<Cell> row = {Cell::count(c.config.instances), Cell::count(c.config.iterations)};
    if (!c.feasible) {
      row.emplace_back("too few data");
      t.add_row(row);
      continue;
    }
    const auto& r = c[o.decision];
    row.push_back(fraction_cell(r.false_positive_rate));
    for (std::size_t k = 0; k < r.detection.size(); ++k)
      if (o.mds.slowdowns[k] != 1.0) row.push_back(fraction_cell(r.detection[k]));
    row.push_back(Cell::value(r.mds, fixed(r.mds, 3)));
    const double seconds = analysis::expected_seconds(c.config, p.burn_in, p.mean);
    row.push_back(Cell::value(seconds, format_duration(seconds)));
    t.add_row(row);
  }
  d.blank().line({Span{p.benchmark, true, true}, own(" (detection rate per slowdown)")});
  d.raw(Format::kMarkdown, "\n");
  d.table(std::move(t));
}

}  // namespace

std::vector<std::string> plan_comment(const RunData& run, const PlanOptions& options) {
  return {"written by benchguard plan from run " + run.run.uuid.substr(0, 8) +
              (run.run.git_commit.empty() ? "" : " @" + run.run.git_commit.substr(0, 10)),
          describe(options)};
}

Document plan_document(int verbose, const RunData& run, std::span<const BenchmarkPlan> plans,
                       const PlanOptions& o) {
  Document d;
  d.schema = "plan";
  d.json = plan_json(run, plans, o);
  d.raw(Format::kMarkdown, "**benchguard plan**: ");
  d.line({own("run " + run.run.uuid.substr(0, 8) + ": " + describe(o))}).blank();
  Table t;
  t.columns = {
      Column::left("benchmark", "benchmark"),
      Column::number("instances", "instances"),
      Column::number("iterations", "iterations"),
      Column::number("burn-in", "burn_in"),
      Column::number("mean", "mean"),
      Column::left("unit", "unit").scripts_only(),
      Column::number("cv", "cv"),
      Column::number("mds", "mds"),
      Column::number("fpr", "fpr"),
      Column::number(fmt::format("detects {:g}", o.target), "detects_target"),
      Column::number(fmt::format("{:g} bound", o.mds.bound_confidence), "detects_target_lower"),
      Column::number("time/variant", "seconds_per_variant"),
      Column::left("note", "note")};
  for (const auto& p : plans) {
    const auto& r = p.recommendation;
    const auto count = [&](std::size_t v) {
      return r.found ? Cell::count(static_cast<std::int64_t>(v)) : Cell::none();
    };
    const auto found = [&](Cell c) { return r.found ? std::move(c) : Cell::none(); };
    const std::string note = !p.viable                        ? "not viable"
                             : !r.found                       ? "no configuration"
                             : !o.budget_s && !r.meets_target ? "target not reached"
                                                              : "";
    t.add_row(
        {p.benchmark, count(r.config.instances), count(r.config.iterations),
         p.viable ? Cell::count(p.burn_in) : Cell::none(),
         Cell::value(p.mean, format_value(p.mean, p.metric.unit)), p.metric.unit,
         Cell::value(p.cv, fixed(100 * p.cv, 1) + "%"), found(Cell::value(r.mds, fixed(r.mds, 3))),
         found(fraction_cell(r.false_positive_rate)), found(fraction_cell(r.detection_at_target)),
         r.found && std::isfinite(r.detection_lower)
             ? Cell::value(r.detection_lower, percent_text(r.detection_lower, 1))
             : Cell::none(),
         found(Cell::value(r.seconds, format_duration(r.seconds))), note});
  }
  d.table(std::move(t), true);
  if (verbose > 0)
    for (const auto& p : plans)
      if (!p.grid.empty()) add_grid(d, p, o);
  bool first = true;
  for (const auto& p : plans) {
    std::vector<std::string> notes = p.warnings;
    if (!p.not_viable.empty()) notes.insert(notes.begin(), p.not_viable);
    for (const auto& w : notes) {
      if (first) {
        d.raw(Format::kTable, "\nwarnings:\n");
        d.raw(Format::kMarkdown, "\n**Warnings**\n\n");
      }
      first = false;
      d.item({data(p.benchmark), own(": " + w)});
    }
  }
  return d;
}

}  // namespace benchguard::report
