#include "report/history.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_error.hpp"
#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace benchguard::report {
namespace {

using analysis::ChangeRow;
using analysis::GateReport;
using nlohmann::json;

std::string short_name(const std::string& commit) {
  return commit.substr(0, 10);
}

std::string percent(double v) {
  return percent_text(v, 1, /*sign=*/true);
}

std::string interval_text(double lo, double hi, const std::string& unit) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "-";
  return unit == "%" ? fmt::format("[{}, {}]", percent(lo), percent(hi))
                     : fmt::format("[{}, {}]", format_value(lo, unit), format_value(hi, unit));
}

std::string p_text(double p) {
  if (!std::isfinite(p)) return "-";
  return p < 1e-4 ? fmt::format("{:.1e}", p) : fmt::format("{:.4f}", p);
}

// The unit of a series' metric, from the change's metric name (built-in, else none).
std::string unit_of(const std::string& metric) {
  const MetricInfo* m = find_builtin_metric(metric);
  return m != nullptr ? m->unit : "";
}

std::string series_text(const store::ChangeRecord& c) {
  std::string s = c.benchmark;
  if (!c.variant.empty()) s += " [" + c.variant + "]";
  return s;
}

std::string ack_text(const ChangeRow& r) {
  if (r.ack == nullptr) return "";
  return r.ack->reason.empty() ? "acknowledged" : "acknowledged: " + r.ack->reason;
}

json change_json(const ChangeRow& r) {
  const auto& c = r.change;
  json j = {{"id", c.id},
            {"benchmark", c.benchmark},
            {"variant", c.variant},
            {"metric", c.metric},
            {"machine", c.machine},
            {"method", c.method},
            {"last_good", c.last_good},
            {"first_bad", c.first_bad},
            {"first_bad_time", format_iso8601(c.first_bad_time)},
            {"index", c.index},
            {"before", json_number(c.before)},
            {"after", json_number(c.after)},
            {"change", json_number(c.change)},
            {"change_interval", {json_number(c.change_lower), json_number(c.change_upper)}},
            // The change was reported because it looked large: its size and interval are not
            // adjusted for that selection (measuring again gives an unselected size).
            {"change_interval_adjusted_for_selection", false},
            {"p_value", json_number(c.p_value)},
            {"kind", c.kind},
            {"status", c.status},
            {"detected_at", format_iso8601(c.detected_at)}};
  if (r.ack != nullptr)
    j["acknowledged"] = {{"reason", r.ack->reason}, {"at", format_iso8601(r.ack->acked_at)}};
  else
    j["acknowledged"] = nullptr;
  return j;
}

// Said under every table of changes with rows: the sizes are those of selected changes.
constexpr const char* kSelectionNote =
    "sizes and intervals as found: not adjusted for selection (a change is reported because it "
    "looked large; `confirm` measures it again)";

Cell percent_cell(double v) {
  return Cell::value(v, percent(v));
}

Table changes_table(const std::vector<ChangeRow>& rows) {
  Table t;
  t.columns = {Column::left("id", "id"),
               Column::left("benchmark", "benchmark"),
               Column::left("benchmark", "variant").scripts_only(),
               Column::left("metric", "metric"),
               Column::left("unit", "unit").scripts_only(),
               Column::left("commits", "commits").people_only(),
               Column::left("commits", "last_good").scripts_only(),
               Column::left("commits", "first_bad").scripts_only(),
               Column::number("before", "before"),
               Column::number("after", "after"),
               Column::number("change", "change"),
               Column::number("interval", "interval").people_only(),
               Column::number("interval", "change_lower").scripts_only(),
               Column::number("interval", "change_upper").scripts_only(),
               Column::number("p", "p_value"),
               Column::left("kind", "kind"),
               Column::left("status", "status"),
               Column::left("ack", "acknowledged")};
  for (const auto& r : rows) {
    const auto& c = r.change;
    const std::string unit = unit_of(c.metric);
    t.add_row({c.id, series_text(c), c.variant, c.metric, unit,
               short_name(c.last_good) + ".." + short_name(c.first_bad), c.last_good, c.first_bad,
               Cell::value(c.before, format_value(c.before, unit)),
               Cell::value(c.after, format_value(c.after, unit)), percent_cell(c.change),
               Cell::none(interval_text(c.change_lower, c.change_upper, "%")),
               Cell::value(c.change_lower, ""), Cell::value(c.change_upper, ""),
               Cell::value(c.p_value, p_text(c.p_value)), c.kind, c.status, ack_text(r)});
  }
  if (!rows.empty()) t.notes.emplace_back(kSelectionNote);
  return t;
}

