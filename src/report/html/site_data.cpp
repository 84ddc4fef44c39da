#include "report/html/site_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_set>

#include "core/json_error.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

int64_t seconds(int64_t ns) {
  return ns / 1'000'000'000;
}

const std::string& point_key(const analysis::HistoryPoint& p) {
  static const std::string none;
  if (!p.commit.empty()) return p.commit;
  return p.run_uuids.empty() ? none : p.run_uuids.front();
}

json change_json(const analysis::ChangeRow& row) {
  const auto& c = row.change;
  json j = {{"id", c.id},
            {"index", c.index},
            {"kind", c.kind},
            {"status", c.status},
            {"change", json_number(c.change)},
            {"lower", json_number(c.change_lower)},
            {"upper", json_number(c.change_upper)},
            {"p", json_number(c.p_value)},
            {"before", json_number(c.before)},
            {"after", json_number(c.after)},
            {"last_good", c.last_good},
            {"first_bad", c.first_bad},
            {"time", seconds(c.first_bad_time)}};
  j["ack"] = row.ack != nullptr ? json(row.ack->reason) : json(nullptr);
  return j;
}

int severity(const std::string& status) {
  return status == "regression" ? 3 : status == "suspected" ? 2 : status == "acknowledged" ? 1 : 0;
}

const char* direction(const MetricInfo& m) {
  return m.direction == Direction::kHigherIsBetter ? "higher" : "lower";
}

}  // namespace

std::size_t CommitTable::of(const analysis::HistoryPoint& point) const {
  const std::string& key = point_key(point);
  if (const auto it = by_address.find(&key); it != by_address.end()) return it->second;
  return index.at(key);  // a point of another history
}

std::optional<CommitTable> commit_table_after(std::vector<CommitTable::Entry> before,
                                              const analysis::History& history) {
  CommitTable t;
  t.entries = std::move(before);
  const std::size_t kept = t.entries.size();
  t.index.reserve(kept);
  for (std::size_t i = 0; i < kept; ++i) t.index.emplace(t.entries[i].commit, i);
  // The first point met of each new commit gives its time and branch (series by name, points
  // oldest first); then by time, and by commit among points of the same time.
  std::unordered_set<const std::string*> addresses;
  std::unordered_set<std::string_view> seen;
  for (const auto& s : history.series)
    for (const auto& p : s.points) {
      const std::string& key = point_key(p);
      if (addresses.insert(&key).second && !t.index.contains(key) && seen.insert(key).second)
        t.entries.push_back({key, seconds(p.time), p.branch});
    }
  const auto before_in_order = [](const auto& a, const auto& b) {
    return a.time != b.time ? a.time < b.time : a.commit < b.commit;
  };
  std::sort(t.entries.begin() + static_cast<std::ptrdiff_t>(kept), t.entries.end(),
            before_in_order);
  // The commits already listed keep their numbers only when every new one comes after them.
  if (kept > 0 && t.entries.size() > kept && !before_in_order(t.entries[kept - 1], t.entries[kept]))
    return std::nullopt;
  for (std::size_t i = kept; i < t.entries.size(); ++i) t.index.emplace(t.entries[i].commit, i);
  t.by_address.reserve(addresses.size());
  for (const std::string* a : addresses) t.by_address.emplace(a, t.index.at(*a));
  return t;
}

CommitTable commit_table(const analysis::History& history) {
  // With no commit known before, every commit is new: the table of the whole history.
  return *commit_table_after({}, history);
}

std::string commits_script(const CommitTable& commits, const std::vector<int64_t>& run_pages,
                           const std::vector<int64_t>& plan_pages, bool all_run_pages) {
  json list = json::array();
  for (const auto& e : commits.entries) list.push_back({e.commit, e.time, e.branch});
  std::vector<int64_t> sorted = run_pages;
  std::sort(sorted.begin(), sorted.end());
  const json data = {{"commits", list},
                     {"runPages", sorted},
                     {"planPages", plan_pages},
                     {"allRunPages", all_run_pages}};
  // A JSON value is a JavaScript expression; json_for_html leaves nothing in it that could end
  // the script early.
  return "window.benchguardCommits = " + json_for_html(data) + ";\n";
}

std::string series_status(const analysis::ChangeRow* newest) {
  if (newest == nullptr || newest->change.kind != "regression") return "ok";
  if (newest->ack != nullptr) return "acknowledged";
  const std::string& status = newest->change.status;
  // Open: confirmed, or an alarm the gate raised (docs/history.md, "One change, one alarm").
  if (status == "confirmed" || status == "alarm") return "regression";
  if (status == "undone" || status == "refuted") return "ok";
  return "suspected";
}

json overview_row(const analysis::HistorySeries& s, const analysis::ChangeRow* newest,
                  std::size_t page, const CommitTable& commits, const SiteOptions& options) {
  if (s.points.empty()) return nullptr;
  const std::size_t from =
      s.points.size() > options.spark_points ? s.points.size() - options.spark_points : 0;
  std::vector<double> spark;
  for (std::size_t i = from; i < s.points.size(); ++i) spark.push_back(s.points[i].centre);
  const double scale = scale_of(spark);
  const std::string status = series_status(newest);
  const auto& last = s.points.back();
  json j = {{"page", page},
            {"benchmark", s.benchmark},
            {"variant", s.variant},
            {"metric", s.metric.name},
            {"unit", s.metric.unit},
            {"direction", direction(s.metric)},
            {"machine", s.machine},
            {"points", s.points.size()},
            {"scale", scale},
            {"spark", scaled(spark, scale)},
            {"last", {{"commit", commits.of(last)}, {"value", json_number(last.centre)}}},
            {"status", status},
            {"severity", severity(status)}};
  j["change"] = newest != nullptr ? change_json(*newest) : json(nullptr);
  // Runs of different settings joined into the series: said, with what differs.
  if (auto differ = analysis::differing_settings(s); !differ.empty()) j["settings"] = differ;
  return j;
}

