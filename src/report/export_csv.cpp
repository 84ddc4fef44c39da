#include <fmt/format.h>

#include <cmath>
#include <set>

#include "report/export.hpp"
#include "report/table.hpp"

namespace benchguard::report {

namespace {

std::string schedule_of(const RunData& run) {
  for (const auto& [k, v] : run.run.artifacts)
    if (k == "schedule") return v;
  return "sequential";  // runs stored before the schedule was recorded ran so
}

}  // namespace

void export_csv(const std::vector<RunData>& runs, std::ostream& out) {
  // Columns beyond the fixed ones: every metric and artifact key seen, in first-seen order.
  std::vector<std::string> metrics, artifacts;
  std::set<std::string> seen_m, seen_a;
  for (const auto& r : runs) {
    for (const auto& [k, v] : r.run.artifacts)
      if (seen_a.insert(k).second) artifacts.push_back(k);
    for (const auto& v : r.variants)
      for (const auto& inst : v.instances)
        for (const auto& it : inst.iterations)
          for (const auto& [m, x] : it.metrics)
            if (m != "wall_time" && seen_m.insert(m).second) metrics.push_back(m);
  }
  out << "suite,benchmark,type,order,pair,runid,iteration,iteration_start_ns,iteration_end_ns,"
         "iteration_time_ns,burn_in,timed_out,failure";
  for (const auto& m : metrics) out << "," << csv_field(m);
  out << ",run,started_at";
  for (const auto& a : artifacts) out << "," << csv_field(a);
  out << "\n";

  for (const auto& r : runs) {
    const std::string run_schedule = schedule_of(r);
    std::vector<std::string> art_values;
    for (const auto& a : artifacts) {
      std::string value;
      for (const auto& [k, v] : r.run.artifacts)
        if (k == a) value = v;
      art_values.push_back(csv_field(value));
    }
    for (const auto& v : r.variants) {
      for (const auto& inst : v.instances) {
        // The instance's own schedule where it was recorded (mixed plans, imports); older
        // instances take their run's.
        const std::string& type = inst.schedule.empty() ? run_schedule : inst.schedule;
        for (const auto& it : inst.iterations) {
          const auto wall = it.metric("wall_time");
          const int64_t time_ns =
              wall ? static_cast<int64_t>(std::llround(*wall * 1e9)) : it.end_ns - it.start_ns;
          out << csv_field(r.run.suite) << "," << csv_field(v.variant.benchmark) << "," << type
              << "," << inst.schedule_tag << "," << csv_field(v.variant.name) << "," << inst.index
              << "," << it.index << "," << it.start_ns << "," << it.end_ns << "," << time_ns << ","
              << (it.burn_in ? 1 : 0) << "," << (it.timed_out ? 1 : 0) << ","
              << csv_field(it.failure.empty() ? inst.failure : it.failure);
          // Memory at benchguard's launch floor is not the benchmark's: left empty, as show
          // and compare leave it out (docs/output.md); the JSON export keeps every value.
          const bool outside = is_outside_iteration(inst, it);
          for (const auto& m : metrics) {
            const auto x = it.metric(m);
            const bool floor = outside && at_launch_floor(inst, m);
            out << "," << (x && !floor ? fmt::format("{:.17g}", *x) : "");
          }
          out << "," << r.run.uuid << "," << r.run.started_at;
          for (const auto& a : art_values) out << "," << a;
          out << "\n";
        }
      }
    }
  }
}

void export_runs(const std::vector<RunData>& runs, Format format, std::ostream& out) {
  switch (format) {
    case Format::kJson:
      export_json(runs, out);
      return;
    case Format::kJsonl:
      export_jsonl(runs, out);
      return;
    case Format::kTable:  // export's default
    case Format::kMarkdown:
    case Format::kCsv:
      export_csv(runs, out);
      return;
  }
}

}  // namespace benchguard::report