// The n column: instances; for a summary point "s" and the measurements it summarises
// ("s:30", "s:?" when the source did not say).
std::string point_count(const analysis::HistoryPoint& p) {
  if (!p.summary()) return std::to_string(p.instances());
  const int64_t n = p.summarised();
  return n > 0 ? "s:" + std::to_string(n) : "s:?";
}

}  // namespace

Document history_document(const analysis::History& history) {
  Document d;
  d.schema = "history";
  json all = json::array();
  for (const auto& s : history.series) {
    json points = json::array();
    for (const auto& p : s.points)
      points.push_back(
          {{"commit", p.commit},
           {"branch", p.branch},
           {"time", format_iso8601(p.time)},
           {"runs", p.run_uuids},
           {"instances", p.instances()},
           {"summary", p.summary()},
           {"summarised", p.summarised() > 0 ? json(p.summarised()) : json(nullptr)},
           {"centre", json_number(p.centre)},
           {"interval", {json_number(p.interval.lower), json_number(p.interval.upper)}}});
    all.push_back({{"benchmark", s.benchmark},
                   {"variant", s.variant},
                   {"metric", s.metric.name},
                   {"unit", s.metric.unit},
                   {"machine", s.machine},
                   {"points", std::move(points)}});
  }
  d.json = {{"series", std::move(all)}, {"warnings", history.warnings}};
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("benchmark", "variant").scripts_only(),
               Column::left("metric", "metric"),
               Column::left("unit", "unit").scripts_only(),
               Column::left("machine", "machine"),
               Column::left("commit", "commit"),
               Column::left("date", "time"),
               Column::number("runs", "runs"),
               Column::number("n", "n").people_only(),
               Column::number("n", "instances").scripts_only(),
               Column::number("n", "summarised").scripts_only(),
               Column::number("centre", "centre"),
               Column::number("interval", "interval").people_only(),
               Column::number("interval", "lower").scripts_only(),
               Column::number("interval", "upper").scripts_only()};
  for (const auto& s : history.series) {
    std::string name = s.benchmark;
    if (!s.variant.empty()) name += " [" + s.variant + "]";
    for (const auto& p : s.points)
      t.add_row({Cell::both(name, s.benchmark), s.variant, s.metric.name, s.metric.unit, s.machine,
                 Cell::both(p.commit.empty() ? "run " + p.run_uuids.front().str().substr(0, 8)
                                             : short_name(p.commit),
                            p.commit),
                 Cell::both(format_time(p.time), format_iso8601(p.time)),
                 Cell::count(static_cast<std::int64_t>(p.runs.size())), Cell::none(point_count(p)),
                 Cell::count(p.instances()),
                 p.summarised() > 0 ? Cell::count(p.summarised()) : Cell::none(""),
                 Cell::value(p.centre, format_value(p.centre, s.metric.unit)),
                 Cell::none(interval_text(p.interval.lower, p.interval.upper, s.metric.unit)),
                 Cell::value(p.interval.lower, ""), Cell::value(p.interval.upper, "")});
  }
  const bool empty = history.series.empty();
  if (empty) d.line({own("no history: no finished runs match")}).only(0, Format::kTable);
  d.table(std::move(t), true);
  if (empty) d.blocks.back().text = false;
  return d;
}

Document changes_document(const std::vector<ChangeRow>& rows) {
  Document d;
  d.schema = "detect";
  d.json["changes"] = json::array();
  for (const auto& r : rows) d.json["changes"].push_back(change_json(r));
  if (rows.empty()) d.line({own("no change points")}).only(0, Format::kTable);
  d.table(changes_table(rows), true);
  if (rows.empty()) d.blocks.back().text = false;
  return d;
}

