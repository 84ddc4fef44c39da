#include "measure/host.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/version.hpp"
#include "measure/process.hpp"
#include "measure/system.hpp"

namespace benchguard::measure {
namespace {

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The value of "key<sep>value" lines, for the first key in `keys` that appears.
std::string find_value(std::string_view text, char sep,
                       std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    std::string_view rest = text;
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      const size_t at = line.find(sep);
      if (at != std::string_view::npos && trim(line.substr(0, at)) == key)
        return std::string(trim(line.substr(at + 1)));
    }
  }
  return "";
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string hostname() {
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

std::string ci_url(const std::function<const char*(const char*)>& getenv) {
  const auto get = [&](const char* name) -> std::string {
    const char* v = getenv(name);
    return v != nullptr ? v : "";
  };
  const std::string run_id = get("GITHUB_RUN_ID");
  const std::string repo = get("GITHUB_REPOSITORY");
  if (!run_id.empty() && !repo.empty()) {
    std::string server = get("GITHUB_SERVER_URL");
    if (server.empty()) server = "https://github.com";
    return server + "/" + repo + "/actions/runs/" + run_id;
  }
  for (const char* name : {"CI_JOB_URL", "BUILDKITE_BUILD_URL", "CIRCLE_BUILD_URL", "BUILD_URL"})
    if (std::string v = get(name); !v.empty()) return v;
  return "";
}

std::string os_pretty_name(std::string_view os_release) {
  std::string v = find_value(os_release, '=', {"PRETTY_NAME"});
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
    v = v.substr(1, v.size() - 2);
  std::string out;  // undo shell-style escapes (\" \\ \$ \`)
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '\\' && i + 1 < v.size()) ++i;
    out += v[i];
  }
  return out;
}

std::string cpu_model_name(std::string_view cpuinfo) {
  return find_value(cpuinfo, ':', {"model name", "cpu model", "Processor", "cpu"});
}

KeyValues host_artifacts() {
  KeyValues kv;
  const auto add = [&kv](const char* key, std::string value) {
    if (!value.empty()) kv.emplace_back(key, std::move(value));
  };
  add("hostname", hostname());
  utsname u{};
  if (uname(&u) == 0) {
    add("kernel", std::string(u.release) + " " + u.version);
    add("arch", u.machine);
  }
  add("os", os_pretty_name(read_text("/etc/os-release")));
  add("cpu_model", cpu_model_name(read_text("/proc/cpuinfo")));
  if (const long n = sysconf(_SC_NPROCESSORS_ONLN); n > 0) add("cpu_count", std::to_string(n));
  const std::string mem_kib = find_value(read_text("/proc/meminfo"), ':', {"MemTotal"});
  if (const long long kib = std::atoll(mem_kib.c_str()); kib > 0)
    add("mem_total_bytes", std::to_string(kib * 1024));
  // Instantaneous reads only: no sampling at the start of a run.
  for (auto& [key, value] : system_artifacts(read_system_facts(SystemRoot("/"))))
    kv.emplace_back(std::move(key), std::move(value));
  double load[3];
  if (getloadavg(load, 3) == 3) {
    const char* keys[3] = {"load_avg_1m", "load_avg_5m", "load_avg_15m"};
    for (int i = 0; i < 3; ++i) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", load[i]);
      add(keys[i], buf);
    }
  }
  add("benchguard_version", kVersion);
  add("compiler", compiler());
  add("hardware_counters", counters_available() ? "available" : "unavailable");
  add("ci_url", ci_url([](const char* name) { return std::getenv(name); }));
  return kv;
}

}  // namespace benchguard::measure
