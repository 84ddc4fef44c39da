#include "analysis/conditions.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchguard::analysis {
namespace {

std::vector<std::string> values_of(const std::vector<KeyValues>& runs, const std::string& key) {
  std::vector<std::string> values;
  for (const auto& artifacts : runs)
    for (const auto& [k, v] : artifacts)
      if (k == key && std::find(values.begin(), values.end(), v) == values.end())
        values.push_back(v);
  return values;
}

std::string side_text(const std::vector<std::string>& values, const char* side) {
  std::string joined;
  for (const auto& v : values) joined += (joined.empty() ? "" : " / ") + v;
  if (values.size() == 1) return fmt::format("{} ({})", joined, side);
  return fmt::format("{} ({}: its runs differ)", joined, side);
}

}  // namespace

const std::vector<std::string>& condition_keys() {
  static const std::vector<std::string> keys{
      "cpu_governor",    "turbo",     "smt",       "isolated_cpus",
      "nohz_full",       "rcu_nocbs", "aslr",      "cpu_quota",
      "virtualization",  "container", "cpu_model", "cpu_count",
      "mem_total_bytes", "kernel",    "os",        "arch",
      "hostname",        "layout"};
  return keys;
}

std::vector<ConditionDifference> condition_differences(const std::vector<KeyValues>& a,
                                                       const std::vector<KeyValues>& b) {
  std::vector<ConditionDifference> out;
  for (const auto& key : condition_keys()) {
    auto va = values_of(a, key), vb = values_of(b, key);
    if (va.empty() || vb.empty()) continue;
    if (va.size() == 1 && vb.size() == 1 && va == vb) continue;
    out.push_back({key, std::move(va), std::move(vb)});
  }
  return out;
}

std::string describe(const ConditionDifference& d) {
  return fmt::format("A and B ran under different conditions: {} {} vs {}", d.key,
                     side_text(d.a, "A"), side_text(d.b, "B"));
}

std::vector<std::string> condition_warnings(const std::vector<KeyValues>& a,
                                            const std::vector<KeyValues>& b) {
  std::vector<std::string> lines;
  for (const auto& d : condition_differences(a, b)) lines.push_back(describe(d));
  return lines;
}

}  // namespace benchguard::analysis
