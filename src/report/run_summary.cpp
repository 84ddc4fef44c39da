#include "report/run_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/samples.hpp"
#include "core/iterations.hpp"
#include "core/json_number.hpp"
#include "core/units.hpp"
#include "report/number_text.hpp"
#include "stats/descriptive.hpp"

namespace benchguard::report {

std::optional<double> instance_peak_memory(const InstanceRecord& inst) {
  // At the launch floor the figure bounds the benchmark's memory from above and says nothing
  // else (core/model.hpp): compare withholds it, so show does too.
  if (at_launch_floor(inst, "peak_memory")) return std::nullopt;
  // Nothing measured it (an imported instance).
  if (inst.mem_peak_bytes <= 0 && inst.max_rss_bytes <= 0) return std::nullopt;
  // The kernel's peak of the instance's own memory cgroup, exact.
  if (exact_peak_memory(inst)) return static_cast<double>(inst.mem_peak_bytes);
  // ru_maxrss carries the launcher's own high-water mark across exec (docs/measurement.md),
  // so the sampled tree peak is the better figure whenever the sampler saw the instance.
  if (inst.mem_samples > 0) return static_cast<double>(inst.mem_peak_bytes);
  return static_cast<double>(std::max(inst.mem_peak_bytes, inst.max_rss_bytes));
}

std::vector<VariantSummary> summarize_run(const RunData& run, const std::string& metric) {
  std::vector<VariantSummary> out;
  for (const auto& v : run.variants) {
    VariantSummary s;
    s.benchmark = v.variant.benchmark;
    s.variant = v.variant.name;
    s.metric = !metric.empty()                      ? metric
               : analysis::counted_by_simulation(v) ? "instructions"
                                                    : "wall_time";
    const MetricInfo* info = find_builtin_metric(s.metric);
    s.unit = info != nullptr ? info->unit : "";
    std::vector<double> all;
    for (const auto& inst : v.instances) {
      (inst.ok() ? s.instances_ok : s.instances_failed)++;
      if (const auto peak = instance_peak_memory(inst))
        s.peak_memory = std::max(std::isnan(s.peak_memory) ? 0.0 : s.peak_memory, *peak);
      else if (at_launch_floor(inst, "peak_memory"))
        ++s.memory_at_floor;
      s.launch_floor = std::max(s.launch_floor, static_cast<double>(inst.rss_floor_bytes));
      if (!inst.mem_source.empty() && s.memory_source != inst.mem_source)
        s.memory_source = s.memory_source.empty() ? inst.mem_source : "mixed";
      const IterationsView its(inst);
      for (std::size_t k = 0; k < its.size(); ++k) s.burn_in += its.burn_in(k) ? 1 : 0;
    }
    // What `show` reports is what was measured: flagged burn-in out, nothing detected on top.
    analysis::BurnInPolicy configured;
    configured.mode = analysis::BurnInPolicy::Mode::kConfigured;
    const auto sample = analysis::extract(v, s.metric, configured);
    all.assign(sample.data.values().begin(), sample.data.values().end());
    s.iterations = static_cast<int>(all.size());
    if (!all.empty()) {
      s.mean = stats::mean(all);
      s.median = stats::median(all);
      s.min = stats::min(all);
      s.max = stats::max(all);
      if (all.size() > 1) {
        s.stdev = stats::stdev(all);
        s.cv = stats::cv(all);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

Table summary_records_table(const RunData& run) {
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("variant", "variant"),
               Column::left("metric", "metric"),
               Column::number("count", "count"),
               Column::number("mean", "mean"),
               Column::number("stddev", "stddev"),
               Column::number("median", "median"),
               Column::number("min", "min"),
               Column::number("max", "max")};
  for (const auto& v : run.variants)
    for (const auto& s : v.summaries) {
      const std::string unit = analysis::metric_info(v, s.metric).unit;
      const auto value = [&](std::optional<double> x) {
        return x ? Cell::value(*x, format_value(*x, unit)) : Cell::none();
      };
      t.add_row({v.variant.benchmark, v.variant.name, s.metric,
                 s.count > 0 ? Cell::count(s.count) : Cell::none("?"), value(s.mean),
                 value(s.stddev), value(s.median), value(s.min), value(s.max)});
    }
  return t;
}

namespace {

nlohmann::json show_json(const RunData& run, const std::vector<VariantSummary>& rows) {
  nlohmann::json j;
  j["run"] = {{"id", run.id},
              {"uuid", run.run.uuid},
              {"started_at", format_iso8601(run.run.started_at)},
              {"status", run.run.status},
              {"suite", run.run.suite},
              {"hostname", run.run.hostname},
              {"git_commit", run.run.git_commit}};
  j["summaries"] = nlohmann::json::array();
  for (const auto& v : run.variants)
    for (auto& s : summary_records_json(v)) {
      s["benchmark"] = v.variant.benchmark;
      s["variant"] = v.variant.name;
      j["summaries"].push_back(std::move(s));
    }
  j["benchmarks"] = nlohmann::json::array();
  for (const auto& s : rows) {
    const bool empty = s.iterations == 0;
    const auto value = [&](double x) { return empty ? nlohmann::json() : json_number(x); };
    j["benchmarks"].push_back({{"benchmark", s.benchmark},
                               {"variant", s.variant},
                               {"metric", s.metric},
                               {"unit", s.unit},
                               {"instances", s.instances_ok},
                               {"instances_failed", s.instances_failed},
                               {"iterations", s.iterations},
                               {"burn_in", s.burn_in},
                               {"mean", value(s.mean)},
                               {"median", value(s.median)},
                               {"min", value(s.min)},
                               {"max", value(s.max)},
                               {"stdev", value(s.stdev)},
                               {"cv", value(s.cv)},
                               {"peak_memory_bytes", json_number(s.peak_memory)},
                               {"instances_memory_at_launch_floor", s.memory_at_floor},
                               {"memory_source", s.memory_source}});
  }
  return j;
}

}  // namespace

std::string launch_floor_note(int at_floor, int instances, double floor_bytes) {
  return fmt::format(
      "peak memory: {} of {} instances ended before their memory was sampled {} times and "
      "stayed below benchguard's own size at launch ({}): not shown (docs/measurement.md)",
      at_floor, instances, kMinTreeSamples, format_bytes(floor_bytes));
}

std::string memory_source_note(const std::vector<std::string>& sources) {
  bool v1 = false, v2 = false, other = false;
  for (const auto& s : sources) {
    v1 = v1 || s == "cgroup1";
    v2 = v2 || s == "cgroup2";
    other = other || (s != "cgroup1" && s != "cgroup2");
  }
  if (!v1 && !v2) return "";
  const char* files = v1 && v2 ? "memory.peak, memory.max_usage_in_bytes"
                      : v2     ? "cgroup v2 memory.peak"
                               : "cgroup v1 memory.max_usage_in_bytes";
  return fmt::format(
      "peak memory: the kernel's peak of a memory cgroup of each instance's own ({}), exact "
      "however short the instance{} (docs/measurement.md)",
      files, other ? "; other rows: sampled or not recorded" : "");
}

Document run_document(const RunData& run) {
  const auto rows = summarize_run(run);
  Document d;
  d.schema = "show";
  d.json = show_json(run, rows);
  const auto& r = run.run;
  std::string head = fmt::format("run {} ({}) {} on {}", r.uuid.substr(0, 8), r.status,
                                 format_time(r.started_at), r.hostname);
  if (!r.git_commit.empty())
    head += fmt::format(", git {}{}", r.git_commit.substr(0, 10), r.git_dirty ? "+dirty" : "");
  d.line({Span{head, true, true}});
  d.raw(Format::kMarkdown, "\n");
  // A variant counted under Valgrind is shown by its instructions: then the table names the
  // metric of each row.
  const bool named =
      std::any_of(rows.begin(), rows.end(), [](const auto& s) { return s.metric != "wall_time"; });
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::left("variant", "variant"),
               Column::left("metric", "metric"),
               Column::left("unit", "unit").scripts_only(),
               Column::number("instances", "instances"),
               Column::number("instances", "instances_failed").scripts_only(),
               Column::number("iterations", "iterations"),
               Column::number("mean", "mean"),
               Column::number("median", "median"),
               Column::number("min", "min"),
               Column::number("max", "max"),
               Column::number("stdev", "stdev"),
               Column::number("cv", "cv"),
               Column::number("peak memory", "peak_memory_bytes")};
  if (!named) t.columns[2].shown = Column::For::kScripts;
  int at_floor = 0, instances = 0;
  double floor = 0;
  std::vector<std::string> sources;
  for (const auto& s : rows) {
    sources.push_back(s.memory_source);
    const bool empty = s.iterations == 0;
    const auto v = [&](double x) {
      return empty ? Cell::none() : Cell::value(x, format_value(x, s.unit));
    };
    Cell inst = Cell::count(s.instances_ok);
    if (s.instances_failed > 0) inst.text += fmt::format(" (+{} failed)", s.instances_failed);
    t.add_row(
        {s.benchmark, s.variant, s.metric, s.unit, std::move(inst), Cell::count(s.instances_failed),
         Cell::count(s.iterations), v(s.mean), v(s.median), v(s.min), v(s.max), v(s.stdev),
         empty ? Cell::none() : Cell::value(s.cv, percent_text(s.cv, 1)),
         std::isfinite(s.peak_memory) ? Cell::bytes(s.peak_memory, format_bytes(s.peak_memory))
                                      : Cell::none()});
    at_floor += s.memory_at_floor;
    instances += s.instances_ok + s.instances_failed;
    floor = std::max(floor, s.launch_floor);
  }
  if (at_floor > 0) t.notes.push_back(launch_floor_note(at_floor, instances, floor));
  if (auto note = memory_source_note(sources); !note.empty()) t.notes.push_back(std::move(note));
  d.table(std::move(t), true);
  // Statistics a source kept without its measurements (docs/history.md, summary points).
  Table summaries = summary_records_table(run);
  if (!summaries.rows.empty()) {
    d.raw(Format::kTable, "\nsummary records (statistics only, no measurements):\n");
    d.raw(Format::kMarkdown, "\n**summary records** (statistics only, no measurements)\n\n");
    d.table(std::move(summaries));
  }
  return d;
}

nlohmann::json summary_records_json(const VariantData& variant) {
  using nlohmann::json;
  const auto value = [](std::optional<double> x) { return x ? json(*x) : json(nullptr); };
  json all = json::array();
  for (const auto& s : variant.summaries)
    all.push_back({{"metric", s.metric},
                   {"unit", analysis::metric_info(variant, s.metric).unit},
                   {"count", s.count > 0 ? json(s.count) : json(nullptr)},
                   {"mean", s.mean},
                   {"stddev", value(s.stddev)},
                   {"median", value(s.median)},
                   {"min", value(s.min)},
                   {"max", value(s.max)}});
  return all;
}

}  // namespace benchguard::report
