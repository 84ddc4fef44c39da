#include "report/html/site_data.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_set>

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

// The newest change point of each series.
std::map<std::string, const analysis::ChangeRow*> newest_changes(
    const std::vector<analysis::ChangeRow>& changes) {
  std::map<std::string, const analysis::ChangeRow*> out;
  for (const auto& row : changes) {
    auto& at = out[row.change.series_key];
    if (at == nullptr || row.change.index > at->change.index) at = &row;
  }
  return out;
}

}  // namespace

std::size_t CommitTable::of(const analysis::HistoryPoint& point) const {
  const std::string& key = point_key(point);
  if (const auto it = by_address.find(&key); it != by_address.end()) return it->second;
  return index.at(key);  // a point of another history
}

CommitTable commit_table(const analysis::History& history) {
  // The first point met of each commit gives its time and branch (series by name, points
  // oldest first); then by time, and by commit among points of the same time.
  std::unordered_set<const std::string*> addresses;
  std::unordered_set<std::string_view> seen;
  CommitTable t;
  for (const auto& s : history.series)
    for (const auto& p : s.points) {
      const std::string& key = point_key(p);
      if (addresses.insert(&key).second && seen.insert(key).second)
        t.entries.push_back({key, seconds(p.time), p.branch});
    }
  std::sort(t.entries.begin(), t.entries.end(), [](const auto& a, const auto& b) {
    return a.time != b.time ? a.time < b.time : a.commit < b.commit;
  });
  t.index.reserve(t.entries.size());
  for (std::size_t i = 0; i < t.entries.size(); ++i) t.index.emplace(t.entries[i].commit, i);
  t.by_address.reserve(addresses.size());
  for (const std::string* a : addresses) t.by_address.emplace(a, t.index.at(*a));
  return t;
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
  return newest->change.status == "confirmed" ? "regression" : "suspected";
}

json overview_data(const analysis::History& history,
                   const std::vector<analysis::ChangeRow>& changes,
                   const std::map<std::string, std::size_t>& group_of, const CommitTable& commits,
                   const SiteOptions& options) {
  const auto newest = newest_changes(changes);
  json series = json::array();
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& s : history.series) {
    if (s.points.empty()) continue;
    const std::size_t from =
        s.points.size() > options.spark_points ? s.points.size() - options.spark_points : 0;
    std::vector<double> spark;
    for (std::size_t i = from; i < s.points.size(); ++i) spark.push_back(s.points[i].centre);
    const double scale = scale_of(spark);
    const auto it = newest.find(s.key());
    const analysis::ChangeRow* row = it == newest.end() ? nullptr : it->second;
    const std::string status = series_status(row);
    ++counts[severity(status)];
    const auto& last = s.points.back();
    json j = {{"page", group_of.at(s.key())},
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
    j["change"] = row != nullptr ? change_json(*row) : json(nullptr);
    series.push_back(std::move(j));
  }
  return {{"series", series},
          {"counts",
           {{"regression", counts[3]},
            {"suspected", counts[2]},
            {"acknowledged", counts[1]},
            {"ok", counts[0]}}},
          {"warnings", history.warnings}};
}

json regressions_data(const analysis::History& history,
                      const std::vector<analysis::ChangeRow>& changes,
                      const std::map<std::string, std::size_t>& group_of) {
  std::map<std::string, const analysis::HistorySeries*> by_key;
  for (const auto& s : history.series) by_key[s.key()] = &s;
  json list = json::array();
  for (const auto& row : changes) {
    json j = change_json(row);
    const auto& c = row.change;
    j["benchmark"] = c.benchmark;
    j["variant"] = c.variant;
    j["metric"] = c.metric;
    j["machine"] = c.machine;
    j["method"] = c.method;
    const auto s = by_key.find(c.series_key);
    j["unit"] = s == by_key.end() ? std::string() : s->second->metric.unit;
    const auto g = group_of.find(c.series_key);
    j["page"] = g == group_of.end() ? json(nullptr) : json(g->second);
    list.push_back(std::move(j));
  }
  return {{"changes", list}};
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
