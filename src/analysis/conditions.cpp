#include "analysis/conditions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

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

namespace {

// pip's normalized name (PEP 503): lower case, runs of '-', '_', '.' as one '-'.
std::string normalized(const std::string& name) {
  std::string out;
  for (const char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out.push_back('-');
    } else {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> package_changes(const std::map<std::string, std::string>& a,
                                         const std::map<std::string, std::string>& b) {
  // By normalized name: (shown name, version in A, version in B).
  std::map<std::string, std::array<std::string, 3>> all;
  for (const auto& [name, version] : a) {
    auto& e = all[normalized(name)];
    e[0] = name;
    e[1] = version;
  }
  for (const auto& [name, version] : b) {
    auto& e = all[normalized(name)];
    if (e[0].empty()) e[0] = name;
    e[2] = version;
  }
  std::vector<std::string> out;
  for (const auto& [key, e] : all) {
    if (e[1] == e[2]) continue;
    if (e[1].empty())
      out.push_back(fmt::format("{} (only in B, {})", e[0], e[2]));
    else if (e[2].empty())
      out.push_back(fmt::format("{} (only in A, {})", e[0], e[1]));
    else
      out.push_back(fmt::format("{} {} -> {}", e[0], e[1], e[2]));
  }
  return out;
}

std::optional<Packages> packages_of(const KeyValues& artifacts, const std::string& variant) {
  const std::string* text = find_value(artifacts, kPackagesArtifact);
  if (text == nullptr) return std::nullopt;
  const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  // One set per variant when every value is an object, else the run's one set.
  const bool per_variant =
      !j.empty() && std::all_of(j.begin(), j.end(), [](const auto& v) { return v.is_object(); });
  const nlohmann::json* set = &j;
  if (per_variant) {
    if (!j.contains(variant)) return std::nullopt;
    set = &j[variant];
  }
  Packages out;
  for (const auto& [name, version] : set->items())
    if (version.is_string()) out.emplace(name, version.get<std::string>());
  return out;
}

std::string packages_note(const Packages& a, const Packages& b) {
  const auto changes = package_changes(a, b);
  if (changes.empty()) return "";
  std::string list;
  const std::size_t shown = std::min<std::size_t>(changes.size(), 12);
  for (std::size_t k = 0; k < shown; ++k) list += (k == 0 ? "" : ", ") + changes[k];
  if (changes.size() > shown) list += fmt::format(" and {} more", changes.size() - shown);
  return "packages that differ between A and B: " + list;
}

}  // namespace benchguard::analysis
