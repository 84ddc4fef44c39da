#include "report/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/table.hpp"
#include "stats/null_calibration.hpp"

namespace benchguard::report {

namespace {

std::string percent(double x) {
  if (!std::isfinite(x)) return "-";
  return fmt::format("{:.3g}%", 100 * x);
}

}  // namespace

void print_calibration(std::ostream& out, const std::string& format, const Calibration& c,
                       const std::map<std::string, double>* planned) {
  const bool md = format == "md";
  out << (md ? "**benchguard calibrate**: " : "")
      << fmt::format(
             "{}, {} A/A repetitions ({} schedule, variant {} against itself), {}s, "
             "threshold {}, {:.0f}% confidence\n\n",
             c.suite, c.repetitions, c.schedule, c.variant, c.statistic, percent(c.threshold),
             100 * c.confidence);
  Table t;
  t.header = {"benchmark",    "metric", "instances", "largest A/A change",
              "false alarms", "rate",   "rate CI",   "calibrated threshold"};
  if (planned != nullptr) t.header.emplace_back("plan's simulated rate");
  t.right = {false, false, true, true, true, true, true, true, true};
  for (const auto& e : c.entries) {
    std::vector<std::string> row = {e.benchmark,
                                    e.metric,
                                    std::to_string(e.instances),
                                    percent(e.max_change),
                                    fmt::format("{} of {}", e.slower + e.faster, e.comparisons),
                                    percent(e.rate),
                                    percent(e.rate_lower) + " .. " + percent(e.rate_upper),
                                    percent(e.threshold)};
    if (planned != nullptr) {
      const auto fpr = planned->find(e.benchmark);
      row.push_back(fpr != planned->end() && e.metric == "wall_time" ? percent(fpr->second) : "-");
    }
    t.add_row(std::move(row));
  }
  render(t, format, out);
  if (format == "csv") return;
  if (c.layout == "randomized") {
    // calibrate --randomize-layout: the same A/A with the layout fixed, beside it.
    out << (md ? "\n**Layout**: " : "\nLayout: ")
        << "the same A/A with the layout fixed (address randomization off) against randomized "
           "(a random stack and heap offset per instance)\n\n";
    Table l;
    l.header = {"benchmark",
                "metric",
                "false alarms fixed",
                "false alarms randomized",
                "spread fixed",
                "spread randomized",
                "share of the spread from layout"};
    l.right = {false, false, true, true, true, true, true};
    for (const auto& e : c.entries)
      l.add_row({e.benchmark, e.metric,
                 fmt::format("{} of {}", e.fixed_alarms, e.fixed_comparisons),
                 fmt::format("{} of {}", e.slower + e.faster, e.comparisons),
                 percent(e.spread_fixed), percent(e.spread), percent(e.layout_share)});
    render(l, format, out);
  }
  const char* bullet = md ? "- " : "  ";
  out << fmt::format("\n{}repetitions with any false alarm: {} of {} ({}, {:.0f}% CI {} .. {})\n",
                     bullet, c.repetitions_with_alarm, c.repetitions,
                     percent(c.repetitions > 0 ? static_cast<double>(c.repetitions_with_alarm) /
                                                     static_cast<double>(c.repetitions)
                                               : NAN),
                     100 * c.confidence, percent(c.family_rate_lower),
                     percent(c.family_rate_upper));
  bool short_of_bound = false;
  for (const auto& e : c.entries) short_of_bound = short_of_bound || !e.reached;
  if (short_of_bound && !c.entries.empty()) {
    const std::size_t needed = stats::repetitions_for_bound(c.alpha);
    out << fmt::format(
        "{}with {} repetitions the calibrated threshold is the largest A/A change, and a further "
        "A/A change exceeds it with probability up to {}, above {}: run at least {} "
        "repetitions\n",
        bullet, c.repetitions, percent(1.0 / static_cast<double>(c.repetitions + 1)),
        percent(c.alpha), needed);
  }
  double bound = 0;
  for (const auto& e : c.entries) bound = std::max(bound, e.bound);
  out << fmt::format(
      "{}a further A/A comparison exceeds its calibrated threshold with probability at most {}; "
      "`compare --calibration FILE` raises the threshold of these rows to it\n",
      bullet, percent(bound));
}

}  // namespace benchguard::report
