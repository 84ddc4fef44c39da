// The instructions channel: each instance under Valgrind (callgrind) (docs/measurement.md).
// These tests run real Valgrind.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::run_cli;
using testing::TempDir;

std::string cli_path() {
  return BG_BINARY;
}

// The instructions row of a JSON comparison, or null.
json instructions_row(const std::string& out) {
  const json report = json::parse(out);
  for (const auto& m : report["metrics"])
    if (m["metric"] == "instructions") return m["rows"][0];
  return nullptr;
}

// A/A: twenty instances of the quickstart's sort benchmark count the same instructions (the
// environment, BENCHGUARD_INSTANCE among it, moves a few of 22 million), and compare calls
// them unchanged with an interval that is a point.
TEST(CliInstructions, TwentyInstancesOfSortCountTheSame) {
  TempDir dir;
  const std::string db = dir.file("i.db");
  const std::string sort = std::string(BG_EXAMPLES_DIR) + "/sort_bench";
  for (const char* side : {"side=a", "side=b"}) {
    const auto r = run_cli({"run", "--measure", "instructions", "--instances", "20", "--label",
                            side, "--db", db, "-q", "--", sort, "--n", "100000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto r = run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto names = json::parse(r.out)["metrics"];
  ASSERT_FALSE(names.empty()) << r.out;
  EXPECT_EQ(names[0]["metric"], "instructions") << r.out;  // the run's own channel first
  const json row = instructions_row(r.out);
  ASSERT_FALSE(row.is_null()) << r.out;
  EXPECT_EQ(row["verdict"], "unchanged") << r.out;
  EXPECT_EQ(row["instances_a"], 20);
  const double lo = row["ci"][0], hi = row["ci"][1];
  EXPECT_GE(lo, 1 - 1e-4) << r.out;  // spread within 0.01%
  EXPECT_LE(hi, 1 + 1e-4) << r.out;
  EXPECT_GT(row["mean_a"].get<double>(), 1e6);
}

// A loop run 0.5% more often is slower with one instance a side; the same loop is unchanged.
TEST(CliInstructions, HalfAPercentMoreIsSlowerWithOneInstanceASide) {
  TempDir dir;
  const std::string db = dir.file("i.db");
  const std::string loop = testing::helper("loop");
  for (const auto& [side, count] :
       {std::pair{"side=a", "10000000"}, std::pair{"side=b", "10050000"},
        std::pair{"side=c", "10000000"}}) {
    const auto r = run_cli({"run", "--measure", "instructions", "--instances", "1", "--label", side,
                            "--db", db, "-q", "--", loop, count});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto r = run_cli(
      {"compare", "side=a", "side=b", "--db", db, "--threshold", "0.25%", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json row = instructions_row(r.out);
  ASSERT_FALSE(row.is_null()) << r.out;
  EXPECT_EQ(row["verdict"], "slower") << r.out;
  // 0.5% more turns of the loop; start-up, the same on both sides, is about 0.1% of the count
  // (how many instructions a turn takes depends on the compiler).
  EXPECT_GT(row["ratio"].get<double>(), 1.0044) << r.out;
  EXPECT_LT(row["ratio"].get<double>(), 1.0050) << r.out;
  EXPECT_EQ(row["ci"][0], row["ci"][1]) << r.out;
  r = run_cli(
      {"compare", "side=a", "side=c", "--db", db, "--threshold", "0.25%", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  row = instructions_row(r.out);
  ASSERT_FALSE(row.is_null()) << r.out;
  EXPECT_EQ(row["verdict"], "unchanged") << r.out;
  // The table says why one instance was enough.
  r = run_cli({"compare", "side=a", "side=b", "--db", db, "--threshold", "0.25%"});
  const auto exact = r.out.find("exact: Valgrind's instruction");
  EXPECT_NE(exact, std::string::npos) << r.out;
  // One note for all the benchmark's exact counts, not one per metric.
  EXPECT_EQ(r.out.find("exact:", exact + 1), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("a verdict needs at least 2"), std::string::npos) << r.out;
}

// The row of `metric` in a JSON comparison, or null.
json metric_row(const std::string& out, const std::string& metric) {
  const json report = json::parse(out);
  for (const auto& m : report["metrics"])
    if (m["metric"] == metric) return m["rows"][0];
  return nullptr;
}

// --measure caches adds callgrind's simulated cache misses and estimated cycles: stored with
// each instance, compared by default beside the instructions, exact with one instance a side.
// A program touching twice the pages misses the last level about twice as often; the same
// program again is unchanged in every simulated count.
TEST(CliInstructions, CachesAddSimulatedMissesWithExactVerdicts) {
  TempDir dir;
  const std::string db = dir.file("c.db");
  const std::string hog = testing::helper("memory_hog");
  for (const auto& [side, mib] :
       {std::pair{"side=a", "16"}, std::pair{"side=b", "32"}, std::pair{"side=c", "16"}}) {
    const auto r = run_cli({"run", "--measure", "caches", "--instances", "1", "--label", side,
                            "--db", db, "-q", "--", hog, mib, "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto r = run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  const json report = json::parse(r.out);
  for (const auto& m : report["metrics"]) names.push_back(m["metric"]);
  ASSERT_GE(names.size(), 4u) << r.out;
  EXPECT_EQ(
      std::vector<std::string>(names.begin(), names.begin() + 4),
      (std::vector<std::string>{"instructions", "l1_misses", "ll_misses", "estimated_cycles"}))
      << r.out;
  const json ll = metric_row(r.out, "ll_misses");
  ASSERT_FALSE(ll.is_null()) << r.out;
  EXPECT_EQ(ll["verdict"], "slower") << r.out;
  // 4,096 more pages touched, each a line the caches never held (1.6x here; 1.3x when the
  // helper is built with the sanitizers, whose own accesses miss too).
  EXPECT_GE(ll["mean_b"].get<double>() - ll["mean_a"].get<double>(), 4000) << r.out;
  EXPECT_GT(ll["ratio"].get<double>(), 1.2) << r.out;
  EXPECT_EQ(ll["ci"][0], ll["ci"][1]) << r.out;
  r = run_cli({"compare", "side=a", "side=c", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* metric : {"instructions", "l1_misses", "ll_misses", "estimated_cycles"}) {
    const json row = metric_row(r.out, metric);
    ASSERT_FALSE(row.is_null()) << metric << r.out;
    EXPECT_EQ(row["verdict"], "unchanged") << metric << r.out;
    EXPECT_NEAR(row["ratio"].get<double>(), 1.0, 1e-4) << metric << r.out;
  }
  // The counts are the instance's, in the export and in a history of the channel.
  r = run_cli({"export", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json in = json::parse(r.out)["runs"][0]["variants"][0]["instances"][0];
  ASSERT_TRUE(in.contains("counts")) << in.dump();
  EXPECT_GT(in["counts"]["ll_misses"].get<int64_t>(), 8000) << in.dump();
  EXPECT_GE(in["counts"]["estimated_cycles"].get<int64_t>(), in["instructions"].get<int64_t>());
  r = run_cli({"history", "--db", db, "--metric", "ll_misses", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ll_misses"), std::string::npos) << r.out;
  // summary's headline for such a run is its simulated counts, not the simulator's time.
  r = run_cli({"summary", "side=b", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* metric : {"instructions", "l1_misses", "ll_misses", "estimated_cycles"})
    EXPECT_NE(r.out.find(metric), std::string::npos) << metric << r.out;
  EXPECT_EQ(r.out.find("wall_time"), std::string::npos) << r.out;
  // So is show's: the instructions, in a column that says so.
  r = run_cli({"show", "side=b", "--db", db, "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(",metric,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(",instructions,"), std::string::npos) << r.out;
  // db check verifies the counts' checksums.
  r = run_cli({"db", "check", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// Iterations timed by the caller (Client::begin_count, end_count, report) and batches of calls
// (Client::measure_batch, as benchguard.hpp's in-process benchmarks run them) report the same
// per-iteration count as Client::measure for the same work: a batch its share per call.
TEST(CliInstructions, CallerTimedIterationsAndBatchesCountTheirWorkToo) {
  TempDir dir;
  const std::string db = dir.file("i.db");
  const std::string work = testing::helper("counted_work");
  std::map<std::string, std::vector<double>> counts;
  for (const char* mode : {"measure", "report", "batch"}) {
    const std::string label = std::string("mode=") + mode;
    auto r = run_cli({"run", "--measure", "instructions", "--instances", "1", "--iterations", "3",
                      "--label", label, "--db", db, "-q", "--", work, "1000", "200000", mode});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli({"export", label, "--db", db, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json in = json::parse(r.out)["runs"][0]["variants"][0]["instances"][0];
    ASSERT_EQ(in["iterations"].size(), 3u) << in.dump();
    for (const auto& it : in["iterations"]) {
      ASSERT_TRUE(it["metrics"].contains("instructions")) << mode << it.dump();
      counts[mode].push_back(it["metrics"]["instructions"].get<double>());
    }
  }
  const double reference = counts["measure"][0];
  EXPECT_GT(reference, 200000) << "a turn takes more than one instruction";
  for (const auto& [mode, values] : counts)
    for (const double v : values) EXPECT_NEAR(v, reference, 1e-3 * reference) << mode;
}

// Without Valgrind the run stops before it starts and says what to install; nothing stored.
TEST(CliInstructions, WithoutValgrindTheRunSaysWhatToInstall) {
  TempDir dir;
  const std::string db = dir.file("i.db");
  const auto r = testing::run_program({cli_path(), "run", "--measure", "instructions", "--db", db,
                                       "--", testing::helper("loop"), "10"},
                                      {"PATH=" + dir.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("measure: instructions needs Valgrind, which is not installed here "
                       "(apt-get install valgrind)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
}

// With the C++ client each measured iteration reports its own count (callgrind's dumps around
// it, include/benchguard/instruction_count.hpp): the same for every iteration of every
// instance, blind to the set-up before the iterations (ten times as much changes nothing),
// below the whole process's count, and 1% more work is 1% more instructions.
TEST(CliInstructions, EachIterationOfTheClientCountsOnlyItself) {
  TempDir dir;
  const std::string db = dir.file("i.db");
  const std::string work = testing::helper("counted_work");
  for (const auto& [side, setup, turns] :
       {std::tuple{"side=a", "100000", "200000"}, std::tuple{"side=b", "1000000", "200000"},
        std::tuple{"side=c", "100000", "202000"}}) {
    const auto r = run_cli({"run", "--measure", "instructions", "--instances", "2", "--iterations",
                            "4", "--label", side, "--db", db, "-q", "--", work, setup, turns});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // The stored iterations of side a and b: one count, the same everywhere.
  std::vector<double> counts;
  std::vector<double> whole;
  for (const char* side : {"side=a", "side=b"}) {
    const auto r = run_cli({"export", side, "--db", db, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json run = json::parse(r.out)["runs"][0];
    for (const auto& v : run["variants"])
      for (const auto& in : v["instances"]) {
        whole.push_back(in["instructions"].get<double>());
        ASSERT_EQ(in["iterations"].size(), 4u) << in.dump();
        for (const auto& it : in["iterations"]) {
          ASSERT_TRUE(it["metrics"].contains("instructions")) << it.dump();
          counts.push_back(it["metrics"]["instructions"].get<double>());
        }
      }
  }
  ASSERT_EQ(counts.size(), 16u);
  for (double c : counts) EXPECT_EQ(c, counts.front());
  // About 200,000 turns of a few instructions each: not the set-up's 100,000 or 1,000,000.
  EXPECT_GT(counts.front(), 200000.0);
  EXPECT_LT(counts.front(), 200000.0 * 20);
  for (double w : whole) EXPECT_GT(w, 4 * counts.front());
  // compare: side b (ten times the set-up) unchanged, side c (1% more turns) slower, exactly.
  auto r = run_cli({"compare", "side=a", "side=b", "--metric", "instructions", "--db", db,
                    "--threshold", "0.25%", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json row = instructions_row(r.out);
  ASSERT_FALSE(row.is_null()) << r.out;
  EXPECT_EQ(row["verdict"], "unchanged") << r.out;
  EXPECT_EQ(row["ratio"].get<double>(), 1.0) << r.out;
  r = run_cli({"compare", "side=a", "side=c", "--metric", "instructions", "--db", db, "--threshold",
               "0.25%", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  row = instructions_row(r.out);
  ASSERT_FALSE(row.is_null()) << r.out;
  EXPECT_EQ(row["verdict"], "slower") << r.out;
  EXPECT_NEAR(row["ratio"].get<double>(), 1.01, 0.0005) << r.out;
}

}  // namespace
}  // namespace benchguard