namespace {

// "instructions (required): 3 benchmarks, moved: 1 regression", and what is missing.
std::string channel_text(const analysis::ChannelResult& c) {
  std::string moved;
  if (c.regressions > 0) moved += fmt::format("{} regression(s)", c.regressions);
  if (c.improvements > 0)
    moved += fmt::format("{}{} improvement(s)", moved.empty() ? "" : ", ", c.improvements);
  std::string text =
      fmt::format("{}{}: {} benchmark(s), {}", c.metric, c.required ? " (required)" : "",
                  c.benchmarks, moved.empty() ? "unchanged" : "moved: " + moved);
  if (!c.missing.empty())
    text += fmt::format(
        "; NO RESULT at the newest run for {} (not measured, or no verdict: see the notes)",
        fmt::join(c.missing, ", "));
  return text;
}

}  // namespace

void render_gate_markdown(const GateReport& gate, std::ostream& out) {
  out << "### benchguard gate: " << (gate.failed() ? "**failed**" : "passed") << "\n\n";
  out << fmt::format(
      "Newest commit `{}` against {}: {} unacknowledged regression(s), {} result(s), "
      "{} newest point(s) checked.\n\n",
      markdown_text(short_name(gate.head)), markdown_text(gate.against), gate.alerts.size(),
      gate.results.size(), gate.head_checks);
  if (gate.failed()) {
    Table t;
    t.columns = {Column::left("id", "id"),           Column::left("benchmark", "benchmark"),
                 Column::left("metric", "metric"),   Column::left("commits", "commits"),
                 Column::number("change", "change"), Column::number("interval", "interval")};
    for (const auto& r : gate.alerts) {
      const auto& c = r.change;
      t.add_row({c.id, series_text(c), c.metric,
                 short_name(c.last_good) + ".." + short_name(c.first_bad), percent(c.change),
                 interval_text(c.change_lower, c.change_upper, "%")});
    }
    t.notes.emplace_back(kSelectionNote);
    render_markdown(t, out);
    out << "\nA known regression stops failing the gate with `benchguard ack ID --reason "
           "TEXT`.\n\n";
  }
  if (!gate.channels.empty()) {
    out << "Channels at the newest commit:\n\n";
    for (const auto& c : gate.channels) out << "- " << markdown_text(channel_text(c)) << "\n";
    out << "\n";
  }
  for (const auto& n : gate.notes) out << "- " << markdown_text(n) << "\n";
  if (!gate.notes.empty()) out << "\n";
  out << "<details><summary>All results (" << gate.results.size() << ")</summary>\n\n";
  if (gate.results.empty())
    out << "No change points.\n";
  else
    render_markdown(changes_table(gate.results), out);
  out << "\n</details>\n";
}

Document confirmation_document(const store::ChangeRecord& change,
                               const analysis::Confirmation& confirmation) {
  Document d;
  d.schema = "confirm";
  const std::string& run_uuid = confirmation.run_uuid;
  d.json = change_json({change, nullptr});
  d.json["confirmation_run"] = run_uuid;
  d.json["confirmation"] = {
      {"run", run_uuid},
      {"verdict", confirmation.verdict},
      {"change", json_number(confirmation.change)},
      {"change_interval", {json_number(confirmation.lower), json_number(confirmation.upper)}},
      {"instances", confirmation.instances}};
  const std::string measured = analysis::measured_text(confirmation);
  d.line({data(fmt::format(
      "change {} ({} {}, {}..{}, {} at the time it was found, not adjusted for selection): "
      "{} by measuring both commits "
      "again{} (run {})",
      change.id, series_text(change), change.metric, short_name(change.last_good),
      short_name(change.first_bad), percent(change.change), change.status,
      measured.empty() ? "" : ": " + measured, run_uuid.substr(0, 8)))});
  d.table(changes_table({{change, nullptr}}), true);
  d.blocks.back().text = d.blocks.back().markdown = false;
  return d;
}

