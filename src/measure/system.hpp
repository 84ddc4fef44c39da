// What makes timings noisy on this machine: CPU frequency governors, turbo boost, SMT, CPU
// isolation, load, swap, thermal throttling, ASLR, perf_event_paranoid, virtual machines,
// containers and cgroup CPU quotas (`benchguard system check`, docs/system.md).
//
// Facts are read from /sys and /proc under a root directory: "/" normally, a fake tree in
// tests. Parsing their text and judging the facts is pure.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model.hpp"

namespace benchguard::measure {

// A directory standing for "/": every path given is absolute ("/proc/cmdline") and is read or
// written under the root.
class SystemRoot {
 public:
  explicit SystemRoot(std::string root = "/");
  const std::string& root() const { return root_; }
  std::string path(std::string_view absolute) const;
  // The whole file; nullopt when it cannot be read.
  std::optional<std::string> read(std::string_view absolute) const;
  // The first line, trimmed; nullopt when the file cannot be read.
  std::optional<std::string> first_line(std::string_view absolute) const;
  bool exists(std::string_view absolute) const;
  // Entry names of a directory, sorted; empty when it cannot be listed.
  std::vector<std::string> list(std::string_view absolute_dir) const;
  // Writes `value` and a newline to an existing file (as `echo value > file` does): 0, or
  // the errno of the failure.
  int write(std::string_view absolute, std::string_view value) const;

