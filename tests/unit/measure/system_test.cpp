// `system check`: parsing /sys and /proc text, judging facts read from fake trees under a
// temporary root, the facts a run stores, and the writes of `system tune`.
#include "measure/system.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <map>

#include "measure/host.hpp"
#include "support/test_support.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::read_file;
using benchguard::testing::TempDir;

// A temporary directory standing for "/".
class FakeRoot {
 public:
  void put(const std::string& absolute, const std::string& text) const {
    const std::filesystem::path p = dir_.path().string() + absolute;
    std::filesystem::create_directories(p.parent_path());
    benchguard::testing::write_file(p.string(), text);
  }
  std::string get(const std::string& absolute) const {
    return read_file(dir_.path().string() + absolute);
  }
  SystemRoot root() const { return SystemRoot(dir_.path().string()); }

 private:
  TempDir dir_;
};

std::map<std::string, Finding> by_key(const std::vector<Finding>& findings) {
  std::map<std::string, Finding> m;
  for (const auto& f : findings) m[f.key] = f;
  return m;
}

// A machine tuned for benchmarking: every check ok.
void tuned(const FakeRoot& r) {
  r.put("/sys/devices/system/cpu/online", "0-3\n");
  for (int c = 0; c < 4; ++c) {
    const std::string cpu = "/sys/devices/system/cpu/cpu" + std::to_string(c);
    r.put(cpu + "/cpufreq/scaling_governor", "performance\n");
    r.put(cpu + "/thermal_throttle/core_throttle_count", "0\n");
    r.put(cpu + "/thermal_throttle/package_throttle_count", "0\n");
  }
  r.put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
  r.put("/sys/devices/system/cpu/smt/active", "0\n");
  r.put("/sys/devices/system/cpu/isolated", "2-3\n");
  r.put("/sys/devices/system/cpu/nohz_full", "2-3\n");
  r.put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3 quiet\n");
  r.put("/proc/loadavg", "0.10 0.20 0.15 1/180 4242\n");
  r.put("/proc/meminfo", "MemTotal: 16000000 kB\nSwapTotal:        0 kB\nSwapFree:         0 kB\n");
  r.put("/proc/vmstat", "nr_free_pages 100\npswpin 7\npswpout 9\n");
  r.put("/proc/sys/kernel/randomize_va_space", "2\n");
  r.put("/proc/sys/kernel/perf_event_paranoid", "2\n");
  r.put("/sys/class/dmi/id/product_name", "PowerEdge R640\n");
  r.put("/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
  r.put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr\n");
  r.put("/proc/1/cgroup", "0::/init.scope\n");
  r.put("/proc/self/cgroup", "0::/user.slice/session-2.scope\n");
  r.put("/sys/fs/cgroup/user.slice/session-2.scope/cpu.max", "max 100000\n");
  r.put("/proc/self/mountinfo", "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n");
}

// A machine with everything that makes timings noisy.
void noisy(const FakeRoot& r) {
  r.put("/sys/devices/system/cpu/online", "0-3\n");
  for (int c = 0; c < 4; ++c) {
    const std::string cpu = "/sys/devices/system/cpu/cpu" + std::to_string(c);
    r.put(cpu + "/cpufreq/scaling_governor", c < 2 ? "powersave\n" : "performance\n");
    r.put(cpu + "/thermal_throttle/core_throttle_count", c == 0 ? "5\n" : "0\n");
    r.put(cpu + "/thermal_throttle/package_throttle_count", "7\n");  // one package: 7, not 28
    r.put(cpu + "/topology/physical_package_id", "0\n");
  }
  r.put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
  r.put("/sys/devices/system/cpu/smt/active", "1\n");
  r.put("/sys/devices/system/cpu/isolated", "\n");
  r.put("/sys/devices/system/cpu/nohz_full", "(null)\n");
  r.put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet\n");
  r.put("/proc/loadavg", "3.50 2.00 1.00 3/180 4242\n");
  r.put("/proc/meminfo", "SwapTotal:  2097152 kB\nSwapFree:   1048576 kB\n");
  r.put("/proc/vmstat", "pswpin 100\npswpout 200\n");
  r.put("/proc/sys/kernel/randomize_va_space", "0\n");
  r.put("/proc/sys/kernel/perf_event_paranoid", "3\n");
  r.put("/sys/class/dmi/id/product_name", "KVM\n");
  r.put("/sys/class/dmi/id/sys_vendor", "QEMU\n");
  r.put("/proc/cpuinfo", "flags\t\t: fpu vme hypervisor\n");
  r.put("/.dockerenv", "");
  r.put("/proc/self/cgroup", "0::/docker/abc\n");
  r.put("/sys/fs/cgroup/docker/abc/cpu.max", "50000 100000\n");
}

TEST(SystemParse, KernelCpuLists) {
  EXPECT_EQ(parse_kernel_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_kernel_cpu_list(""), std::vector<int>{});
  EXPECT_EQ(parse_kernel_cpu_list("\n"), std::vector<int>{});
  EXPECT_EQ(parse_kernel_cpu_list("3,1"), (std::vector<int>{1, 3}));
  EXPECT_FALSE(parse_kernel_cpu_list("3-1"));
  EXPECT_FALSE(parse_kernel_cpu_list("a"));
  EXPECT_FALSE(parse_kernel_cpu_list("1,,2"));
}

TEST(SystemParse, IsolationFromTheKernelCommandLine) {
  const std::string cmdline =
      "BOOT_IMAGE=/vmlinuz-6.1 root=UUID=1234 ro isolcpus=2-3 nohz_full=2-3 quiet "
      "-- rcu_nocbs=1\n";
  EXPECT_EQ(cmdline_param(cmdline, "isolcpus"), "2-3");
  EXPECT_EQ(cmdline_param(cmdline, "nohz_full"), "2-3");
  EXPECT_EQ(cmdline_param(cmdline, "quiet"), "");
  EXPECT_FALSE(cmdline_param(cmdline, "rcu_nocbs"));  // after "--": init's, not the kernel's
  EXPECT_FALSE(cmdline_param(cmdline, "isol"));
  EXPECT_EQ(cmdline_param("isolcpus=1 isolcpus=3", "isolcpus"), "3");  // the last one counts
  EXPECT_EQ(isolcpus_list("nohz,domain,2-3"), "2-3");
  EXPECT_EQ(isolcpus_list("managed_irq,domain,1,3-4"), "1,3-4");
  EXPECT_EQ(isolcpus_list("5"), "5");
}

TEST(SystemParse, CgroupV2CpuMax) {
  const auto half = parse_cpu_max("50000 100000\n");
  ASSERT_TRUE(half);
  EXPECT_TRUE(half->limited);
  EXPECT_DOUBLE_EQ(half->cpus, 0.5);
  EXPECT_EQ(format_cpu_quota(*half), "0.5 CPUs");
  const auto none = parse_cpu_max("max 100000\n");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->limited);
  EXPECT_EQ(format_cpu_quota(*none), "none");
  EXPECT_EQ(format_cpu_quota(*parse_cpu_max("200000 100000")), "2 CPUs");
  EXPECT_EQ(format_cpu_quota(*parse_cpu_max("100000 100000")), "1 CPU");
  EXPECT_EQ(format_cpu_quota(*parse_cpu_max("33333 100000")), "0.33 CPUs");
  EXPECT_FALSE(parse_cpu_max("50000"));
  EXPECT_FALSE(parse_cpu_max("max 0"));
  EXPECT_FALSE(parse_cpu_max("lots 100000"));
}