std::string overview_text(const std::vector<std::pair<std::string_view, int>>& rows,
                          const std::vector<std::string>& warnings) {
  std::size_t counts[4] = {0, 0, 0, 0};
  std::size_t size = 0;
  for (const auto& r : rows) size += r.first.size() + 1;
  std::string series;
  series.reserve(size);
  for (const auto& [row, level] : rows) {
    if (row.empty()) continue;
    ++counts[std::clamp(level, 0, 3)];
    if (!series.empty()) series += ',';
    series += row;
  }
  // As json_text writes an object: its keys in order.
  return fmt::format(
      "{{\"counts\":{{\"acknowledged\":{},\"ok\":{},\"regression\":{},\"suspected\":{}}},"
      "\"series\":[{}],\"warnings\":{}}}",
      counts[1], counts[0], counts[3], counts[2], series, json_text(json(warnings)));
}

const analysis::ChangeRow* newest_change(const std::vector<const analysis::ChangeRow*>& rows) {
  const analysis::ChangeRow* at = nullptr;
  for (const auto* row : rows)
    if (at == nullptr || row->change.index > at->change.index) at = row;
  return at;
}

json regression_row(const analysis::ChangeRow& row, const std::string& unit,
                    std::optional<std::size_t> page) {
  json j = change_json(row);
  const auto& c = row.change;
  j["benchmark"] = c.benchmark;
  j["variant"] = c.variant;
  j["metric"] = c.metric;
  j["machine"] = c.machine;
  j["method"] = c.method;
  j["unit"] = unit;
  j["page"] = page ? json(*page) : json(nullptr);
  return j;
}

std::string regressions_text(const std::vector<std::string_view>& changes) {
  std::string list;
  for (const auto series : changes) {
    // "[a,b]": its rows, "a,b".
    if (series.size() <= 2) continue;
    if (!list.empty()) list += ',';
    list += series.substr(1, series.size() - 2);
  }
  return "{\"changes\":[" + list + "]}";
}

json runs_data(const std::vector<store::RunSummary>& runs, const std::vector<int64_t>& run_pages,
               bool all_run_pages) {
  const std::set<int64_t> paged(run_pages.begin(), run_pages.end());
  json list = json::array();
  for (const auto& r : runs) {
    json labels = json::object();
    for (const auto& [k, v] : r.labels) labels[k] = v;
    list.push_back({{"id", r.id},
                    {"uuid", r.uuid},
                    {"started", seconds(r.started_at)},
                    {"status", r.status},
                    {"suite", r.suite},
                    {"host", r.hostname},
                    {"commit", r.git_commit},
                    {"branch", r.git_branch},
                    {"benchmarks", r.benchmarks},
                    {"instances", r.instances},
                    {"labels", labels},
                    {"page", all_run_pages || paged.contains(r.id)}});
  }
  return {{"runs", list}};
}

json benchmark_data(const std::string& benchmark, const std::string& variant,
                    const std::string& machine,
                    const std::vector<const analysis::HistorySeries*>& series,
                    const std::vector<analysis::ChangeRow>& changes, const CommitTable& commits,
                    const SiteOptions& options) {
  json charts = json::array();
  for (const auto* s : series) {
    const std::string key = s->key();
    std::vector<int64_t> commit_index, run;
    std::vector<double> centre, below, above;
    std::vector<std::size_t> instances;
    for (const auto& p : s->points) {
      commit_index.push_back(static_cast<int64_t>(commits.of(p)));
      run.push_back(p.runs.empty() ? 0 : p.runs.back());
      centre.push_back(p.centre);
      below.push_back(p.centre - p.interval.lower);
      above.push_back(p.interval.upper - p.centre);
      instances.push_back(p.instances());
    }
    const double scale = scale_of(centre);
    // Intervals to a tenth of the centre's last digit: they are drawn, not read.
    const double interval_scale = 10 * scale;
    // Instance means of the newest points, shown on demand.
    const std::size_t from =
        s->points.size() > options.instance_points ? s->points.size() - options.instance_points : 0;
    json inst = json::array();
    for (std::size_t i = from; i < s->points.size(); ++i)
      inst.push_back(scaled(stats::instance_means(s->points[i].data), scale));
    json marks = json::array();
    for (const auto& row : changes)
      if (row.change.series_key == key) marks.push_back(change_json(row));
    std::vector<int64_t> counts(instances.begin(), instances.end());
    charts.push_back({{"key", key},
                      {"metric", s->metric.name},
                      {"unit", s->metric.unit},
                      {"direction", direction(s->metric)},
                      {"scale", scale},
                      {"intervalScale", interval_scale},
                      {"commit", index_deltas(commit_index)},
                      {"run", index_deltas(run)},
                      {"centre", scaled_deltas(centre, scale)},
                      {"below", scaled(below, interval_scale)},
                      {"above", scaled(above, interval_scale)},
                      {"instances", run_lengths(counts)},
                      {"instancesFrom", from},
                      {"instanceMeans", inst},
                      {"changes", marks}});
  }
  return {{"benchmark", benchmark}, {"variant", variant}, {"machine", machine}, {"charts", charts}};
}

}  // namespace benchguard::report::html
