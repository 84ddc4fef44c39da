#include "report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace benchguard::report {

namespace {

std::string steady_text(const analysis::VariantSummary& s) {
  if (!s.sample.steady) return "-";
  const auto& sum = s.sample.steady->summary;
  std::string out;
  for (size_t c = 0; c < stats::kSteadyClassCount; ++c) {
    if (sum.counts[c] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", sum.counts[c],
                       stats::to_string(static_cast<stats::SteadyClass>(c)));
  }
  return out;
}

nlohmann::json to_json(const analysis::VariantSummary& s) {
  nlohmann::json j = {
      {"benchmark", s.sample.benchmark},
      {"variant", s.sample.variant},
      {"metric", s.sample.metric.name},
      {"unit", s.sample.metric.unit},
      {"instances", s.sample.data.instances()},
      {"instances_failed", s.sample.instances_failed},
      {"iterations", s.iterations},
      {"mean", json_number(s.mean)},
      {"mean_ci", {json_number(s.mean_ci.ci.lower), json_number(s.mean_ci.ci.upper)}},
      {"median", json_number(s.median)},
      {"median_ci", {json_number(s.median_ci.ci.lower), json_number(s.median_ci.ci.upper)}},
      {"median_ci_method", analysis::to_string(s.median_ci_method)},
      {"median_ci_coverage", json_number(s.median_ci_coverage)},
      {"resampling",
       {{"mean_ci", stats::to_string(s.mean_ci.method)},
        {"median_ci", s.median_ci_method == analysis::MedianCiMethod::kBootstrap
                          ? nlohmann::json(stats::to_string(s.median_ci.method))
                          : nlohmann::json(nullptr)}}},
      {"stdev", json_number(s.stdev)},
      {"min", json_number(s.min)},
      {"max", json_number(s.max)},
      {"cv", json_number(s.cv)},
      {"cv_within", json_number(s.cv_within)},
      {"cv_between", json_number(s.cv_between)},
      {"cv_per_instance",
       {{"mean", json_number(s.cv_instance_mean)}, {"sd", json_number(s.cv_instance_sd)}}},
      {"burn_in",
       {{"configured_iterations", s.sample.configured_burn_in},
        {"detected_per_instance", s.sample.detected_burn_in}}},
      {"outliers", {{"ratio_rule", s.outliers_ratio}, {"robust_z_rule", s.outliers_z}}},
      {"warnings", s.warnings},
      {"notes", s.notes}};
  if (s.sample.steady) {
    const auto& sum = s.sample.steady->summary;
    nlohmann::json classes = nlohmann::json::object();
    for (size_t c = 0; c < stats::kSteadyClassCount; ++c)
      classes[std::string(stats::to_string(static_cast<stats::SteadyClass>(c)))] = sum.counts[c];
    j["steady_state"] = {
        {"classes", classes},
        {"no_steady_state_share", sum.no_steady_state_share},
        {"recommended_burn_in", sum.recommended_burn_in ? nlohmann::json(*sum.recommended_burn_in)
                                                        : nlohmann::json(nullptr)}};
  }
  return j;
}

std::string effect_text(const stats::SideEffect& e) {
  if (!std::isfinite(e.factor)) return "-";
  auto pct = [](double f) { return fmt::format("{:+.1f}%", 100 * (f - 1)); };
  return fmt::format("{} [{} .. {}]", pct(e.factor), pct(e.ci.lower), pct(e.ci.upper));
}

std::string balance_text(const analysis::DuetBalance& b) {
  std::string cpu;
  if (!b.cpus_second.empty())
    cpu = fmt::format("side on CPUs {} vs {}: {}", b.cpus_second, b.cpus_first, effect_text(b.cpu));
  else
    cpu = b.cpus_first.empty() ? "CPU sets not recorded"
                               : fmt::format(
                                     "B always on CPUs {}: CPU effect not estimable "
                                     "(an older run)",
                                     b.cpus_first);
  std::string text = fmt::format("{}: {} runs; {}; started second vs first: {}", b.benchmark,
                                 b.runs, cpu, effect_text(b.start));
  auto clear = [](const stats::SideEffect& e) { return e.ci.lower > 1.0 || e.ci.upper < 1.0; };
  if (clear(b.cpu) || clear(b.start))
    text += " (the machine favours a side: the balanced schedule cancels it, the noise stays)";
  return text;
}

nlohmann::json to_json(const analysis::DuetBalance& b) {
  auto effect = [](const stats::SideEffect& e) {
    return nlohmann::json{{"factor", json_number(e.factor)},
                          {"ci", {json_number(e.ci.lower), json_number(e.ci.upper)}},
                          {"runs_b_has", e.runs_b_has},
                          {"runs_a_has", e.runs_a_has}};
  };
  return {{"benchmark", b.benchmark},    {"runs", b.runs},
          {"cpus_first", b.cpus_first},  {"cpus_second", b.cpus_second},
          {"cpu_effect", effect(b.cpu)}, {"start_order_effect", effect(b.start)}};
}

}  // namespace

