// `compare` warns when A and B ran under different conditions (the artifacts of their runs):
// result files whose configuration lines differ, and stored runs of one machine that agree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// `go test -bench` text whose configuration lines become the run's artifacts.
std::string go_text(const std::string& config, double ns) {
  std::string s = "goos: linux\n" + config;
  for (int i = 0; i < 5; ++i)
    s += "BenchmarkAtoi-8   \t41696568\t" + std::to_string(ns + 0.1 * i) + " ns/op\n";
  return s + "PASS\n";
}

std::vector<std::string> condition_warnings(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& w : report.at("warnings"))
    if (w.get<std::string>().starts_with("A and B ran under different conditions"))
      out.push_back(w);
  return out;
}

TEST(CliCompareConditions, DifferentGovernorsAreNamed) {
  TempDir dir;
  write_file(dir.file("a.txt"), go_text("cpu_governor: powersave\ncpu_count: 8\n", 28));
  write_file(dir.file("b.txt"), go_text("cpu_governor: performance\ncpu_count: 8\n", 28));
  auto r = run_cli({"compare", dir.file("a.txt"), dir.file("b.txt"), "--format", "json", "--db",
                    dir.file("never.db")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(condition_warnings(nlohmann::json::parse(r.out)),
            std::vector<std::string>{"A and B ran under different conditions: cpu_governor "
                                     "powersave (A) vs performance (B)"});
  r = run_cli({"compare", dir.file("a.txt"), dir.file("b.txt"), "--db", dir.file("never.db")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  A and B ran under different conditions: cpu_governor powersave (A) vs "
                       "performance (B)\n"),
            std::string::npos)
      << r.out;
}

TEST(CliCompareConditions, FilesOfOneSideThatDisagree) {
  TempDir dir;
  write_file(dir.file("a1.txt"), go_text("turbo: on\n", 28));
  write_file(dir.file("a2.txt"), go_text("turbo: off\n", 28));
  write_file(dir.file("b.txt"), go_text("turbo: off\n", 28));
  const auto r = run_cli({"compare", dir.file("a1.txt"), dir.file("a2.txt"), "vs",
                          dir.file("b.txt"), "--format", "json", "--db", dir.file("never.db")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(condition_warnings(nlohmann::json::parse(r.out)),
            std::vector<std::string>{"A and B ran under different conditions: turbo on / off "
                                     "(A: its runs differ) vs off (B)"});
}

TEST(CliCompareConditions, TwoRunsOnThisMachineAgree) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  for (const char* side : {"side=a", "side=b"}) {
    const auto r =
        run_cli({"run", "--instances", "2", "--label", side, "--db", db, "-q", "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto r = run_cli({"compare", "side=a", "side=b", "--format", "json", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(condition_warnings(nlohmann::json::parse(r.out)).empty()) << r.out;
}

// `compare --pool KEY=VALUE KEY=VALUE`: every run with each label pooled into its side (a
// pytest session is one instance per test, so repeated sessions pool into a comparison).
TEST(CliComparePool, RunsUnderALabelPoolIntoOneSide) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  for (const char* side : {"side=a", "side=b"})
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(run_cli({"run", "--instances", "1", "--label", side, "--name", "t", "--db", db,
                         "-q", "--", "/bin/true"})
                    .exit_code,
                0);
  // A label alone is its newest run: one instance a side.
  const auto newest = run_cli({"--format", "json", "compare", "side=a", "side=b", "--db", db});
  ASSERT_EQ(newest.exit_code, 0) << newest.err;
  const auto n = nlohmann::json::parse(newest.out);
  EXPECT_EQ(n["metrics"][0]["rows"][0]["instances_a"], 1);

  const auto pooled =
      run_cli({"--format", "json", "compare", "--pool", "side=a", "side=b", "--db", db});
  ASSERT_EQ(pooled.exit_code, 0) << pooled.err;
  const auto p = nlohmann::json::parse(pooled.out);
  EXPECT_EQ(p["description"], "side=a (3 runs) vs side=b (3 runs), pooled");
  const auto& row = p["metrics"][0]["rows"][0];
  EXPECT_EQ(row["instances_a"], 3);
  EXPECT_EQ(row["instances_b"], 3);

  auto bad = run_cli({"compare", "--pool", "side=a", "side=c", "--db", db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no run has the label side=c"), std::string::npos) << bad.err;
  bad = run_cli({"compare", "--pool", "latest", "side=a", "--db", db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--pool pools the runs of a label: give KEY=VALUE, not 'latest'"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace benchguard