TEST(SystemParse, CgroupV1CfsQuota) {
  const auto none = parse_cfs_quota("-1\n", "100000\n");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->limited);
  const auto q = parse_cfs_quota("150000", "100000");
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->limited);
  EXPECT_DOUBLE_EQ(q->cpus, 1.5);
  EXPECT_FALSE(parse_cfs_quota("x", "100000"));
  EXPECT_FALSE(parse_cfs_quota("50000", "0"));
}

TEST(SystemParse, OwnCgroups) {
  const OwnCgroup v2 = parse_proc_cgroup("0::/user.slice/user-1000.slice/session-2.scope\n");
  EXPECT_EQ(v2.v2, "/user.slice/user-1000.slice/session-2.scope");
  EXPECT_FALSE(v2.v1_cpu);
  const OwnCgroup hybrid = parse_proc_cgroup(
      "12:cpuset:/\n4:cpu,cpuacct:/docker/abc\n2:cpuacct:/x\n1:name=systemd:/init.scope\n0::/\n");
  EXPECT_EQ(hybrid.v1_cpu, "/docker/abc");
  EXPECT_EQ(hybrid.v1_cpu_controllers, "cpu,cpuacct");
  EXPECT_EQ(hybrid.v2, "/");
  EXPECT_FALSE(parse_proc_cgroup("2:cpuacct:/x\n").v1_cpu);
}

