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

}  // namespace benchguard
