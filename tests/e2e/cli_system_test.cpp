// `benchguard system check` on this machine and on fake /sys and /proc trees; `system tune`
// only ever on fake trees (--root) or with --dry-run: tests change nothing on the machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::read_file;
using testing::run_cli;
using testing::TempDir;

void put(const TempDir& root, const std::string& absolute, const std::string& text) {
  const std::filesystem::path p = root.path().string() + absolute;
  std::filesystem::create_directories(p.parent_path());
  testing::write_file(p.string(), text);
}

std::string get(const TempDir& root, const std::string& absolute) {
  return read_file(root.path().string() + absolute);
}

const std::string kGov0 = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor";
const std::string kGov1 = "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor";
const std::string kNoTurbo = "/sys/devices/system/cpu/intel_pstate/no_turbo";
const std::string kAslr = "/proc/sys/kernel/randomize_va_space";

// Two CPUs in powersave, turbo on, ASLR off: three kinds of tunable warnings.
void noisy(const TempDir& root) {
  put(root, "/sys/devices/system/cpu/online", "0-1\n");
  put(root, kGov0, "powersave\n");
  put(root, kGov1, "powersave\n");
  put(root, kNoTurbo, "0\n");
  put(root, kAslr, "0\n");
  put(root, "/proc/sys/kernel/perf_event_paranoid", "2\n");
}

TEST(CliSystem, CheckJsonOnThisMachine) {
  const auto r = run_cli({"system", "check", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(benchguard::testing::schema_problem(r.out), "");
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> keys;
  int warnings = 0;
  for (const auto& c : j.at("checks")) {
    keys.insert(c.at("key").get<std::string>());
    const std::string severity = c.at("severity");
    EXPECT_TRUE(severity == "ok" || severity == "info" || severity == "warning" ||
                severity == "unknown")
        << severity;
    warnings += severity == "warning" ? 1 : 0;
    EXPECT_FALSE(c.at("value").get<std::string>().empty());
    EXPECT_FALSE(c.at("why").get<std::string>().empty());
    EXPECT_TRUE(c.at("fix").is_array());
  }
  EXPECT_EQ(keys,
            (std::set<std::string>{"cpu_governor", "turbo", "smt", "isolated_cpus", "nohz_full",
                                   "rcu_nocbs", "load", "swap", "throttle_count", "aslr",
                                   "perf_event_paranoid", "virtualization", "container",
                                   "cpu_quota", "hardware_counters", "valgrind_instructions"}));
  EXPECT_EQ(j.at("warnings"), warnings);
}

TEST(CliSystem, CheckTableAndStrict) {
  TempDir root;
  noisy(root);
  auto r = run_cli({"system", "check", "--root", root.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;  // a report: warnings do not fail it
  EXPECT_NE(r.out.find("why it matters"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("powersave"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sudo cpupower frequency-set -g performance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 warnings"), std::string::npos) << r.out;
  r = run_cli({"system", "check", "--strict", "--root", root.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;

  TempDir calm;
  put(calm, kAslr, "2\n");
  r = run_cli({"system", "check", "--strict", "--format", "md", "--root", calm.path().string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("| aslr | full | ok |"), std::string::npos) << r.out;
}

TEST(CliSystem, TuneDryRunShowsWritesAndRestoresButWritesNothing) {
  TempDir root;
  noisy(root);
  const auto r = run_cli({"system", "tune", "--dry-run", "--root", root.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("echo performance | sudo tee " + kGov0), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("echo powersave | sudo tee " + kGov0), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("echo 1 | sudo tee " + kNoTurbo), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("echo 2 | sudo tee " + kAslr), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dry run: nothing written"), std::string::npos) << r.out;
  EXPECT_EQ(get(root, kGov0), "powersave\n");
  EXPECT_EQ(get(root, kNoTurbo), "0\n");
  EXPECT_EQ(get(root, kAslr), "0\n");
}

TEST(CliSystem, TuneWithoutTerminalOrYesRefuses) {
  TempDir root;
  noisy(root);
  const auto r = run_cli({"system", "tune", "--root", root.path().string()});  // stdin: /dev/null
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--yes"), std::string::npos) << r.err;
  EXPECT_EQ(get(root, kGov0), "powersave\n");
  EXPECT_EQ(get(root, kAslr), "0\n");
}

TEST(CliSystem, TuneYesWritesUnderTheRoot) {
  TempDir root;
  noisy(root);
  auto r = run_cli({"system", "tune", "--yes", "--root", root.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("written  " + root.path().string() + kGov1 + ": powersave -> performance"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(get(root, kGov0), "performance\n");
  EXPECT_EQ(get(root, kGov1), "performance\n");
  EXPECT_EQ(get(root, kNoTurbo), "1\n");
  EXPECT_EQ(get(root, kAslr), "2\n");
  r = run_cli({"system", "tune", "--yes", "--root", root.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("nothing to tune"), std::string::npos) << r.out;
}

TEST(CliSystem, TuneReportsFailedWrites) {
  TempDir root;
  put(root, "/sys/devices/system/cpu/online", "0\n");
  // A governor file that reads fine but refuses writes (/proc/version has no write handler).
  std::filesystem::create_directories(root.path().string() +
                                      "/sys/devices/system/cpu/cpu0/cpufreq");
  std::filesystem::create_symlink("/proc/version", root.path().string() + kGov0);
  const auto r =
      run_cli({"system", "tune", "--yes", "--format", "json", "--root", root.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("1 of 1 writes failed"), std::string::npos) << r.err;
  EXPECT_EQ(benchguard::testing::schema_problem(r.out), "");
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("writes").size(), 1u);
  EXPECT_FALSE(j["writes"][0].at("written").get<bool>());
  EXPECT_FALSE(j["writes"][0].at("error").get<std::string>().empty());
}

}  // namespace
}  // namespace benchguard