TEST(SystemParse, ProcFiles) {
  EXPECT_EQ(vmstat_value("nr_free_pages 5\npswpin 12\npswpout 34\n", "pswpin"), 12);
  EXPECT_EQ(vmstat_value("pswpin 12\n", "pswpout"), std::nullopt);
  EXPECT_EQ(meminfo_bytes("MemTotal: 100 kB\nSwapTotal:   2048 kB\n", "SwapTotal"), 2048 * 1024);
  EXPECT_EQ(meminfo_bytes("SwapTotal: 2048 kB\n", "SwapFree"), std::nullopt);
  EXPECT_DOUBLE_EQ(*parse_loadavg("1.25 0.50 0.10 2/300 999\n"), 1.25);
  EXPECT_FALSE(parse_loadavg(""));
  EXPECT_TRUE(cpuinfo_hypervisor("processor: 0\nflags\t\t: fpu hypervisor lahf_lm\n"));
  EXPECT_FALSE(cpuinfo_hypervisor("flags\t\t: fpu vme\nmodel name: hypervisor-like CPU\n"));
  EXPECT_EQ(root_fstype("22 27 0:21 / /proc rw - proc proc rw\n"
                        "1 0 0:50 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/a\n"),
            "overlay");
  EXPECT_EQ(root_fstype("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"), "ext4");
  EXPECT_EQ(root_fstype(""), "");
}

TEST(SystemParse, VirtualMachinesAndContainers) {
  EXPECT_EQ(dmi_virtualization("KVM", "QEMU"), "kvm");
  EXPECT_EQ(dmi_virtualization("Standard PC (Q35 + ICH9, 2009)", "QEMU"), "qemu");
  EXPECT_EQ(dmi_virtualization("VMware Virtual Platform", "VMware, Inc."), "vmware");
  EXPECT_EQ(dmi_virtualization("VirtualBox", "innotek GmbH"), "virtualbox");
  EXPECT_EQ(dmi_virtualization("Virtual Machine", "Microsoft Corporation"), "hyperv");
  EXPECT_EQ(dmi_virtualization("m5.large", "Amazon EC2"), "amazon");
  EXPECT_EQ(dmi_virtualization("m5.metal", "Amazon EC2"), "");
  EXPECT_EQ(dmi_virtualization("Google Compute Engine", "Google"), "google");
  EXPECT_EQ(dmi_virtualization("PowerEdge R640", "Dell Inc."), "");
  EXPECT_EQ(cgroup_container("0::/system.slice/docker-0123abcd.scope\n"), "docker");
  EXPECT_EQ(cgroup_container("0::/kubepods/burstable/pod1/abc\n"), "kubernetes");
  EXPECT_EQ(cgroup_container("0::/init.scope\n"), "");
}

TEST(SystemParse, GovernorSummary) {
  EXPECT_EQ(summarize_governors({{0, "performance"}, {1, "performance"}}), "performance");
  EXPECT_EQ(summarize_governors(
                {{0, "powersave"}, {1, "powersave"}, {2, "performance"}, {3, "powersave"}}),
            "powersave on 0-1,3; performance on 2");
}

