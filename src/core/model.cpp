#include "core/model.hpp"

#include <fmt/format.h>

#include <cmath>

namespace benchguard {

const std::vector<MetricInfo>& builtin_metrics() {
  static const std::vector<MetricInfo> kMetrics = {
      {"wall_time", "s", Direction::kLowerIsBetter},
      {"cpu_time", "s", Direction::kLowerIsBetter},
      {"user_time", "s", Direction::kLowerIsBetter},
      {"sys_time", "s", Direction::kLowerIsBetter},
      {"max_rss", "B", Direction::kLowerIsBetter},
      {"peak_memory", "B", Direction::kLowerIsBetter},
      {"avg_memory", "B", Direction::kLowerIsBetter},
      {"instructions", "", Direction::kLowerIsBetter},
      {"cycles", "", Direction::kLowerIsBetter},
      {"l1_misses", "", Direction::kLowerIsBetter},
      {"ll_misses", "", Direction::kLowerIsBetter},
      {"estimated_cycles", "", Direction::kLowerIsBetter},
      {"branch_misses", "", Direction::kLowerIsBetter},
      {"cache_misses", "", Direction::kLowerIsBetter},
      {"throughput", "1/s", Direction::kHigherIsBetter},
  };
  return kMetrics;
}

const MetricInfo* find_builtin_metric(const std::string& name) {
  for (const auto& m : builtin_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::pair<std::string, double>> outside_metrics(const InstanceRecord& in) {
  std::vector<std::pair<std::string, double>> m;
  m.reserve(9 + in.counts.size());
  m.emplace_back("wall_time", static_cast<double>(in.end_ns - in.start_ns) * 1e-9);
  m.emplace_back("cpu_time", in.user_s + in.sys_s);
  m.emplace_back("user_time", in.user_s);
  m.emplace_back("sys_time", in.sys_s);
  m.emplace_back("max_rss", static_cast<double>(in.max_rss_bytes));
  m.emplace_back("peak_memory", static_cast<double>(in.mem_peak_bytes));
  m.emplace_back("avg_memory", in.mem_avg_bytes);
  if (in.instructions) m.emplace_back("instructions", static_cast<double>(*in.instructions));
  if (in.cycles) m.emplace_back("cycles", static_cast<double>(*in.cycles));
  for (const auto& [name, count] : in.counts) m.emplace_back(name, static_cast<double>(count));
  return m;
}

bool is_simulated_metric(std::string_view metric) {
  return std::find(std::begin(kSimulatedMetrics), std::end(kSimulatedMetrics), metric) !=
         std::end(kSimulatedMetrics);
}

IterationRecord outside_iteration(const InstanceRecord& in) {
  IterationRecord it;
  it.index = 0;
  it.start_ns = in.start_ns;
  it.end_ns = in.end_ns;
  it.burn_in = false;
  it.timed_out = in.timed_out;
  it.failure = in.failure;
  it.metrics = outside_metrics(in);
  return it;
}

bool is_outside_iteration(const InstanceRecord& in, const IterationRecord& it) {
  return it.index == 0 && it.start_ns == in.start_ns && it.end_ns == in.end_ns && !it.burn_in &&
         it.timed_out == in.timed_out && it.failure == in.failure;
}

bool at_launch_floor(const InstanceRecord& in, std::string_view metric) {
  const bool rss_bound = in.rss_floor_bytes > 0 && in.max_rss_bytes <= in.rss_floor_bytes;
  if (metric == "max_rss") return rss_bound;
  if (metric == "peak_memory" && exact_peak_memory(in)) return false;
  if (metric == "peak_memory" || metric == "avg_memory")
    return rss_bound && in.mem_samples < kMinTreeSamples;
  return false;
}

bool exact_peak_memory(const InstanceRecord& in) {
  return in.mem_source == "cgroup2" || in.mem_source == "cgroup1";
}

Status check_counts(const BenchmarkSpec& b) {
  const std::pair<const char*, int> instance_counts[] = {
      {"instances", b.instances},
      {"warmup", b.warmup},
      {"duet_repetitions", b.duet_repetitions},
      {"sync_repetitions", b.sync_repetitions},
      {"sequential_repetitions", b.sequential_repetitions}};
  for (const auto& [what, n] : instance_counts)
    if (n > kMaxInstances)
      return Error{"benchmark '" + b.name + "': " + what + " " + std::to_string(n) +
                   " is above the limit of " + std::to_string(kMaxInstances)};
  for (const auto& [what, n] :
       {std::pair<const char*, int>{"iterations", b.iterations}, {"burn_in", b.burn_in}})
    if (n > kMaxIterations)
      return Error{"benchmark '" + b.name + "': " + what + " " + std::to_string(n) +
                   " is above the limit of " + std::to_string(kMaxIterations)};
  return ok_status();
}

bool never_negative(const std::string& metric, const std::string& unit) {
  if (find_builtin_metric(metric) != nullptr) return true;
  return unit == "s" || unit == "B" || unit.ends_with("/s");
}

bool is_probe_run(const KeyValues& labels) {
  for (const char* key : {"calibration", "null", "ab", "bisect", "confirm"})
    if (find_value(labels, key) != nullptr) return true;
  return false;
}

const std::string* find_value(const KeyValues& kv, std::string_view key) {
  for (const auto& [k, v] : kv)
    if (k == key) return &v;
  return nullptr;
}

std::string metric_value_problem(const std::string& metric, const std::string& unit, double v) {
  if (!std::isfinite(v)) return fmt::format("metric {} is not a finite number ({})", metric, v);
  if (v < 0 && never_negative(metric, unit))
    return fmt::format("metric {} is negative ({:g}{}{})", metric, v, unit.empty() ? "" : " ",
                       unit);
  return "";
}

Status check_values(const RunData& data, const std::vector<MetricInfo>& declared) {
  const RunRecord& run = data.run;
  if (run.finished_at != 0 && run.finished_at < run.started_at)
    return Error{"the run ends before it starts"};
  const auto unit_of = [&](const std::string& metric) -> std::string {
    if (const MetricInfo* m = find_builtin_metric(metric)) return m->unit;
    for (const auto& m : declared)
      if (m.name == metric) return m.unit;
    return "";
  };
  for (const auto& v : data.variants) {
    for (const auto& inst : v.instances) {
      const auto where = [&](const std::string& what) {
        return Error{fmt::format("benchmark '{}' variant '{}' instance {}: {}", v.variant.benchmark,
                                 v.variant.name, inst.index + 1, what)};
      };
      // An end of 0 is an end the source did not record.
      if (inst.end_ns != 0 && inst.end_ns < inst.start_ns) return where("ends before it starts");
      if (!(inst.user_s >= 0) || !(inst.sys_s >= 0)) return where("CPU time is negative");
      if (inst.max_rss_bytes < 0 || inst.mem_peak_bytes < 0 || !(inst.mem_avg_bytes >= 0))
        return where("memory is negative");
      for (const auto& it : inst.iterations) {
        if (it.end_ns != 0 && it.end_ns < it.start_ns)
          return where(fmt::format("iteration {} ends before it starts", it.index + 1));
        for (const auto& [metric, value] : it.metrics) {
          std::string why = metric_value_problem(metric, unit_of(metric), value);
          if (!why.empty()) return where(fmt::format("iteration {}: {}", it.index + 1, why));
        }
      }
    }
    for (size_t k = 0; k < v.summaries.size(); ++k) {
      const SummaryRecord& s = v.summaries[k];
      const auto where = [&](const std::string& what) {
        return Error{fmt::format("benchmark '{}' variant '{}' summary of {}: {}",
                                 v.variant.benchmark, v.variant.name, s.metric, what)};
      };
      for (size_t earlier = 0; earlier < k; ++earlier)
        if (v.summaries[earlier].metric == s.metric) return where("given twice");
      if (s.count < 0) return where("negative count");
      const std::string unit = unit_of(s.metric);
      const std::pair<const char*, std::optional<double>> values[] = {
          {"mean", s.mean}, {"median", s.median}, {"min", s.min}, {"max", s.max}};
      for (const auto& [name, value] : values) {
        if (!value) continue;
        std::string why = metric_value_problem(s.metric, unit, *value);
        if (!why.empty()) return where(fmt::format("{}: {}", name, why));
      }
      if (s.stddev && !(*s.stddev >= 0 && std::isfinite(*s.stddev)))
        return where("standard deviation is negative or not a finite number");
      if (s.min && s.max && *s.min > *s.max) return where("min is above max");
    }
  }
  return ok_status();
}

}  // namespace benchguard
