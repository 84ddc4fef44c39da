#include "measure/affinity.hpp"

#include <algorithm>
#include <string_view>

namespace benchguard::measure {
namespace {

Error bad_list(const std::string& list, const std::string& why) {
  return Error{"invalid CPU list '" + list + "': " + why};
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A CPU number: decimal digits only (no sign, no spaces inside).
bool parse_index(std::string_view s, int& out) {
  s = trim(s);
  if (s.empty() || s.size() > 7) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

Result<cpu_set_t> to_cpu_set(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) {
    if (c < 0 || c >= CPU_SETSIZE) return Error{"CPU " + std::to_string(c) + " is out of range"};
    CPU_SET(c, &set);
  }
  return set;
}

std::vector<int> usable_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

Result<std::vector<int>> parse_cpu_list(const std::string& list) {
  if (trim(list).empty()) return bad_list(list, "no CPUs given");
  std::vector<int> cpus;
  std::string_view rest = list;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (item.empty()) return bad_list(list, "empty item (stray ',')");
    const size_t dash = item.find('-');
    int lo = 0;
    int hi = 0;
    if (dash == std::string_view::npos) {
      if (!parse_index(item, lo))
        return bad_list(list, "'" + std::string(item) + "' is not a CPU number");
      hi = lo;
    } else {
      if (!parse_index(item.substr(0, dash), lo) || !parse_index(item.substr(dash + 1), hi))
        return bad_list(list, "'" + std::string(item) + "' is not a range like 2-5");
      if (lo > hi) return bad_list(list, "range '" + std::string(item) + "' runs backwards");
    }
    if (hi >= CPU_SETSIZE)
      return Error{"CPU " + std::to_string(hi) +
                   " is not available here (usable CPUs: " + format_cpu_list(usable_cpus()) + ")"};
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());

  // Checked here rather than at launch, so that a typo fails before any instance runs.
  const std::vector<int> usable = usable_cpus();
  for (int c : cpus)
    if (!std::binary_search(usable.begin(), usable.end(), c))
      return Error{"CPU " + std::to_string(c) +
                   " is not available here (usable CPUs: " + format_cpu_list(usable) + ")"};
  return cpus;
}

}  // namespace benchguard::measure