TEST(SystemCheck, TunedMachineIsOk) {
  FakeRoot r;
  tuned(r);
  const auto findings = evaluate(read_system_facts(r.root()), sample_swap(r.root(), {}));
  ASSERT_EQ(findings.size(), 14u);
  for (const auto& f : findings) {
    EXPECT_EQ(f.severity, Severity::kOk) << f.key << " = " << f.value;
    EXPECT_FALSE(f.why.empty()) << f.key;
    EXPECT_TRUE(f.fix.empty()) << f.key;
  }
  const auto m = by_key(findings);
  EXPECT_EQ(m.at("cpu_governor").value, "performance");
  EXPECT_EQ(m.at("turbo").value, "off");
  EXPECT_EQ(m.at("isolated_cpus").value, "2-3");
  EXPECT_EQ(m.at("rcu_nocbs").value, "2-3");
  EXPECT_EQ(m.at("swap").value, "none");
  EXPECT_EQ(m.at("cpu_quota").value, "none");
  EXPECT_EQ(m.at("virtualization").value, "none");
  EXPECT_EQ(m.at("container").value, "none");
}

TEST(SystemCheck, ChannelsAreListedWhenProbed) {
  FakeRoot r;
  tuned(r);
  SystemFacts facts = read_system_facts(r.root());
  EXPECT_FALSE(by_key(evaluate(facts, std::nullopt)).count("hardware_counters"));  // not probed
  facts.hardware_counters = false;  // a VM without a PMU
  facts.valgrind = true;
  auto m = by_key(evaluate(facts, std::nullopt));
  EXPECT_EQ(m.at("hardware_counters").value, "refused");
  EXPECT_EQ(m.at("hardware_counters").severity, Severity::kInfo);
  EXPECT_NE(m.at("hardware_counters").fix.at(0).find("--measure instructions"), std::string::npos);
  EXPECT_EQ(m.at("valgrind_instructions").value, "available");
  EXPECT_EQ(m.at("valgrind_instructions").severity, Severity::kOk);
  facts.valgrind = false;
  m = by_key(evaluate(facts, std::nullopt));
  EXPECT_EQ(m.at("valgrind_instructions").value, "not installed");
  EXPECT_EQ(m.at("valgrind_instructions").fix,
            std::vector<std::string>{"sudo apt-get install valgrind"});
}

TEST(SystemCheck, NoisyMachineWarnsWithFixes) {
  FakeRoot r;
  noisy(r);
  const SystemFacts facts = read_system_facts(r.root());
  const auto m = by_key(evaluate(facts, SwapActivity{10, 4, 0.2}));
  for (const char* key : {"cpu_governor", "turbo", "smt", "load", "swap", "throttle_count", "aslr",
                          "perf_event_paranoid", "cpu_quota"}) {
    EXPECT_EQ(m.at(key).severity, Severity::kWarning) << key << " = " << m.at(key).value;
    EXPECT_FALSE(m.at(key).fix.empty()) << key;
  }
  for (const char* key : {"isolated_cpus", "nohz_full", "rcu_nocbs", "virtualization", "container"})
    EXPECT_EQ(m.at(key).severity, Severity::kInfo) << key << " = " << m.at(key).value;
  EXPECT_EQ(m.at("cpu_governor").value, "powersave on 0-1; performance on 2-3");
  EXPECT_EQ(m.at("cpu_governor").fix.front(), "sudo cpupower frequency-set -g performance");
  EXPECT_EQ(
      m.at("turbo").fix,
      std::vector<std::string>{"echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"});
  EXPECT_EQ(m.at("throttle_count").value, "12");  // 5 core events + 7 of the one package
  EXPECT_EQ(m.at("aslr").value, "off");
  EXPECT_EQ(m.at("aslr").fix.front(), "echo 2 | sudo tee /proc/sys/kernel/randomize_va_space");
  EXPECT_EQ(m.at("perf_event_paranoid").fix.front(),
            "echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid");
  EXPECT_EQ(m.at("load").value, "3.50 (1 min) on 4 CPUs");
  EXPECT_EQ(m.at("swap").value, "1.0 GiB of 2.0 GiB used, 10 pages in, 4 out in 0.2 s");
  EXPECT_EQ(m.at("nohz_full").value, "none");  // the kernel's "(null)"
  EXPECT_NE(m.at("isolated_cpus").fix.front().find("isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3"),
            std::string::npos);
  EXPECT_EQ(m.at("virtualization").value, "kvm");
  EXPECT_EQ(m.at("container").value, "docker");
  EXPECT_EQ(m.at("cpu_quota").value, "0.5 CPUs");
  EXPECT_EQ(m.at("cpu_quota").fix.front(), "echo max | sudo tee /sys/fs/cgroup/docker/abc/cpu.max");
}