void render_issue(const IssueFacts& f, std::ostream& out) {
  const auto& c = f.change.change;
  const auto md = [](const std::string& t) { return markdown_text(t); };
  out << fmt::format("### Performance {}: {} {} {} {}\n\n", md(c.kind), md(series_text(c)),
                     md(c.metric), percent(c.change),
                     interval_text(c.change_lower, c.change_upper, "%"));
  out << fmt::format("- **Benchmark**: `{}`, variant `{}`, metric `{}`, machine class `{}`\n",
                     md(c.benchmark), md(c.variant), md(c.metric), md(c.machine));
  out << fmt::format(
      "- **Size**: {} (interval {}, as found: not adjusted for selection); before {:.6g}, "
      "after {:.6g}\n",
      percent(c.change), interval_text(c.change_lower, c.change_upper, "%"), c.before, c.after);
  out << fmt::format(
      "- **Commits**: last good `{}`, first bad `{}`{}\n", md(c.last_good), md(c.first_bad),
      f.commits_in_range > 1 ? fmt::format(" ({} commits in the range)", f.commits_in_range) : "");
  std::string culprit = f.culprit.empty()
                            ? std::string("not known yet: the range holds more than one commit")
                            : "`" + md(f.culprit) + "`";
  if (!f.culprit.empty() && f.culprit_measured) {
    const std::string m = analysis::measured_text(*f.culprit_measured);
    culprit += fmt::format(", found by `bisect`: against its parent {}({}), run `{}`",
                           m.empty() ? "" : m + " ", md(f.culprit_measured->verdict),
                           f.culprit_measured->run_uuid.substr(0, 8));
  }
  out << fmt::format("- **Culprit**: {}\n", culprit);
  out << fmt::format(
      "- **Found**: by {} (p = {:.2g}), {}; status **{}**\n",
      c.method == "head" ? "the head check, when it was the newest commit" : md(c.method),
      c.p_value, format_iso8601(c.detected_at), md(c.status));
  if (f.change.ack != nullptr)
    out << fmt::format("- **Acknowledged**: {} ({})\n", md(f.change.ack->reason),
                       format_iso8601(f.change.ack->acked_at));
  for (const auto& r : f.confirmations) {
    // The run that decided the status says what it measured.
    std::string measured;
    if (f.measured && f.measured->run_uuid == r.uuid)
      if (const std::string m = analysis::measured_text(*f.measured); !m.empty())
        measured = fmt::format("{} ({}), ", m, md(f.measured->verdict));
    out << fmt::format("- **Measured again**: {}run `{}` ({}), `benchguard compare {}` shows it\n",
                       measured, r.uuid.substr(0, 8), format_iso8601(r.started_at),
                       r.uuid.substr(0, 8));
  }
  out << fmt::format(
      "\n**Reproduce**\n\n```sh\nbenchguard ab SUITE.yml --ref {} --ref {} --build \"BUILD\"\n"
      "benchguard confirm {} SUITE.yml --build \"BUILD\"\n",
      c.last_good, c.first_bad, c.id);
  if (f.culprit.empty())
    out << fmt::format("benchguard bisect SUITE.yml --change {} --build \"BUILD\"\n", c.id);
  out << fmt::format("benchguard ack {} --reason \"...\"   # when it is accepted\n```\n", c.id);
}

Document gate_document(const GateReport& gate) {
  Document d;
  d.schema = "gate";
  json alerts = json::array(), results = json::array(), channels = json::array();
  for (const auto& c : gate.channels)
    channels.push_back({{"metric", c.metric},
                        {"required", c.required},
                        {"benchmarks", c.benchmarks},
                        {"regressions", c.regressions},
                        {"improvements", c.improvements},
                        {"missing", c.missing}});
  for (const auto& r : gate.alerts) alerts.push_back(change_json(r));
  for (const auto& r : gate.results) results.push_back(change_json(r));
  d.json = {{"failed", gate.failed()},
            {"against", gate.against},
            {"head", gate.head},
            {"head_checks", gate.head_checks},
            {"alerts", std::move(alerts)},
            {"channels", std::move(channels)},
            {"results", std::move(results)},
            {"notes", gate.notes}};
  std::ostringstream md;
  render_gate_markdown(gate, md);
  d.raw(Format::kMarkdown, md.str());
  const std::size_t text = d.blocks.size();
  d.line({own(fmt::format("gate {}: {} unacknowledged regression(s) at ",
                          gate.failed() ? "FAILED" : "passed", gate.alerts.size())),
          data(short_name(gate.head)), own(" against "), data(gate.against),
          own(fmt::format(" ({} newest point(s) checked)", gate.head_checks))});
  for (const auto& c : gate.channels) d.line({own("channel "), data(channel_text(c))});
  for (const auto& n : gate.notes) d.line({own("note: "), data(n)});
  if (!gate.alerts.empty()) d.table(changes_table(gate.alerts));
  d.only(text, Format::kTable);
  // Scripts read every result, the alerts among them (status and ack say which).
  d.table(changes_table(gate.results), true);
  d.blocks.back().text = d.blocks.back().markdown = false;
  return d;
}

}  // namespace benchguard::report
