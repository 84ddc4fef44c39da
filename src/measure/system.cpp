// Reading and parsing the facts of `benchguard system check`; judging them is in
// system_check.cpp.
#include "measure/system.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "measure/affinity.hpp"

namespace benchguard::measure {
namespace {

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::string_view l : split(s, '\n'))
    if (!trim(l).empty()) out.push_back(l);
  return out;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
    const size_t b = i;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) == 0) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

template <class T>
std::optional<T> parse_int(std::string_view s) {
  s = trim(s);
  T v{};
  const auto* end = s.data() + s.size();
  const auto r = std::from_chars(s.data(), end, v);
  if (s.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return v;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// "cpu12" -> 12.
std::optional<int> cpu_number(std::string_view name) {
  if (!name.starts_with("cpu")) return std::nullopt;
  return parse_int<int>(name.substr(3));
}

constexpr std::string_view kCpuDir = "/sys/devices/system/cpu";

std::string cpu_file(int cpu, std::string_view rest) {
  return std::string(kCpuDir) + "/cpu" + std::to_string(cpu) + "/" + std::string(rest);
}

// The online CPUs, else every cpuN directory.
std::vector<int> cpus_of(const SystemRoot& root) {
  if (auto online = root.first_line(std::string(kCpuDir) + "/online"))
    if (auto list = parse_kernel_cpu_list(*online); list && !list->empty()) return *list;
  std::vector<int> cpus;
  for (const auto& name : root.list(kCpuDir))
    if (auto n = cpu_number(name)) cpus.push_back(*n);
  std::sort(cpus.begin(), cpus.end());
  return cpus;
}

// A CPU list read from sysfs ("" none), else from a kernel parameter (sys_file "": only that).
std::optional<std::string> cpu_list_fact(const SystemRoot& root, std::string_view sys_file,
                                         const std::optional<std::string>& cmdline,
                                         std::string_view param) {
  if (auto text = sys_file.empty() ? std::nullopt : root.first_line(sys_file)) {
    if (*text == "(null)") return "";
    if (auto list = parse_kernel_cpu_list(*text)) return format_cpu_list(*list);
    return *text;
  }
  if (!cmdline) return std::nullopt;
  auto value = cmdline_param(*cmdline, param);
  if (!value) return "";
  const std::string list = param == "isolcpus" ? isolcpus_list(*value) : *value;
  if (auto parsed = parse_kernel_cpu_list(list)) return format_cpu_list(*parsed);
  return list;
}

// "/a/b" -> {"/a/b", "/a", "/"}.
std::vector<std::string> self_and_ancestors(std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path.back() == '/') path.pop_back();
  while (!path.empty()) {
    out.push_back(path);
    const size_t at = path.rfind('/');
    path.resize(at == std::string::npos ? 0 : at);
  }
  out.emplace_back("/");
  return out;
}

std::string join_path(const std::string& base, const std::string& cgroup, const char* file) {
  return base + (cgroup == "/" ? "" : cgroup) + "/" + file;
}

// The tightest CPU quota over the process's cgroup and its ancestors, v2 or v1.
void read_cpu_quota(const SystemRoot& root, SystemFacts& f) {
  const auto text = root.read("/proc/self/cgroup");
  if (!text) return;
  const OwnCgroup own = parse_proc_cgroup(*text);
  bool seen = false;
  CpuQuota best;
  const auto consider = [&](const std::optional<CpuQuota>& q, const std::string& path) {
    if (!q) return;
    seen = true;
    if (q->limited && (!best.limited || q->cpus < best.cpus)) {
      best = *q;
      f.cpu_quota_path = path;
    }
  };
  if (own.v2) {
    for (const std::string base : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
      for (const auto& cg : self_and_ancestors(*own.v2)) {
        const std::string file = join_path(base, cg, "cpu.max");
        if (auto t = root.first_line(file)) consider(parse_cpu_max(*t), file);
      }
  }
  if (own.v1_cpu) {
    std::vector<std::string> bases{"/sys/fs/cgroup/" + own.v1_cpu_controllers};
    for (const std::string b : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
      if (std::find(bases.begin(), bases.end(), b) == bases.end()) bases.push_back(b);
    for (const auto& base : bases)
      for (const auto& cg : self_and_ancestors(*own.v1_cpu)) {
        const std::string quota = join_path(base, cg, "cpu.cfs_quota_us");
        const auto q = root.first_line(quota);
        const auto p = root.first_line(join_path(base, cg, "cpu.cfs_period_us"));
        if (q && p) consider(parse_cfs_quota(*q, *p), quota);
      }
  }
  if (seen) f.cpu_quota = best;
}

void read_virtualization(const SystemRoot& root, SystemFacts& f) {
  const auto product = root.first_line("/sys/class/dmi/id/product_name");
  const auto vendor = root.first_line("/sys/class/dmi/id/sys_vendor");
  std::string name = dmi_virtualization(product.value_or(""), vendor.value_or(""));
  if (!name.empty()) {
    f.virtualization = name;
    return;
  }
  const auto cpuinfo = root.read("/proc/cpuinfo");
  if (cpuinfo && cpuinfo_hypervisor(*cpuinfo))
    f.virtualization = "vm";
  else if (cpuinfo || product || vendor)
    f.virtualization = "";
}

void read_container(const SystemRoot& root, SystemFacts& f) {
  if (root.exists("/.dockerenv")) {
    f.container = "docker";
    return;
  }
  if (root.exists("/run/.containerenv")) {
    f.container = "podman";
    return;
  }
  const auto cg = root.read("/proc/1/cgroup");
  if (cg) {
    if (std::string name = cgroup_container(*cg); !name.empty()) {
      f.container = name;
      return;
    }
  }
  const auto mi = root.read("/proc/self/mountinfo");
  if (mi && root_fstype(*mi) == "overlay") {
    f.container = "overlay root";
    return;
  }
  if (cg || mi) f.container = "";
}

void read_throttling(const SystemRoot& root, const std::vector<int>& cpus, SystemFacts& f) {
  int64_t core = 0;
  bool seen = false;
  std::map<std::string, int64_t> package;  // per physical package: the same count on each CPU
  for (int cpu : cpus) {
    if (auto c = root.first_line(cpu_file(cpu, "thermal_throttle/core_throttle_count")))
      if (auto n = parse_int<int64_t>(*c)) {
        core += *n;
        seen = true;
      }
    if (auto c = root.first_line(cpu_file(cpu, "thermal_throttle/package_throttle_count")))
      if (auto n = parse_int<int64_t>(*c)) {
        const std::string id =
            root.first_line(cpu_file(cpu, "topology/physical_package_id")).value_or("0");
        package[id] = std::max(package[id], *n);
        seen = true;
      }
  }
  if (!seen) return;
  for (const auto& [id, n] : package) core += n;
  f.throttle_count = core;
}

}  // namespace

// ---------------------------------------------------------------- SystemRoot

SystemRoot::SystemRoot(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_.empty()) root_ = "/";
}

std::string SystemRoot::path(std::string_view absolute) const {
  if (root_ == "/") return std::string(absolute);
  return root_ + std::string(absolute);
}

std::optional<std::string> SystemRoot::read(std::string_view absolute) const {
  std::ifstream in(path(absolute), std::ios::binary);
  if (!in) return std::nullopt;
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return std::nullopt;
  return text;
}

std::optional<std::string> SystemRoot::first_line(std::string_view absolute) const {
  auto text = read(absolute);
  if (!text) return std::nullopt;
  return std::string(trim(std::string_view(*text).substr(0, text->find('\n'))));
}

bool SystemRoot::exists(std::string_view absolute) const {
  std::error_code ec;
  return std::filesystem::exists(path(absolute), ec);
}

std::vector<std::string> SystemRoot::list(std::string_view absolute_dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(path(absolute_dir), ec), end; !ec && it != end;
       it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

int SystemRoot::write(std::string_view absolute, std::string_view value) const {
  const std::string file = path(absolute);
  const int fd = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return errno;
  const std::string text = std::string(value) + "\n";
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int write_errno = n < 0 ? errno : (static_cast<size_t>(n) != text.size() ? EIO : 0);
  const int close_errno = ::close(fd) != 0 ? errno : 0;
  return write_errno != 0 ? write_errno : close_errno;
}

// ---------------------------------------------------------------- parsing

std::optional<std::vector<int>> parse_kernel_cpu_list(std::string_view text) {
  text = trim(text);
  std::vector<int> cpus;
  if (text.empty()) return cpus;
  for (std::string_view part : split(text, ',')) {
    const size_t dash = part.find('-');
    const auto lo = parse_int<int>(part.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : parse_int<int>(part.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi - *lo > 65536) return std::nullopt;
    for (int c = *lo; c <= *hi; ++c) cpus.push_back(c);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::optional<std::string> cmdline_param(std::string_view cmdline, std::string_view name) {
  std::optional<std::string> found;
  for (std::string_view w : words(cmdline)) {
    if (w == "--") break;
    if (w == name) {
      found = "";
    } else if (w.size() > name.size() && w.starts_with(name) && w[name.size()] == '=') {
      std::string_view v = w.substr(name.size() + 1);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      found = std::string(v);
    }
  }
  return found;
}

std::string isolcpus_list(std::string_view value) {
  std::string out;
  for (std::string_view part : split(value, ',')) {
    if (out.empty() && !part.empty() && std::isalpha(static_cast<unsigned char>(part[0])) != 0)
      continue;  // a flag: nohz, domain, managed_irq
    if (!out.empty()) out += ',';
    out += part;
  }
  return out;
}

std::optional<CpuQuota> parse_cpu_max(std::string_view text) {
  const auto w = words(text);
  if (w.size() != 2) return std::nullopt;
  const auto period = parse_int<int64_t>(w[1]);
  if (!period || *period <= 0) return std::nullopt;
  if (w[0] == "max") return CpuQuota{};
  const auto quota = parse_int<int64_t>(w[0]);
  if (!quota || *quota <= 0) return std::nullopt;
  return CpuQuota{true, static_cast<double>(*quota) / static_cast<double>(*period)};
}

std::optional<CpuQuota> parse_cfs_quota(std::string_view quota, std::string_view period) {
  const auto q = parse_int<int64_t>(quota);
  const auto p = parse_int<int64_t>(period);
  if (!q || !p || *p <= 0) return std::nullopt;
  if (*q < 0) return CpuQuota{};
  if (*q == 0) return std::nullopt;
  return CpuQuota{true, static_cast<double>(*q) / static_cast<double>(*p)};
}

std::string format_cpu_quota(const CpuQuota& q) {
  if (!q.limited) return "none";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", q.cpus);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + (s == "1" ? " CPU" : " CPUs");
}

OwnCgroup parse_proc_cgroup(std::string_view text) {
  OwnCgroup own;
  for (std::string_view line : lines(text)) {
    const size_t a = line.find(':');
    const size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string_view id = line.substr(0, a);
    const std::string_view controllers = line.substr(a + 1, b - a - 1);
    const std::string path(trim(line.substr(b + 1)));
    if (id == "0" && controllers.empty()) {
      own.v2 = path;
      continue;
    }
    for (std::string_view c : split(controllers, ','))
      if (c == "cpu") {
        own.v1_cpu = path;
        own.v1_cpu_controllers = std::string(controllers);
      }
  }
  return own;
}

std::optional<int64_t> vmstat_value(std::string_view vmstat, std::string_view key) {
  for (std::string_view line : lines(vmstat)) {
    const auto w = words(line);
    if (w.size() == 2 && w[0] == key) return parse_int<int64_t>(w[1]);
  }
  return std::nullopt;
}

std::optional<int64_t> meminfo_bytes(std::string_view meminfo, std::string_view key) {
  for (std::string_view line : lines(meminfo)) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || trim(line.substr(0, colon)) != key) continue;
    const auto w = words(line.substr(colon + 1));
    if (w.empty()) return std::nullopt;
    const auto n = parse_int<int64_t>(w[0]);
    if (!n) return std::nullopt;
    return w.size() > 1 && w[1] == "kB" ? *n * 1024 : *n;
  }
  return std::nullopt;
}

std::optional<double> parse_loadavg(std::string_view loadavg) {
  const auto w = words(loadavg);
  if (w.empty()) return std::nullopt;
  double v = 0;
  const auto r = std::from_chars(w[0].data(), w[0].data() + w[0].size(), v);
  if (r.ec != std::errc() || r.ptr != w[0].data() + w[0].size() || v < 0) return std::nullopt;
  return v;
}

bool cpuinfo_hypervisor(std::string_view cpuinfo) {
  for (std::string_view line : lines(cpuinfo)) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || trim(line.substr(0, colon)) != "flags") continue;
    for (std::string_view w : words(line.substr(colon + 1)))
      if (w == "hypervisor") return true;
  }
  return false;
}

std::string dmi_virtualization(std::string_view product_name, std::string_view sys_vendor) {
  const std::string p = lower(product_name), v = lower(sys_vendor);
  const auto either = [&](std::string_view s) { return contains(p, s) || contains(v, s); };
  if (either("kvm")) return "kvm";
  if (either("qemu")) return "qemu";
  if (either("vmware")) return "vmware";
  if (either("virtualbox") || contains(v, "innotek")) return "virtualbox";
  if (either("xen")) return "xen";
  if (contains(v, "microsoft") && contains(p, "virtual machine")) return "hyperv";
  if (contains(v, "amazon ec2") && !contains(p, "metal")) return "amazon";
  if (either("google compute engine")) return "google";
  if (either("openstack")) return "openstack";
  if (either("parallels")) return "parallels";
  if (either("bhyve")) return "bhyve";
  if (either("bochs")) return "bochs";
  if (either("cloud hypervisor")) return "cloud-hypervisor";
  return "";
}

std::string cgroup_container(std::string_view proc1_cgroup) {
  const std::string t = lower(proc1_cgroup);
  if (contains(t, "kubepods")) return "kubernetes";
  if (contains(t, "docker")) return "docker";
  if (contains(t, "libpod")) return "podman";
  if (contains(t, "/lxc")) return "lxc";
  if (contains(t, "containerd")) return "containerd";
  return "";
}

std::string root_fstype(std::string_view mountinfo) {
  std::string type;
  for (std::string_view line : lines(mountinfo)) {
    const auto w = words(line);
    if (w.size() < 7 || w[4] != "/") continue;
    const auto dash = std::find(w.begin() + 6, w.end(), "-");
    if (dash != w.end() && dash + 1 != w.end()) type = std::string(*(dash + 1));  // last wins
  }
  return type;
}

std::string summarize_governors(const std::vector<std::pair<int, std::string>>& governors) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (const auto& cpu_governor : governors) {
    const std::string& g = cpu_governor.second;
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == g; });
    if (it == groups.end()) {
      groups.emplace_back(g, std::vector<int>{});
      it = groups.end() - 1;
    }
    it->second.push_back(cpu_governor.first);
  }
  if (groups.size() == 1) return groups.front().first;
  std::string out;
  for (auto& [g, cpus] : groups) {
    std::sort(cpus.begin(), cpus.end());
    out += (out.empty() ? "" : "; ") + g + " on " + format_cpu_list(cpus);
  }
  return out;
}