TEST(SystemCheck, UnreadableMeansUnknownNeverACrash) {
  FakeRoot r;  // nothing in it
  const auto findings = check_system(r.root(), std::chrono::milliseconds(0));
  ASSERT_EQ(findings.size(), 14u);
  for (const auto& f : findings) {
    EXPECT_EQ(f.severity, Severity::kUnknown) << f.key << " = " << f.value;
    EXPECT_FALSE(f.value.empty()) << f.key;
  }
  EXPECT_TRUE(system_artifacts(read_system_facts(r.root())).empty());
}

TEST(SystemCheck, SwapAndLoadThresholds) {
  SystemFacts f;
  f.swap_total_bytes = 1 << 30;
  f.swap_free_bytes = 1 << 30;
  f.load_1m = 0.99;
  f.cpu_count = 1;
  auto m = by_key(evaluate(f, SwapActivity{0, 0, 0.2}));
  EXPECT_EQ(m.at("swap").severity, Severity::kOk);
  EXPECT_EQ(m.at("swap").value, "0 B of 1.0 GiB used, no paging in 0.2 s");
  EXPECT_EQ(m.at("load").severity, Severity::kOk);
  EXPECT_EQ(m.at("load").value, "0.99 (1 min) on 1 CPU");
  f.load_1m = 1.0;
  m = by_key(evaluate(f, std::nullopt));
  EXPECT_EQ(m.at("load").severity, Severity::kWarning);
  EXPECT_EQ(m.at("swap").severity, Severity::kUnknown);  // traffic not measured
  EXPECT_TRUE(m.at("isolated_cpus").fix.empty());        // one CPU: nothing to isolate
}

TEST(SystemCheck, CgroupV1QuotaAndTheTightestAncestor) {
  FakeRoot v1;
  v1.put("/proc/self/cgroup", "4:cpu,cpuacct:/\n0::/\n");
  v1.put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "150000\n");
  v1.put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  auto m = by_key(evaluate(read_system_facts(v1.root()), std::nullopt));
  EXPECT_EQ(m.at("cpu_quota").value, "1.5 CPUs");
  EXPECT_EQ(m.at("cpu_quota").fix.front(),
            "echo -1 | sudo tee /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us");

  FakeRoot nested;
  nested.put("/proc/self/cgroup", "0::/a/b\n");
  nested.put("/sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
  nested.put("/sys/fs/cgroup/a/cpu.max", "100000 100000\n");
  m = by_key(evaluate(read_system_facts(nested.root()), std::nullopt));
  EXPECT_EQ(m.at("cpu_quota").value, "1 CPU");
  EXPECT_EQ(m.at("cpu_quota").severity, Severity::kWarning);
}

TEST(SystemCheck, FallbacksForSmtIsolationAndBoost) {
  FakeRoot r;
  r.put("/sys/devices/system/cpu/online", "0-3\n");
  r.put("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,2\n");
  r.put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
  r.put("/proc/cmdline", "ro isolcpus=domain,managed_irq,3 quiet\n");
  const SystemFacts f = read_system_facts(r.root());
  auto m = by_key(evaluate(f, std::nullopt));
  EXPECT_EQ(m.at("smt").value, "on");
  EXPECT_EQ(m.at("isolated_cpus").value, "3");
  EXPECT_EQ(m.at("isolated_cpus").severity, Severity::kOk);
  EXPECT_EQ(m.at("nohz_full").value, "none");
  EXPECT_EQ(m.at("nohz_full").fix.size(), 1u);  // nohz_full=3, for the isolated CPU
  EXPECT_NE(m.at("nohz_full").fix.front().find("nohz_full=3"), std::string::npos);
  EXPECT_EQ(m.at("turbo").fix,
            std::vector<std::string>{"echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"});
  const auto w = tune_writes(f);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].value, "0");
  EXPECT_EQ(w[0].previous, "1");
}

