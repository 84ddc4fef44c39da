#include "report/bisect.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/json_number.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace benchguard::report {
namespace {

std::string num(double x) {
  return fixed_text(x, 2);
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

Document bisect_document(const refs::BisectOutcome& o, const std::string& benchmark,
                         const std::string& metric, double confidence) {
  Document d;
  d.schema = "bisect";
  d.json = bisect_json(o, benchmark, metric);
  d.raw(Format::kMarkdown, "**benchguard bisect**: ");
  d.line({data(fmt::format("{} {}, good {} .. bad {} ({} commits)", benchmark, metric,
                           o.good.substr(0, 12), o.bad.substr(0, 12), o.commits.size()))})
      .blank();
  const std::string ci = fmt::format("{:.0f}% CI", 100 * confidence);
  const std::string level = fmt::format("{:.0f}", 100 * confidence);
  Table t;
  t.columns = {Column::number("step", "step"),
               Column::left("commit", "commit"),
               Column::number("position", "position"),
               Column::number(ci, "position_ci").people_only(),
               Column::number(ci, "position_ci" + level + "_lower").scripts_only(),
               Column::number(ci, "position_ci" + level + "_upper").scripts_only(),
               Column::number("instances", "instances"),
               Column::left("verdict", "verdict"),
               Column::left("verdict", "uncertain").scripts_only()};
  int k = 0;
  for (const auto& s : o.steps) {
    ++k;
    const Cell commit = Cell::both(s.commit.substr(0, 12), s.commit);
    if (s.skipped) {
      t.add_row({Cell::count(k), commit, Cell::none(""), Cell::none(""), Cell::none(""),
                 Cell::none(""), Cell::none(""), "skipped", Cell::none("")});
      continue;
    }
    std::string verdict = analysis::to_string(s.decided);
    const auto v = [](double x) { return Cell::value(x, num(x)); };
    t.add_row({Cell::count(k), commit, v(s.result.position),
               Cell::none(num(s.result.position_lower) + " .. " + num(s.result.position_upper)),
               v(s.result.position_lower), v(s.result.position_upper), Cell::count(s.instances),
               Cell::both(s.uncertain ? verdict + " (uncertain)" : verdict, verdict),
               s.uncertain ? "true" : "false"});
  }
  d.table(std::move(t), true);
  d.blank();
  d.raw(Format::kTable, "first bad commit: ");
  d.raw(Format::kMarkdown, "First bad commit: ");
  d.line({Span{o.culprit, true, true}});
  if (o.final_check) {
    const auto& c = *o.final_check;
    d.line({data(fmt::format("against its parent {}: {:.3f}x ({:.3f} .. {:.3f}), {}",
                             o.parent.substr(0, 12), c.ratio.value, c.ratio.ci.lower,
                             c.ratio.ci.upper, stats::to_string(c.verdict)))});
  }
  if (!o.warnings.empty()) {
    d.raw(Format::kTable, "\nwarnings:\n");
    d.raw(Format::kMarkdown, "\n**Warnings**\n\n");
    for (const auto& w : o.warnings) d.item({data(w)});
  }
  return d;
}

}  // namespace benchguard::report