 private:
  std::string root_;
};

// ---------------------------------------------------------------- parsing (pure)

// A CPU list the kernel wrote ("0-3,8,10-11") as CPU numbers, sorted; "" is the empty list;
// nullopt when malformed. (measure::parse_cpu_list reads --cpus, and refuses empty lists.)
std::optional<std::vector<int>> parse_kernel_cpu_list(std::string_view text);
// The value of a kernel parameter in /proc/cmdline text ("isolcpus" in "... isolcpus=2-3 ..."),
// "" for a parameter without value; nullopt when absent. What follows " -- " is init's.
std::optional<std::string> cmdline_param(std::string_view cmdline, std::string_view name);
// The CPU list of isolcpus=[flag,...,]LIST: "nohz,domain,2-3" -> "2-3".
std::string isolcpus_list(std::string_view value);

// A cgroup CPU quota: the CPUs' worth of time allowed per period, or no limit.
struct CpuQuota {
  bool limited = false;
  double cpus = 0;  // quota / period, when limited
};
// cgroup v2 cpu.max: "max 100000" is no limit, "50000 100000" half a CPU; nullopt when
// malformed.
std::optional<CpuQuota> parse_cpu_max(std::string_view text);
// cgroup v1 cpu.cfs_quota_us ("-1": no limit) and cpu.cfs_period_us.
std::optional<CpuQuota> parse_cfs_quota(std::string_view quota, std::string_view period);
// "none", or the CPUs with up to two decimals: "0.5 CPUs".
std::string format_cpu_quota(const CpuQuota& q);

// The process's own cgroups from /proc/self/cgroup text.
struct OwnCgroup {
  std::optional<std::string> v2;      // the "0::PATH" line
  std::optional<std::string> v1_cpu;  // the path of the v1 hierarchy holding the cpu controller
  std::string v1_cpu_controllers;     // that hierarchy's controllers ("cpu,cpuacct")
};
OwnCgroup parse_proc_cgroup(std::string_view text);

// A counter of /proc/vmstat ("pswpin"); nullopt when absent.
std::optional<int64_t> vmstat_value(std::string_view vmstat, std::string_view key);
// A "Key: N kB" line of /proc/meminfo in bytes; nullopt when absent.
std::optional<int64_t> meminfo_bytes(std::string_view meminfo, std::string_view key);
// The 1-minute load average from /proc/loadavg text.
std::optional<double> parse_loadavg(std::string_view loadavg);
// True when a "flags" line of /proc/cpuinfo text has the "hypervisor" flag.
bool cpuinfo_hypervisor(std::string_view cpuinfo);
// The hypervisor named by DMI product_name and sys_vendor ("kvm", "vmware", ...); "" when
// they name none.
std::string dmi_virtualization(std::string_view product_name, std::string_view sys_vendor);
// The container runtime named in /proc/1/cgroup text ("docker", "kubernetes", ...); "" when
// none.
std::string cgroup_container(std::string_view proc1_cgroup);
// The filesystem type mounted at "/" in /proc/self/mountinfo text; "" when not found.
std::string root_fstype(std::string_view mountinfo);
// "performance" when every CPU has it, else "performance on 0-1; powersave on 2-3".
std::string summarize_governors(const std::vector<std::pair<int, std::string>>& governors);

// ---------------------------------------------------------------- facts

// What was read. nullopt: could not be read; for the lists, "" means none.
struct SystemFacts {
  std::optional<int> cpu_count;                        // online CPUs
  std::vector<std::pair<int, std::string>> governors;  // per CPU with cpufreq
  std::optional<bool> turbo;                           // on?
  std::string turbo_path;                              // the switch read (no_turbo or boost)
  std::optional<bool> smt;                             // sibling threads active?
  std::optional<std::string> isolated_cpus, nohz_full, rcu_nocbs;
  std::optional<double> load_1m;
  std::optional<int64_t> swap_total_bytes, swap_free_bytes;
  std::optional<int64_t> throttle_count;  // thermal throttling events since boot
  std::optional<int> aslr;                // randomize_va_space
  std::optional<int> perf_event_paranoid;
  std::optional<std::string> virtualization;  // "" none
  // The measurement channels that work here, probed on the live system only (check_system
  // with root "/"): hardware counters through perf_event_open, and valgrind for
  // `measure: [instructions]`. Unset: not probed, and no finding.
  std::optional<bool> hardware_counters;
  std::optional<bool> valgrind;
  std::optional<std::string> container;  // "" none
  std::optional<CpuQuota> cpu_quota;
  std::string cpu_quota_path;  // the file that set the quota, for the fix
};

// Instantaneous reads only (no sampling): cheap enough for the start of every run.
SystemFacts read_system_facts(const SystemRoot& root);

// Swap traffic (pages) between two readings of /proc/vmstat `interval` apart.
struct SwapActivity {
  int64_t pages_in = 0, pages_out = 0;
  double seconds = 0;
};
std::optional<SwapActivity> sample_swap(const SystemRoot& root, std::chrono::milliseconds interval);

// ---------------------------------------------------------------- judging (pure)

enum class Severity { kOk, kInfo, kWarning, kUnknown };
const char* to_string(Severity s);  // ok | info | warning | unknown

struct Finding {
  std::string key;  // cpu_governor, turbo, ...
  std::string value;
  Severity severity = Severity::kUnknown;
  std::string why;               // one line: why it matters for timings
  std::vector<std::string> fix;  // commands that would fix it (warnings and infos)
};

// One finding per check, in a fixed order; swap activity is judged when sampled.
std::vector<Finding> evaluate(const SystemFacts& facts, const std::optional<SwapActivity>& swap);
// read_system_facts, sample_swap and evaluate.
std::vector<Finding> check_system(const SystemRoot& root, std::chrono::milliseconds swap_interval);

// The facts a run stores (docs/system.md): cpu_governor, turbo, smt, isolated_cpus,
// nohz_full, rcu_nocbs, aslr, perf_event_paranoid, virtualization, container, cpu_quota,
// throttle_count, swap_total_bytes, swap_used_bytes; unreadable ones left out.
KeyValues system_artifacts(const SystemFacts& facts);

// ---------------------------------------------------------------- tuning

// One file `system tune` writes to fix a warning: governor, turbo, ASLR, perf_event_paranoid.
struct TuneWrite {
  std::string key;              // the finding it fixes
  std::string path;             // absolute
  std::string value;            // what is written
  std::string previous;         // what the file held
  std::string command() const;  // the shell equivalent: echo VALUE | sudo tee PATH
  std::string restore() const;  // the same with the previous value
};
std::vector<TuneWrite> tune_writes(const SystemFacts& facts);

}  // namespace benchguard::measure