TEST(SystemCheck, ArtifactsOfARun) {
  FakeRoot r;
  noisy(r);
  const KeyValues kv = system_artifacts(read_system_facts(r.root()));
  const std::map<std::string, std::string> m(kv.begin(), kv.end());
  EXPECT_EQ(m.size(), kv.size()) << "duplicate keys";
  const std::map<std::string, std::string> expected{
      {"cpu_governor", "powersave on 0-1; performance on 2-3"},
      {"turbo", "on"},
      {"smt", "on"},
      {"isolated_cpus", "none"},
      {"nohz_full", "none"},
      {"rcu_nocbs", "none"},
      {"aslr", "off"},
      {"perf_event_paranoid", "3"},
      {"virtualization", "kvm"},
      {"container", "docker"},
      {"cpu_quota", "0.5 CPUs"},
      {"throttle_count", "12"},
      {"swap_total_bytes", std::to_string(2097152LL * 1024)},
      {"swap_used_bytes", std::to_string(1048576LL * 1024)}};
  EXPECT_EQ(m, expected);
}

TEST(SystemCheck, HostArtifactsCarryTheFacts) {
  const KeyValues host = host_artifacts();
  const std::map<std::string, std::string> m(host.begin(), host.end());
  for (const auto& [key, value] : system_artifacts(read_system_facts(SystemRoot())))
    EXPECT_TRUE(m.count(key)) << key;
  if (SystemRoot().read("/proc/sys/kernel/randomize_va_space")) {
    EXPECT_TRUE(m.count("aslr"));
  }
}

TEST(SystemTune, WritesRestorablyUnderTheRoot) {
  FakeRoot r;
  noisy(r);
  const auto writes = tune_writes(read_system_facts(r.root()));
  std::map<std::string, const TuneWrite*> by_path;
  for (const auto& w : writes) by_path[w.path] = &w;
  ASSERT_EQ(writes.size(), 5u);  // two governors, turbo, ASLR, perf_event_paranoid
  const auto* gov = by_path.at("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor");
  EXPECT_EQ(gov->value, "performance");
  EXPECT_EQ(gov->previous, "powersave");
  EXPECT_EQ(gov->command(),
            "echo performance | sudo tee /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor");
  EXPECT_EQ(gov->restore(),
            "echo powersave | sudo tee /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor");
  EXPECT_FALSE(by_path.count("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor"));
  EXPECT_EQ(by_path.at("/sys/devices/system/cpu/intel_pstate/no_turbo")->value, "1");
  EXPECT_EQ(by_path.at("/proc/sys/kernel/randomize_va_space")->previous, "0");
  EXPECT_EQ(by_path.at("/proc/sys/kernel/perf_event_paranoid")->value, "2");

  const SystemRoot root = r.root();
  for (const auto& w : writes) EXPECT_EQ(root.write(w.path, w.value), 0) << w.path;
  EXPECT_EQ(r.get("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"), "performance\n");
  EXPECT_EQ(r.get("/proc/sys/kernel/randomize_va_space"), "2\n");
  EXPECT_TRUE(tune_writes(read_system_facts(root)).empty());
  EXPECT_EQ(root.write("/proc/sys/kernel/no_such_file", "1"), ENOENT);  // never creates
  EXPECT_FALSE(root.exists("/proc/sys/kernel/no_such_file"));
}

TEST(SystemCheck, SwapSampling) {
  FakeRoot r;
  EXPECT_FALSE(sample_swap(r.root(), std::chrono::milliseconds(0)));
  r.put("/proc/vmstat", "pswpin 5\npswpout 6\n");
  const auto s = sample_swap(r.root(), std::chrono::milliseconds(1));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pages_in + s->pages_out, 0);
  EXPECT_GT(s->seconds, 0);
}

}  // namespace
}  // namespace benchguard::measure