nlohmann::json summary_json(const RunData& run, const analysis::RunSummary& s) {
  nlohmann::json j = {{"run", run.run.uuid},
                      {"summaries", nlohmann::json::array()},
                      {"duet_balance", nlohmann::json::array()}};
  for (const auto& row : s.rows) j["summaries"].push_back(to_json(row));
  for (const auto& b : s.balances) j["duet_balance"].push_back(to_json(b));
  return j;
}

Document summary_document(const RunData& run, const analysis::RunSummary& summary) {
  Document d;
  d.schema = "summary";
  d.json = summary_json(run, summary);
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("variant", "variant"),
               Column::left("metric", "metric"),
               Column::left("unit", "unit").scripts_only(),
               Column::number("inst", "instances"),
               Column::number("iter", "iterations"),
               Column::number("mean", "mean"),
               Column::number("95% CI", "mean_ci95_lower").scripts_only(),
               Column::number("95% CI", "mean_ci95_upper").scripts_only(),
               Column::number("95% CI", "mean_ci95").people_only(),
               Column::number("median", "median"),
               Column::number("cv", "cv"),
               Column::number("cv within", "cv_within"),
               Column::number("cv/instance", "cv_instance_mean"),
               Column::number("cv/instance", "cv_instance_sd").scripts_only(),
               Column::left("steady state", "steady_state"),
               Column::number("burn-in", "burn_in"),
               Column::number("outliers", "outliers")};
  for (const auto& s : summary.rows) {
    const auto& u = s.sample.metric.unit;
    const auto shown = [&](double x) {
      return std::isfinite(x) ? format_value(x, u) : std::string("-");
    };
    const auto v = [&](double x) { return Cell::value(x, shown(x)); };
    const auto pct = [](double x) { return Cell::value(x, percent_text(x, 1)); };
    const auto text = [](double x) { return percent_text(x, 1); };
    Cell cv_instance = pct(s.cv_instance_mean);
    cv_instance.text = text(s.cv_instance_mean) + " ± " + text(s.cv_instance_sd);
    t.add_row({s.sample.benchmark, s.sample.variant, s.sample.metric.name, u,
               Cell::count(s.sample.data.instances()), Cell::count(s.iterations), v(s.mean),
               Cell::value(s.mean_ci.ci.lower, ""), Cell::value(s.mean_ci.ci.upper, ""),
               Cell::none(shown(s.mean_ci.ci.lower) + " .. " + shown(s.mean_ci.ci.upper)),
               v(s.median), pct(s.cv), pct(s.cv_within), std::move(cv_instance),
               Cell::value(s.cv_instance_sd, ""), steady_text(s),
               Cell::count(s.sample.detected_burn_in),
               Cell::count(std::max(s.outliers_ratio, s.outliers_z))});
  }
  d.table(std::move(t), true);
  if (summary.summary_only > 0)
    d.blank().line({own(fmt::format(
        "{} benchmark variant(s) hold summary records only (statistics without measurements, "
        "nothing to summarise): `benchguard show {}` lists them",
        summary.summary_only, run.id))});
  if (!summary.balances.empty()) {
    d.raw(Format::kTable,
          "\nduet balance (the schedule balances CPU sets and start order over the pairs, so "
          "these cancel in compare):\n");
    d.raw(Format::kMarkdown, "\n**Duet balance**\n\n");
    for (const auto& b : summary.balances) d.item({own(balance_text(b))});
  }
  // The rows' warnings, then their notes (how a figure was computed: nothing to act on).
  const auto section = [&](const char* title, auto member) {
    bool first = true;
    for (const auto& s : summary.rows)
      for (const auto& line : s.*member) {
        if (first) {
          d.raw(Format::kTable, fmt::format("\n{}:\n", title));
          std::string heading = title;
          heading[0] = static_cast<char>(heading[0] - 'a' + 'A');
          d.raw(Format::kMarkdown, fmt::format("\n**{}**\n\n", heading));
        }
        first = false;
        d.item({data(s.sample.benchmark), own(" "), data(s.sample.variant), own(": "), data(line)});
      }
  };
  section("warnings", &analysis::VariantSummary::warnings);
  section("notes", &analysis::VariantSummary::notes);
  return d;
}

}  // namespace benchguard::report
