// compare and summary on real measurements with a known answer: B does 10% more work.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string spin() {
  return std::string(BG_EXAMPLES_DIR) + "/spin_bench";
}

std::string ab_suite(const std::string& a_work, const std::string& b_work) {
  return "name: ab\nschedule: alternate\ninstances: 10\niterations: 10\nburn_in: 2\nwarmup: 1\n"
         "benchmarks:\n  - name: spin\n    command: [" +
         spin() + ", --work, \"" + a_work +
         "\"]\n"
         "    variants:\n      A: {}\n      B: {command: [" +
         spin() + ", --work, \"" + b_work + "\"]}\n";
}

// The work ratio is exactly 1.10. Whether one 95% interval covers it is a coin that lands
// wrong one time in twenty by design (coverage is checked by simulation in StatsSimulation),
// so a real run is held to a slower verdict and an interval that excludes "no change", and
// the estimate must be close to 1.10 or the interval must cover 1.10: on a loaded machine the
// spread grows and the interval widens with it, which is the honest answer. A burst of load
// from elsewhere can still spoil one measurement; such bursts are independent, so a fresh
// measurement gets one more chance.
std::string ten_percent_problem(const std::string& compare_json) {
  const auto j = nlohmann::json::parse(compare_json);
  const auto& row = j["metrics"][0]["rows"][0];
  const double ratio = row["ratio"], lo = row["ci"][0], hi = row["ci"][1];
  if (row["benchmark"] != "spin") return "unexpected benchmark";
  if (row["verdict"] != "slower") return "verdict is not slower";
  if (!(lo > 1.0 && lo <= ratio && ratio <= hi)) return "interval does not exclude 1";
  const bool close = std::abs(ratio - 1.10) <= 0.05;
  const bool covered = lo <= 1.10 && 1.10 <= hi;
  if (!close && !covered) return "ratio far from 1.10 and its interval misses 1.10";
  return "";
}

template <class Measure>
std::string measured_twice(Measure measure) {
  std::string first = measure();
  if (ten_percent_problem(first).empty()) return first;
  return measure();
}

TEST(CliCompare, VariantsOfOneRunWithTenPercentMoreWork) {
  TempDir dir;
  write_file(dir.file("ab.yml"), ab_suite("2000", "2200"));
  int attempt = 0;
  const std::string out = measured_twice([&] {
    const std::string db = dir.file("bg" + std::to_string(attempt++) + ".db");
    const auto run = run_cli({"run", dir.file("ab.yml"), "--db", db});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return run_cli({"compare", "--db", db, "--format", "json"}).out;
  });
  EXPECT_EQ(ten_percent_problem(out), "") << out;
  const std::string db = dir.file("bg" + std::to_string(attempt - 1) + ".db");

  // --fail-on slower turns the finding into exit code 1; markdown is fit for a PR comment.
  const auto gate = run_cli({"compare", "--db", db, "--fail-on", "slower", "--format", "md"});
  EXPECT_EQ(gate.exit_code, 1) << gate.err;
  EXPECT_NE(gate.out.find("| spin |"), std::string::npos) << gate.out;
  EXPECT_NE(gate.out.find("**slower**"), std::string::npos) << gate.out;

  const auto summary = run_cli({"summary", "--db", db});
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("spin"), std::string::npos);
}

TEST(CliCompare, TwoRunsByLabel) {
  TempDir dir;
  auto suite = [&](const std::string& work) {
    return "instances: 10\niterations: 10\nburn_in: 2\nwarmup: 1\nbenchmarks:\n  - name: spin\n"
           "    command: [" +
           spin() + ", --work, \"" + work + "\"]\n";
  };
  write_file(dir.file("a.yml"), suite("2000"));
  write_file(dir.file("b.yml"), suite("2200"));
  int attempt = 0;
  std::string db;
  const std::string out = measured_twice([&] {
    db = dir.file("bg" + std::to_string(attempt++) + ".db");
    EXPECT_EQ(run_cli({"run", dir.file("a.yml"), "--label", "side=a", "--db", db}).exit_code, 0);
    EXPECT_EQ(run_cli({"run", dir.file("b.yml"), "--label", "side=b", "--db", db}).exit_code, 0);
    return run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json"}).out;
  });
  EXPECT_EQ(ten_percent_problem(out), "") << out;

  // The same data with a simulated further 20% slowdown of B: about 1.1 x 1.2.
  const auto sim = run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json",
                            "--simulate-slowdown", "20%"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto js = nlohmann::json::parse(sim.out);
  const double ratio = nlohmann::json::parse(out)["metrics"][0]["rows"][0]["ratio"];
  EXPECT_NEAR(js["metrics"][0]["rows"][0]["ratio"].get<double>(), 1.2 * ratio, 1e-9);
}

TEST(CliCompare, ErrorsAreOneLine) {
  TempDir dir;
  ASSERT_EQ(
      run_cli({"run", "--instances", "2", "--db", dir.file("bg.db"), "--", "/bin/true"}).exit_code,
      0);
  const auto single = run_cli({"compare", "--db", dir.file("bg.db")});
  EXPECT_EQ(single.exit_code, 2);
  EXPECT_NE(single.err.find("one variant"), std::string::npos) << single.err;
  const auto unknown = run_cli({"compare", "nope", "zilch", "--db", dir.file("bg.db")});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("'nope'"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace benchguard
