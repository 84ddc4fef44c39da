// Rendering a comparison (`compare`, `ab`): the table (text, Markdown, CSV) and the JSON.
#include "report/compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace benchguard::report {
namespace {

std::string num(double x) {
  return fixed_text(x, 3);
}

// How the U test's p-value was found: over the exact permutation distribution, or by the
// normal approximation.
const char* p_method(const stats::Comparison& c) {
  if (!std::isfinite(c.p_value)) return "none";
  return c.instance_test.exact ? "exact" : "normal approximation";
}

}  // namespace

std::string verdict_word(stats::Verdict verdict, const MetricInfo& metric) {
  const bool regression = verdict == stats::Verdict::kSlower;
  if (!regression && verdict != stats::Verdict::kFaster) return stats::to_string(verdict);
  const std::string& unit = metric.unit;
  const bool rate = unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
  if (unit == "B") return regression ? "more memory" : "less memory";
  // Counts of work (instructions, cycles, cache misses) stand for time, as rates do.
  if (unit == "s" || rate || find_builtin_metric(metric.name) != nullptr)
    return stats::to_string(verdict);
  return regression ? "worse" : "better";
}

nlohmann::json compare_json(const analysis::CompareReport& r, const std::string& description,
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
                      {"value_a", json_number(c.value_a)},
                      {"value_b", json_number(c.value_b)},
                      {"mean_a", json_number(c.mean_a)},
                      {"mean_b", json_number(c.mean_b)},
                      {"instances_a", row.a.data.instances()},
                      {"instances_b", row.b.data.instances()},
                      {"ratio", json_number(c.ratio.value)},
                      {"ci", {json_number(c.ratio.ci.lower), json_number(c.ratio.ci.upper)}},
                      {"p_value", json_number(c.p_value)},
                      {"p_value_method", p_method(c)},
                      {"p_value_holm", json_number(c.p_value_adjusted)},
                      {"interval", stats::to_string(c.interval)},
                      {"p_value_bootstrap", json_number(c.p_value_bootstrap)},
                      {"p_value_bootstrap_holm", json_number(c.p_value_bootstrap_adjusted)},
                      {"verdict", stats::to_string(c.verdict)},
                      {"says", verdict_word(c.verdict, m.metric)},
                      {"threshold", json_number(c.threshold)},
                      {"calibrated", row.calibrated != nullptr},
                      {"method", row.duet ? "duet" : "instances"},
                      {"resampling", stats::to_string(c.ratio.method)},
                      {"warnings", c.warnings}});
      if (!row.variant.empty()) rows.back()["variant"] = row.variant;
      const auto& t = c.tail;
      if (std::isfinite(t.mean_ratio.value))
        rows.back()["tail"] = {
            {"tested", t.tested},
            {"spikes_a", t.spikes_a},
            {"spikes_b", t.spikes_b},
            {"iterations_a", t.values_a},
            {"iterations_b", t.values_b},
            {"excess_a", json_number(t.excess_a)},
            {"excess_b", json_number(t.excess_b)},
            {"p_value", json_number(t.p_value)},
            {"p_value_holm", json_number(t.p_value_adjusted)},
            {"mean_ratio", json_number(t.mean_ratio.value)},
            {"mean_ci", {json_number(t.mean_ratio.ci.lower), json_number(t.mean_ratio.ci.upper)}},
            {"mean_p_value", json_number(t.mean_p_value)}};
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
          {{"ratio", json_number(m.geomean.value)},
           {"ci", {json_number(m.geomean.ci.lower), json_number(m.geomean.ci.upper)}}}}});
  }
  return j;
}

