#include "report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_number.hpp"
#include "core/units.hpp"
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

void print_summary(std::ostream& out, const std::string& format, const RunData& run,
                   const analysis::RunSummary& summary) {
  const bool machine = format == "csv";
  Table t;
  t.header = {"benchmark",   "variant",      "metric",  "inst",    "iter",
              "mean",        "95% CI",       "median",  "cv",      "cv within",
              "cv/instance", "steady state", "burn-in", "outliers"};
  t.right = {false, false, false, true, true,  true, true,
             true,  true,  true,  true, false, true, true};
  for (const auto& s : summary.rows) {
    const auto& u = s.sample.metric.unit;
    auto v = [&](double x) {
      if (!std::isfinite(x)) return std::string("-");
      return machine ? fmt::format("{:.9g}", x) : format_value(x, u);
    };
    auto pct = [&](double x) {
      if (!std::isfinite(x)) return std::string("-");
      return machine ? fmt::format("{:.6g}", x) : fmt::format("{:.1f}%", 100 * x);
    };
    const std::string ci = machine ? v(s.mean_ci.ci.lower) + " " + v(s.mean_ci.ci.upper)
                                   : v(s.mean_ci.ci.lower) + " .. " + v(s.mean_ci.ci.upper);
    t.add_row({s.sample.benchmark, s.sample.variant, s.sample.metric.name,
               std::to_string(s.sample.data.instances()), std::to_string(s.iterations), v(s.mean),
               ci, v(s.median), pct(s.cv), pct(s.cv_within),
               pct(s.cv_instance_mean) + (machine ? "" : " ± " + pct(s.cv_instance_sd)),
               steady_text(s), std::to_string(s.sample.detected_burn_in),
               std::to_string(std::max(s.outliers_ratio, s.outliers_z))});
  }
  render(t, format == "jsonl" ? "csv" : format, out);
  if (!machine && summary.summary_only > 0)
    out << fmt::format(
        "\n{} benchmark variant(s) hold summary records only (statistics without measurements, "
        "nothing to summarise): `benchguard show {}` lists them\n",
        summary.summary_only, run.id);
  if (!machine && !summary.balances.empty()) {
    const bool md = format == "md";
    out << (md ? "\n**Duet balance**\n\n" : "\nduet balance")
        << (md ? ""
               : " (the schedule balances CPU sets and start order over the pairs, so "
                 "these cancel in compare):\n");
    for (const auto& b : summary.balances) out << (md ? "- " : "  ") << balance_text(b) << "\n";
  }
  if (!machine) {
    const bool md = format == "md";
    const auto text = [&](const std::string& t) {
      return md ? markdown_text(t) : terminal_text(t);
    };
    // The rows' warnings, then their notes (how a figure was computed: nothing to act on).
    const auto section = [&](const char* title, auto member) {
      bool first = true;
      for (const auto& s : summary.rows)
        for (const auto& line : s.*member) {
          if (first)
            out << (md ? fmt::format("\n**{}**\n\n", title) : fmt::format("\n{}:\n", title));
          first = false;
          out << fmt::format("{} {} {}: {}\n", md ? "-" : " ", text(s.sample.benchmark),
                             text(s.sample.variant), text(line));
        }
    };
    section(md ? "Warnings" : "warnings", &analysis::VariantSummary::warnings);
    section(md ? "Notes" : "notes", &analysis::VariantSummary::notes);
  }
}

}  // namespace benchguard::report
