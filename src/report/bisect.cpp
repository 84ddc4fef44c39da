#include "report/bisect.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/json_number.hpp"
#include "report/table.hpp"

namespace benchguard::report {
namespace {

std::string num(double x) {
  return std::isfinite(x) ? fmt::format("{:.2f}", x) : "-";
}

}  // namespace

nlohmann::json bisect_json(const refs::BisectOutcome& o, const std::string& benchmark,
                           const std::string& metric) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : o.steps) {
    nlohmann::json j = {{"commit", s.commit},
                        {"index", s.index},
                        {"skipped", s.skipped},
                        {"instances", s.instances},
                        {"rounds_run", s.rounds_run}};
    if (s.skipped) {
      j["why_skipped"] = s.why_skipped;
    } else {
      j["verdict"] = analysis::to_string(s.result.verdict);
      j["decided"] = analysis::to_string(s.decided);
      j["uncertain"] = s.uncertain;
      j["position"] = json_number(s.result.position);
      j["position_ci"] = {json_number(s.result.position_lower),
                          json_number(s.result.position_upper)};
      j["step_ratio"] = json_number(s.result.step_ratio);
      j["step_ratio_ci"] = {json_number(s.result.step_lower), json_number(s.result.step_upper)};
    }
    steps.push_back(std::move(j));
  }
  nlohmann::json j = {{"session", o.session},   {"benchmark", benchmark},
                      {"metric", metric},       {"good", o.good},
                      {"bad", o.bad},           {"commits", o.commits.size()},
                      {"steps", steps},         {"first_bad", o.culprit},
                      {"parent", o.parent},     {"could_also_be", o.could_also_be},
                      {"warnings", o.warnings}, {"final_check", nullptr}};
  if (o.final_check)
    j["final_check"] = {
        {"ratio", json_number(o.final_check->ratio.value)},
        {"ci",
         {json_number(o.final_check->ratio.ci.lower), json_number(o.final_check->ratio.ci.upper)}},
        {"verdict", stats::to_string(o.final_check->verdict)}};
  return j;
}

void print_bisect(std::ostream& out, const std::string& format, const refs::BisectOutcome& o,
                  const std::string& benchmark, const std::string& metric, double confidence) {
  const bool md = format == "md";
  const auto text = [&](const std::string& t) { return md ? markdown_text(t) : terminal_text(t); };
  out << (md ? "**benchguard bisect**: " : "")
      << text(fmt::format("{} {}, good {} .. bad {} ({} commits)", benchmark, metric,
                          o.good.substr(0, 12), o.bad.substr(0, 12), o.commits.size()))
      << "\n\n";
  Table t;
  t.header = {"step",      "commit", "position", fmt::format("{:.0f}% CI", 100 * confidence),
              "instances", "verdict"};
  t.right = {true, false, true, true, true, false};
  int k = 0;
  for (const auto& s : o.steps) {
    ++k;
    if (s.skipped) {
      t.add_row({std::to_string(k), s.commit.substr(0, 12), "", "", "", "skipped"});
      continue;
    }
    std::string verdict = analysis::to_string(s.decided);
    if (s.uncertain) verdict += " (uncertain)";
    t.add_row({std::to_string(k), s.commit.substr(0, 12), num(s.result.position),
               num(s.result.position_lower) + " .. " + num(s.result.position_upper),
               std::to_string(s.instances), verdict});
  }
  render(t, format == "csv" ? "csv" : format, out);
  out << "\n"
      << (md ? "First bad commit: **" + o.culprit + "**" : "first bad commit: " + o.culprit)
      << "\n";
  if (o.final_check) {
    const auto& c = *o.final_check;
    out << text(fmt::format("against its parent {}: {:.3f}x ({:.3f} .. {:.3f}), {}",
                            o.parent.substr(0, 12), c.ratio.value, c.ratio.ci.lower,
                            c.ratio.ci.upper, stats::to_string(c.verdict)))
        << "\n";
  }
  if (!o.warnings.empty()) {
    out << (md ? "\n**Warnings**\n\n" : "\nwarnings:\n");
    for (const auto& w : o.warnings) out << (md ? "- " : "  ") << text(w) << "\n";
  }
}

}  // namespace benchguard::report
