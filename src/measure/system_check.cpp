// Judging the facts read by system.cpp: one finding per check with its severity, why it
// matters and how to fix it; the facts a run stores; the writes of `system tune`.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/units.hpp"
#include "measure/process.hpp"
#include "measure/system.hpp"
#include "measure/valgrind_count.hpp"

namespace benchguard::measure {
namespace {

// Adds kernel parameters to the GRUB command line, for the next boot.
std::string grub(std::string_view params) {
  return fmt::format(
      "sudo sed -i 's/^GRUB_CMDLINE_LINUX=\"/&{} /' /etc/default/grub && sudo update-grub && "
      "sudo reboot",
      params);
}

// The CPUs to suggest isolating: the last one, or the last two from four CPUs on.
std::string cpus_to_isolate(const SystemFacts& f) {
  const int n = f.cpu_count.value_or(0);
  if (n >= 4) return fmt::format("{}-{}", n - 2, n - 1);
  if (n >= 2) return std::to_string(n - 1);
  return "";
}

std::string aslr_name(int v) {
  switch (v) {
    case 0:
      return "off";
    case 1:
      return "partial";
    case 2:
      return "full";
    default:
      return std::to_string(v);
  }
}

std::string tee(std::string_view value, std::string_view path) {
  return fmt::format("echo {} | sudo tee {}", value, path);
}

Finding governor(const SystemFacts& f) {
  Finding x{"cpu_governor",
            "",
            Severity::kUnknown,
            "governors other than 'performance' change the clock with load, so the same code "
            "runs at different speeds",
            {}};
  if (f.governors.empty()) {
    x.value = "no cpufreq";
    return x;
  }
  x.value = summarize_governors(f.governors);
  const bool all = std::all_of(f.governors.begin(), f.governors.end(),
                               [](const auto& g) { return g.second == "performance"; });
  x.severity = all ? Severity::kOk : Severity::kWarning;
  if (!all)
    x.fix = {"sudo cpupower frequency-set -g performance",
             tee("performance", "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor")};
  return x;
}

Finding turbo(const SystemFacts& f) {
  Finding x{"turbo",
            "no turbo switch",
            Severity::kUnknown,
            "turbo boost raises the clock only while the chip is cool and lightly loaded, so "
            "speed drifts with temperature and other work",
            {}};
  if (!f.turbo) return x;
  x.value = *f.turbo ? "on" : "off";
  x.severity = *f.turbo ? Severity::kWarning : Severity::kOk;
  if (*f.turbo) x.fix = {tee(f.turbo_path.ends_with("no_turbo") ? "1" : "0", f.turbo_path)};
  return x;
}

Finding smt(const SystemFacts& f) {
  Finding x{"smt",
            "unreadable",
            Severity::kUnknown,
            "SMT siblings share one core's execution units and caches: work on the sibling "
            "slows the benchmark",
            {}};
  if (!f.smt) return x;
  x.value = *f.smt ? "on" : "off";
  x.severity = *f.smt ? Severity::kWarning : Severity::kOk;
  if (*f.smt) x.fix = {tee("off", "/sys/devices/system/cpu/smt/control"), grub("nosmt")};
  return x;
}

// isolated_cpus, nohz_full, rcu_nocbs: ok when some CPUs are set apart, info when none.
Finding cpu_set(const SystemFacts& f, const char* key, const std::optional<std::string>& value,
                const char* why, const char* param) {
  Finding x{key, "unreadable", Severity::kUnknown, why, {}};
  if (!value) return x;
  if (!value->empty()) {
    x.value = *value;
    x.severity = Severity::kOk;
    return x;
  }
  x.value = "none";
  x.severity = Severity::kInfo;
  if (std::string_view(param) == "isolcpus") {
    const std::string cpus = cpus_to_isolate(f);
    if (cpus.empty()) return x;  // a single CPU: nothing to set apart
    x.fix = {grub(fmt::format("isolcpus={0} nohz_full={0} rcu_nocbs={0}", cpus)),
             fmt::format("benchguard run --cpus {} SUITE.yml", cpus)};
  } else if (f.isolated_cpus && !f.isolated_cpus->empty()) {
    // Without isolated CPUs, the isolated_cpus fix sets this parameter too.
    x.fix = {grub(fmt::format("{}={}", param, *f.isolated_cpus))};
  }
  return x;
}

Finding load(const SystemFacts& f) {
  Finding x{"load",
            "unreadable",
            Severity::kUnknown,
            "other runnable work competes with the benchmark for CPUs, caches and memory "
            "bandwidth",
            {}};
  if (!f.load_1m) return x;
  x.value = fmt::format("{:.2f} (1 min)", *f.load_1m);
  if (f.cpu_count)
    x.value += fmt::format(" on {} CPU{}", *f.cpu_count, *f.cpu_count == 1 ? "" : "s");
  x.severity = *f.load_1m >= 1.0 ? Severity::kWarning : Severity::kOk;
  if (x.severity == Severity::kWarning) x.fix = {"ps -eo pid,pcpu,etime,comm --sort=-pcpu | head"};
  return x;
}

Finding swap(const SystemFacts& f, const std::optional<SwapActivity>& activity) {
  Finding x{"swap",
            "unreadable",
            Severity::kUnknown,
            "paging to and from swap during a run stalls the benchmark on disk I/O",
            {}};
  std::string used;
  if (f.swap_total_bytes && f.swap_free_bytes) {
    if (*f.swap_total_bytes == 0) {
      x.value = "none";
      x.severity = Severity::kOk;
      return x;
    }
    used = fmt::format("{} of {} used",
                       format_bytes(static_cast<double>(*f.swap_total_bytes - *f.swap_free_bytes)),
                       format_bytes(static_cast<double>(*f.swap_total_bytes)));
  }
  if (!activity) {
    if (!used.empty()) x.value = used + ", paging not measured";
    return x;
  }
  const int64_t pages = activity->pages_in + activity->pages_out;
  const std::string paging =
      pages == 0 ? fmt::format("no paging in {:.1f} s", activity->seconds)
                 : fmt::format("{} pages in, {} out in {:.1f} s", activity->pages_in,
                               activity->pages_out, activity->seconds);
  x.value = used.empty() ? paging : used + ", " + paging;
  x.severity = pages == 0 ? Severity::kOk : Severity::kWarning;
  if (pages > 0) x.fix = {"sudo swapoff -a"};
  return x;
}

Finding throttling(const SystemFacts& f) {
  Finding x{"throttle_count",
            "no counters",
            Severity::kUnknown,
            "a CPU that overheats lowers its clock; the count is of events since boot",
            {}};
  if (!f.throttle_count) return x;
  x.value = std::to_string(*f.throttle_count);
  x.severity = *f.throttle_count > 0 ? Severity::kWarning : Severity::kOk;
  if (*f.throttle_count > 0) {
    x.fix = {"watch -n 1 'cat /sys/devices/system/cpu/cpu*/thermal_throttle/*_throttle_count'"};
    if (f.turbo.value_or(false))
      x.fix.push_back(tee(f.turbo_path.ends_with("no_turbo") ? "1" : "0", f.turbo_path));
  }
  return x;
}

Finding aslr(const SystemFacts& f) {
  Finding x{"aslr",
            "unreadable",
            Severity::kUnknown,
            "full ASLR gives each instance its own memory layout, so layout luck averages out "
            "instead of biasing every instance alike",
            {}};
  if (!f.aslr) return x;
  x.value = aslr_name(*f.aslr);
  x.severity = *f.aslr == 2 ? Severity::kOk : Severity::kWarning;
  if (*f.aslr != 2) x.fix = {tee("2", "/proc/sys/kernel/randomize_va_space")};
  return x;
}

Finding paranoid(const SystemFacts& f) {
  Finding x{"perf_event_paranoid",
            "unreadable",
            Severity::kUnknown,
            "hardware counters (instructions, cycles, branch and cache misses) need "
            "perf_event_paranoid <= 2 or "
            "CAP_PERFMON",
            {}};
  if (!f.perf_event_paranoid) return x;
  x.value = std::to_string(*f.perf_event_paranoid);
  x.severity = *f.perf_event_paranoid <= 2 ? Severity::kOk : Severity::kWarning;
  if (*f.perf_event_paranoid > 2)
    x.fix = {tee("2", "/proc/sys/kernel/perf_event_paranoid"),
             "sudo setcap cap_perfmon+ep \"$(command -v benchguard)\""};
  return x;
}

Finding virtualization(const SystemFacts& f) {
  Finding x{"virtualization",
            "unreadable",
            Severity::kUnknown,
            "other guests share the host: steal time and noisy neighbours add variance, and "
            "hardware counters may be missing",
            {}};
  if (!f.virtualization) return x;
  x.value = f.virtualization->empty() ? "none" : *f.virtualization;
  x.severity = f.virtualization->empty() ? Severity::kOk : Severity::kInfo;
  if (!f.virtualization->empty()) x.fix = {"benchguard run SUITE.yml --schedule duet"};
  return x;
}

Finding container(const SystemFacts& f) {
  Finding x{"container",
            "unreadable",
            Severity::kUnknown,
            "a container shares the kernel, and often its CPUs, with other containers",
            {}};
  if (!f.container) return x;
  x.value = f.container->empty() ? "none" : *f.container;
  x.severity = f.container->empty() ? Severity::kOk : Severity::kInfo;
  if (!f.container->empty() && f.cpu_count.value_or(0) >= 2)
    x.fix = {fmt::format("docker run --cpuset-cpus={} ...", cpus_to_isolate(f))};
  return x;
}

Finding quota(const SystemFacts& f) {
  Finding x{"cpu_quota",
            "unreadable",
            Severity::kUnknown,
            "a cgroup CPU quota stops the benchmark for the rest of each period once it is used "
            "up",
            {}};
  if (!f.cpu_quota) return x;
  x.value = format_cpu_quota(*f.cpu_quota);
  x.severity = f.cpu_quota->limited ? Severity::kWarning : Severity::kOk;
  if (f.cpu_quota->limited)
    x.fix = {tee(f.cpu_quota_path.ends_with("cpu.max") ? "max" : "-1", f.cpu_quota_path)};
  return x;
}

}  // namespace

const char* to_string(Severity s) {
  switch (s) {
    case Severity::kOk:
      return "ok";
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kUnknown:
      break;
  }
  return "unknown";
}

std::vector<Finding> evaluate(const SystemFacts& f,
                              const std::optional<SwapActivity>& swap_activity) {
  std::vector<Finding> out = {
      governor(f),
      turbo(f),
      smt(f),
      cpu_set(f, "isolated_cpus", f.isolated_cpus,
              "isolated CPUs (isolcpus) get no other tasks; a benchmark pinned there with --cpus "
              "runs undisturbed",
              "isolcpus"),
      cpu_set(f, "nohz_full", f.nohz_full,
              "nohz_full stops the timer tick on a CPU running one task: fewer interruptions",
              "nohz_full"),
      cpu_set(f, "rcu_nocbs", f.rcu_nocbs,
              "rcu_nocbs moves RCU callbacks off those CPUs: fewer interruptions", "rcu_nocbs"),
      load(f),
      swap(f, swap_activity),
      throttling(f),
      aslr(f),
      paranoid(f),
      virtualization(f),
      container(f),
      quota(f),
  };
  // The channels, when probed.
  if (f.hardware_counters) {
    Finding x{"hardware_counters",
              *f.hardware_counters ? "available" : "refused",
              *f.hardware_counters ? Severity::kOk : Severity::kInfo,
              "instructions, cycles, branch and cache misses per instance from perf_event_open; "
              "refused in a VM without a PMU, above perf_event_paranoid 2, or in a container "
              "without CAP_PERFMON",
              {}};
    if (!*f.hardware_counters)
      x.fix = {"benchguard run SUITE.yml --measure instructions   # counts from Valgrind instead"};
    out.push_back(std::move(x));
  }
  if (f.valgrind) {
    Finding x{"valgrind_instructions",
              *f.valgrind ? "available" : "not installed",
              *f.valgrind ? Severity::kOk : Severity::kInfo,
              "measure: [instructions] counts executed instructions under Valgrind, [caches] also "
              "its simulated cache misses: the same on every run, where time moves by percents",
              {}};
    if (!*f.valgrind) x.fix = {"sudo apt-get install valgrind"};
    out.push_back(std::move(x));
  }
  return out;
}

std::vector<Finding> check_system(const SystemRoot& root, std::chrono::milliseconds swap_interval) {
  SystemFacts facts = read_system_facts(root);
  if (root.root() == "/") {
    facts.hardware_counters = counters_available();
    facts.valgrind = valgrind_available(std::getenv("PATH")).ok();
  }
  return evaluate(facts, sample_swap(root, swap_interval));
}

KeyValues system_artifacts(const SystemFacts& f) {
  KeyValues kv;
  const auto add = [&kv](const char* key, std::string value) {
    kv.emplace_back(key, std::move(value));
  };
  const auto list = [](const std::string& v) { return v.empty() ? std::string("none") : v; };
  if (!f.governors.empty()) add("cpu_governor", summarize_governors(f.governors));
  if (f.turbo) add("turbo", *f.turbo ? "on" : "off");
  if (f.smt) add("smt", *f.smt ? "on" : "off");
  if (f.isolated_cpus) add("isolated_cpus", list(*f.isolated_cpus));
  if (f.nohz_full) add("nohz_full", list(*f.nohz_full));
  if (f.rcu_nocbs) add("rcu_nocbs", list(*f.rcu_nocbs));
  if (f.aslr) add("aslr", aslr_name(*f.aslr));
  if (f.perf_event_paranoid) add("perf_event_paranoid", std::to_string(*f.perf_event_paranoid));
  if (f.virtualization) add("virtualization", list(*f.virtualization));
  if (f.container) add("container", list(*f.container));
  if (f.cpu_quota) add("cpu_quota", format_cpu_quota(*f.cpu_quota));
  if (f.throttle_count) add("throttle_count", std::to_string(*f.throttle_count));
  if (f.swap_total_bytes) add("swap_total_bytes", std::to_string(*f.swap_total_bytes));
  if (f.swap_total_bytes && f.swap_free_bytes)
    add("swap_used_bytes", std::to_string(*f.swap_total_bytes - *f.swap_free_bytes));
  return kv;
}

std::string TuneWrite::command() const {
  return tee(value, path);
}
std::string TuneWrite::restore() const {
  return tee(previous, path);
}

std::vector<TuneWrite> tune_writes(const SystemFacts& f) {
  std::vector<TuneWrite> w;
  for (const auto& [cpu, g] : f.governors)
    if (g != "performance")
      w.push_back({"cpu_governor",
                   fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/scaling_governor", cpu),
                   "performance", g});
  if (f.turbo.value_or(false)) {
    const bool no_turbo = f.turbo_path.ends_with("no_turbo");
    w.push_back({"turbo", f.turbo_path, no_turbo ? "1" : "0", no_turbo ? "0" : "1"});
  }
  if (f.aslr && *f.aslr != 2)
    w.push_back({"aslr", "/proc/sys/kernel/randomize_va_space", "2", std::to_string(*f.aslr)});
  if (f.perf_event_paranoid && *f.perf_event_paranoid > 2)
    w.push_back({"perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid", "2",
                 std::to_string(*f.perf_event_paranoid)});
  return w;
}

}  // namespace benchguard::measure