Document compare_document(const analysis::CompareReport& r, const std::string& description,
                          const std::string& statistic, double confidence) {
  Document d;
  d.schema = "compare";
  d.json = compare_json(r, description, statistic, confidence);
  d.raw(Format::kMarkdown, "**benchguard compare**: ");
  d.line({data(description), own(" (" + statistic + "s)")}).blank();
  const std::string ci = fmt::format("{:.0f}% CI", 100 * confidence);
  const std::string level = fmt::format("{:.0f}", 100 * confidence);
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("variant", "variant").scripts_only(),
               Column::left("metric", "metric"),
               Column::left("unit", "unit").scripts_only(),
               Column::number(statistic + " A", column_key(statistic) + "_a"),
               Column::number(statistic + " B", column_key(statistic) + "_b"),
               Column::number("B/A", "ratio"),
               Column::number(ci, "ci" + level + "_lower").scripts_only(),
               Column::number(ci, "ci" + level + "_upper").scripts_only(),
               Column::number(ci, "ci").people_only(),
               Column::number("p (Holm)", "p_holm"),
               Column::left("verdict", "verdict")};
  int counts[4] = {0, 0, 0, 0};
  const auto interval = [](const stats::Interval& ci) {
    return Cell::none(num(ci.lower) + " .. " + num(ci.upper));
  };
  for (const auto& m : r.metrics) {
    for (const auto& row : m.rows) {
      const auto& c = row.result;
      ++counts[static_cast<int>(c.verdict)];
      const auto v = [&](double x) { return Cell::value(x, format_value(x, m.metric.unit)); };
      Cell verdict = verdict_word(c.verdict, m.metric);
      if (c.verdict == stats::Verdict::kSlower || c.verdict == stats::Verdict::kFaster)
        verdict.strong = true;
      t.add_row({row.name(), row.variant, m.metric.name, m.metric.unit, v(c.value_a), v(c.value_b),
                 Cell::value(c.ratio.value, num(c.ratio.value)), Cell::value(c.ratio.ci.lower, ""),
                 Cell::value(c.ratio.ci.upper, ""), interval(c.ratio.ci),
                 Cell::value(c.p_value_bootstrap_adjusted,
                             significant_text(c.p_value_bootstrap_adjusted, 3)),
                 verdict});
    }
    if (std::isfinite(m.geomean.value))
      t.add_row({"geometric mean", Cell::none(""), m.metric.name, Cell::none(""), Cell::none(""),
                 Cell::none(""), Cell::value(m.geomean.value, num(m.geomean.value)),
                 Cell::value(m.geomean.ci.lower, ""), Cell::value(m.geomean.ci.upper, ""),
                 interval(m.geomean.ci), Cell::none(""), Cell::none("")});
  }
  d.table(std::move(t), true);
  using stats::Verdict;
  d.blank().line({own(fmt::format("{} slower, {} faster, {} unchanged, {} inconclusive",
                                  counts[static_cast<int>(Verdict::kSlower)],
                                  counts[static_cast<int>(Verdict::kFaster)],
                                  counts[static_cast<int>(Verdict::kUnchanged)],
                                  counts[static_cast<int>(Verdict::kInconclusive)]))});
  std::vector<std::string> notes, floored;
  int64_t floor_bytes = 0;
  for (const auto& w : r.warnings) {
    const auto f = std::find_if(r.floored.begin(), r.floored.end(),
                                [&](const auto& x) { return x.warning == w; });
    if (f == r.floored.end()) {
      notes.push_back(w);
      continue;
    }
    floored.push_back(f->benchmark + " " + f->metric);
    floor_bytes = std::max(floor_bytes, f->floor_bytes);
  }
  for (const auto& b : r.only_in_a) notes.push_back(b + ": only in A");
  for (const auto& b : r.only_in_b) notes.push_back(b + ": only in B");
  for (const auto& m : r.metrics) {
    for (const auto& row : m.rows) {
      if (row.duet && m.metric.name == r.metrics.front().metric.name)
        notes.push_back(fmt::format(
            "{}: duet analysis of {} concurrent runs, {} iterations paired, {} of A and {} of B "
            "unpaired",
            row.name(), row.duet->runs, row.duet->paired, row.duet->unpaired_a,
            row.duet->unpaired_b));
      if (row.calibrated != nullptr && row.result.threshold > 0)
        notes.push_back(fmt::format(
            "{} {}: threshold {:.3g}% from calibration (A/A: {} of {} false alarms, largest "
            "change {:.3g}%)",
            row.name(), m.metric.name, 100 * row.result.threshold,
            row.calibrated->slower + row.calibrated->faster, row.calibrated->comparisons,
            100 * row.calibrated->max_change));
      if (row.result.interval != stats::CiMethod::kStudentT &&
          row.result.ratio.method != stats::ResampleMethod::kFull)
        notes.push_back(fmt::format(
            "{} {}: interval from the large-sample bootstrap ({}; {} and {} iterations; "
            "docs/statistics.md, \"Large samples\")",
            row.name(), m.metric.name, stats::to_string(row.result.ratio.method), row.a.data.size(),
            row.b.data.size()));
      const bool at_floor = row.a.instances_at_floor > 0 || row.b.instances_at_floor > 0;
      const std::string floor = at_floor ? analysis::floor_note(row) : std::string();
      for (const auto& w : row.result.warnings) {
        if (at_floor && w == floor) {
          floored.push_back(row.name() + " " + m.metric.name);
          floor_bytes = std::max({floor_bytes, row.a.launch_floor_bytes, row.b.launch_floor_bytes});
          continue;
        }
        notes.push_back(row.name() + ": " + w);
      }
    }
  }
  // Memory at the launch floor: one note for every row it silenced (each row's own warning is
  // in the JSON).
  if (!floored.empty())
    notes.push_back(
        fmt::format("{}: instances ended before their memory was sampled {} times and stayed below "
                    "benchguard's own size at launch ({:.1f} MiB): left out, no verdict "
                    "(docs/measurement.md)",
                    fmt::join(floored, ", "), kMinTreeSamples,
                    static_cast<double>(floor_bytes) / (1024.0 * 1024.0)));
  for (const auto& n : notes) d.item({data(n)});
  return d;
}

}  // namespace benchguard::report