// ---------------------------------------------------------------- facts

SystemFacts read_system_facts(const SystemRoot& root) {
  SystemFacts f;
  const std::vector<int> cpus = cpus_of(root);
  if (!cpus.empty()) f.cpu_count = static_cast<int>(cpus.size());
  for (int cpu : cpus)
    if (auto g = root.first_line(cpu_file(cpu, "cpufreq/scaling_governor")); g && !g->empty())
      f.governors.emplace_back(cpu, *g);

  const std::string no_turbo = std::string(kCpuDir) + "/intel_pstate/no_turbo";
  const std::string boost = std::string(kCpuDir) + "/cpufreq/boost";
  if (auto t = root.first_line(no_turbo); t && (*t == "0" || *t == "1")) {
    f.turbo = *t == "0";
    f.turbo_path = no_turbo;
  } else if (auto b = root.first_line(boost); b && (*b == "0" || *b == "1")) {
    f.turbo = *b == "1";
    f.turbo_path = boost;
  }

  if (auto a = root.first_line(std::string(kCpuDir) + "/smt/active");
      a && (*a == "0" || *a == "1")) {
    f.smt = *a == "1";
  } else {
    for (int cpu : cpus)
      if (auto s = root.first_line(cpu_file(cpu, "topology/thread_siblings_list")))
        if (auto list = parse_kernel_cpu_list(*s))
          f.smt = f.smt.value_or(false) || list->size() > 1;
  }

  const auto cmdline = root.read("/proc/cmdline");
  f.isolated_cpus = cpu_list_fact(root, std::string(kCpuDir) + "/isolated", cmdline, "isolcpus");
  f.nohz_full = cpu_list_fact(root, std::string(kCpuDir) + "/nohz_full", cmdline, "nohz_full");
  f.rcu_nocbs = cpu_list_fact(root, "", cmdline, "rcu_nocbs");

  if (auto l = root.read("/proc/loadavg")) f.load_1m = parse_loadavg(*l);
  if (auto m = root.read("/proc/meminfo")) {
    f.swap_total_bytes = meminfo_bytes(*m, "SwapTotal");
    f.swap_free_bytes = meminfo_bytes(*m, "SwapFree");
  }
  read_throttling(root, cpus, f);
  if (auto a = root.first_line("/proc/sys/kernel/randomize_va_space")) f.aslr = parse_int<int>(*a);
  if (auto p = root.first_line("/proc/sys/kernel/perf_event_paranoid"))
    f.perf_event_paranoid = parse_int<int>(*p);
  read_virtualization(root, f);
  read_container(root, f);
  read_cpu_quota(root, f);
  return f;
}

std::optional<SwapActivity> sample_swap(const SystemRoot& root,
                                        std::chrono::milliseconds interval) {
  const auto counts = [&]() -> std::optional<std::pair<int64_t, int64_t>> {
    const auto text = root.read("/proc/vmstat");
    if (!text) return std::nullopt;
    const auto in = vmstat_value(*text, "pswpin"), out = vmstat_value(*text, "pswpout");
    if (!in || !out) return std::nullopt;
    return std::make_pair(*in, *out);
  };
  const auto before = counts();
  if (!before) return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(interval);
  const auto after = counts();
  if (!after) return std::nullopt;
  SwapActivity s;
  s.pages_in = std::max<int64_t>(0, after->first - before->first);
  s.pages_out = std::max<int64_t>(0, after->second - before->second);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

}  // namespace benchguard::measure
