#include "report/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/number_text.hpp"
#include "report/table.hpp"
#include "stats/null_calibration.hpp"

namespace benchguard::report {

namespace {

std::string percent(double x) {
  return significant_percent_text(x, 3);
}

}  // namespace

Document calibration_document(const Calibration& c, const std::map<std::string, double>* planned) {
  Document d;
  d.schema = "calibrate";
  d.json = nlohmann::json::parse(format_calibration(c));
  d.raw(Format::kMarkdown, "**benchguard calibrate**: ");
  d.line(
       {data(c.suite),
        own(fmt::format(", {} A/A repetitions ({} schedule, variant ", c.repetitions, c.schedule)),
        data(c.variant),
        own(fmt::format(" against itself), {}s, threshold {}, {:.0f}% confidence", c.statistic,
                        percent(c.threshold), 100 * c.confidence))})
      .blank();
  const auto fraction = [](double x) { return Cell::value(x, percent(x)); };
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("metric", "metric"),
               Column::number("instances", "instances"),
               Column::number("largest A/A change", "max_change"),
               Column::number("false alarms", "false_alarms_text").people_only(),
               Column::number("false alarms", "false_alarms").scripts_only(),
               Column::number("false alarms", "comparisons").scripts_only(),
               Column::number("rate", "rate"),
               Column::number("rate CI", "rate_ci").people_only(),
               Column::number("rate CI", "rate_lower").scripts_only(),
               Column::number("rate CI", "rate_upper").scripts_only(),
               Column::number("calibrated threshold", "threshold")};
  if (planned != nullptr) t.columns.push_back(Column::number("plan's simulated rate", "plan_rate"));
  for (const auto& e : c.entries) {
    std::vector<Cell> row = {
        e.benchmark,
        e.metric,
        Cell::count(e.instances),
        fraction(e.max_change),
        Cell::none(fmt::format("{} of {}", e.slower + e.faster, e.comparisons)),
        Cell::count(e.slower + e.faster),
        Cell::count(e.comparisons),
        fraction(e.rate),
        Cell::none(percent(e.rate_lower) + " .. " + percent(e.rate_upper)),
        fraction(e.rate_lower),
        fraction(e.rate_upper),
        fraction(e.threshold)};
    if (planned != nullptr) {
      const auto fpr = planned->find(e.benchmark);
      row.push_back(fpr != planned->end() && e.metric == "wall_time" ? fraction(fpr->second)
                                                                     : Cell::none());
    }
    t.add_row(std::move(row));
  }
  d.table(std::move(t), true);
  if (c.layout == "randomized") {
    // calibrate --randomize-layout: the same A/A with the layout fixed, beside it.
    d.blank().line({strong("Layout"),
                    own(": the same A/A with the layout fixed (address randomization off) against "
                        "randomized (a random stack and heap offset per instance)")});
    d.blank();
    Table l;
    l.columns = {Column::left("benchmark", "benchmark"),
                 Column::left("metric", "metric"),
                 Column::number("false alarms fixed", "false_alarms_fixed"),
                 Column::number("false alarms randomized", "false_alarms_randomized"),
                 Column::number("spread fixed", "spread_fixed"),
                 Column::number("spread randomized", "spread_randomized"),
                 Column::number("share of the spread from layout", "layout_share")};
    for (const auto& e : c.entries)
      l.add_row({e.benchmark, e.metric,
                 fmt::format("{} of {}", e.fixed_alarms, e.fixed_comparisons),
                 fmt::format("{} of {}", e.slower + e.faster, e.comparisons),
                 fraction(e.spread_fixed), fraction(e.spread), fraction(e.layout_share)});
    d.table(std::move(l));
  }
  d.blank().item({own(fmt::format(
      "repetitions with any false alarm: {} of {} ({}, {:.0f}% CI {} .. {})",
      c.repetitions_with_alarm, c.repetitions,
      percent(c.repetitions > 0 ? static_cast<double>(c.repetitions_with_alarm) /
                                      static_cast<double>(c.repetitions)
                                : NAN),
      100 * c.confidence, percent(c.family_rate_lower), percent(c.family_rate_upper)))});
  bool short_of_bound = false;
  for (const auto& e : c.entries) short_of_bound = short_of_bound || !e.reached;
  if (short_of_bound && !c.entries.empty()) {
    const std::size_t needed = stats::repetitions_for_bound(c.alpha);
    d.item({own(fmt::format(
        "with {} repetitions the calibrated threshold is the largest A/A change, and a further "
        "A/A change exceeds it with probability up to {}, above {}: run at least {} "
        "repetitions",
        c.repetitions, percent(1.0 / static_cast<double>(c.repetitions + 1)), percent(c.alpha),
        needed))});
  }
  double bound = 0;
  for (const auto& e : c.entries) bound = std::max(bound, e.bound);
  d.item({own(fmt::format(
      "a further A/A comparison exceeds its calibrated threshold with probability at most {}; "
      "`compare --calibration FILE` raises the threshold of these rows to it",
      percent(bound)))});
  return d;
}

}  // namespace benchguard::report
