#include "core/model.hpp"

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
  m.reserve(9);
  m.emplace_back("wall_time", static_cast<double>(in.end_ns - in.start_ns) * 1e-9);
  m.emplace_back("cpu_time", in.user_s + in.sys_s);
  m.emplace_back("user_time", in.user_s);
  m.emplace_back("sys_time", in.sys_s);
  m.emplace_back("max_rss", static_cast<double>(in.max_rss_bytes));
  m.emplace_back("peak_memory", static_cast<double>(in.mem_peak_bytes));
  m.emplace_back("avg_memory", in.mem_avg_bytes);
  if (in.instructions) m.emplace_back("instructions", static_cast<double>(*in.instructions));
  if (in.cycles) m.emplace_back("cycles", static_cast<double>(*in.cycles));
  return m;
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

}  // namespace benchguard
