#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "report/export.hpp"
#include "report/run_summary.hpp"

namespace benchguard::report {

namespace {

using nlohmann::json;

json key_values(const KeyValues& kv) {
  json j = json::object();
  for (const auto& [k, v] : kv) j[k] = v;
  return j;
}

json metrics_json(const IterationRecord& it) {
  json m = json::object();
  for (const auto& [k, v] : it.metrics) m[k] = v;
  return m;
}

json instance_json(const InstanceRecord& inst) {
  json j = {{"index", inst.index},
            {"order", inst.order},
            {"start_ns", inst.start_ns},
            {"end_ns", inst.end_ns},
            {"started_at", format_iso8601(inst.started_at)},
            {"exit_code", inst.exit_code},
            {"signal", inst.signal},
            {"timed_out", inst.timed_out},
            {"failure", inst.failure},
            {"user_s", inst.user_s},
            {"sys_s", inst.sys_s},
            {"max_rss_bytes", inst.max_rss_bytes},
            {"mem_peak_bytes", inst.mem_peak_bytes},
            {"mem_avg_bytes", inst.mem_avg_bytes},
            {"mem_samples", inst.mem_samples},
            {"instructions", inst.instructions ? json(*inst.instructions) : json(nullptr)},
            {"cycles", inst.cycles ? json(*inst.cycles) : json(nullptr)},
            {"cpus", inst.cpus},
            {"schedule", inst.schedule},
            {"schedule_tag", inst.schedule_tag},
            {"timed_outside", inst.timed_outside}};
  json its = json::array();
  for (const auto& it : inst.iterations)
    its.push_back({{"index", it.index},
                   {"start_ns", it.start_ns},
                   {"end_ns", it.end_ns},
                   {"burn_in", it.burn_in},
                   {"timed_out", it.timed_out},
                   {"failure", it.failure},
                   {"metrics", metrics_json(it)}});
  j["iterations"] = std::move(its);
  return j;
}

}  // namespace

void export_json(const std::vector<RunData>& runs, std::ostream& out) {
  json all = json::array();
  for (const auto& r : runs) {
    const auto& rr = r.run;
    json j = {
        {"uuid", rr.uuid},
        {"started_at", format_iso8601(rr.started_at)},
        {"finished_at", rr.finished_at ? json(format_iso8601(rr.finished_at)) : json(nullptr)},
        {"status", rr.status},
        {"suite", rr.suite},
        {"suite_path", rr.suite_path},
        {"hostname", rr.hostname},
        {"git", {{"commit", rr.git_commit}, {"branch", rr.git_branch}, {"dirty", rr.git_dirty}}},
        {"command_line", rr.command_line},
        {"labels", key_values(rr.labels)},
        {"artifacts", key_values(rr.artifacts)}};
    json vars = json::array();
    for (const auto& v : r.variants) {
      json insts = json::array();
      for (const auto& inst : v.instances) insts.push_back(instance_json(inst));
      vars.push_back(
          {{"benchmark", v.variant.benchmark},
           {"variant", v.variant.name},
           {"command", v.variant.command},
           {"params", key_values(v.variant.params)},
           {"env", key_values(v.variant.env)},
           {"config", json::parse(v.variant.config_json.empty() ? "{}" : v.variant.config_json,
                                  nullptr, false)},
           {"instances", std::move(insts)},
           {"summaries", summary_records_json(v)}});
    }
    j["variants"] = std::move(vars);
    all.push_back(std::move(j));
  }
  out << json_text(json({{"benchguard_version", kVersion}, {"runs", std::move(all)}}), 2) << "\n";
}

// Hail's instance record: {path, name, version, start, end, iterations: [{time, is_burn_in,
// timed_out, failure, task_memory}]}; benchguard adds variant, instance, run and the
// instance's own failure. time is seconds; task_memory is the instance's peak memory in bytes.
void export_jsonl(const std::vector<RunData>& runs, std::ostream& out) {
  for (const auto& r : runs) {
    for (const auto& v : r.variants) {
      for (const auto& inst : v.instances) {
        const double mem = instance_peak_memory(inst);
        json its = json::array();
        for (const auto& it : inst.iterations) {
          const auto wall = it.metric("wall_time");
          its.push_back({{"time", wall ? json(*wall) : json(nullptr)},
                         {"is_burn_in", it.burn_in},
                         {"timed_out", it.timed_out},
                         {"failure", it.failure.empty() ? json(nullptr) : json(it.failure)},
                         {"task_memory", mem}});
        }
        const int64_t dur = inst.end_ns - inst.start_ns;
        json j = {{"path", r.run.suite_path.empty() ? r.run.suite : r.run.suite_path},
                  {"name", v.variant.benchmark},
                  {"version", kVersion},
                  {"start", format_iso8601(inst.started_at)},
                  {"end", format_iso8601(inst.started_at + dur)},
                  {"iterations", std::move(its)},
                  {"variant", v.variant.name},
                  {"instance", inst.index},
                  {"run", r.run.uuid},
                  {"failure", inst.failure.empty() ? json(nullptr) : json(inst.failure)}};
        out << json_text(j) << "\n";
      }
    }
  }
}

}  // namespace benchguard::report
