// Google Benchmark binaries: `run -- BINARY` recognises one and runs each of its benchmarks
// alone, each repetition an iteration; a suite declares one with `format: google-benchmark`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string sample() {
  std::string path = testing::helper("gbench_sample");
  EXPECT_TRUE(std::filesystem::exists(path))
      << path << " was not built: install Debian's libbenchmark-dev and configure again";
  return path;
}

// Per benchmark of the exported run: instances and the iterations of each.
std::map<std::string, std::vector<json>> instances_of(const std::string& db) {
  const CliResult r = run_cli({"export", "--format", "json", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::vector<json>> out;
  const json j = json::parse(r.out);
  for (const auto& run : j["runs"])
    for (const auto& v : run["variants"])
      for (const auto& in : v["instances"]) out[v["benchmark"]].push_back(in);
  return out;
}

TEST(CliGoogleBenchmark, RunOfABinaryStoresEachBenchmarkWithRepetitionsAsIterations) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const CliResult r =
      run_cli({"-q", "run", "--db", db, "--instances", "3", "--iterations", "2", "--", sample()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto got = instances_of(db);
  ASSERT_EQ(got.size(), 3u);
  // The names Google Benchmark lists (MinTime is part of them).
  for (const char* name :
       {"BM_Spin/1000/min_time:0.005", "BM_Spin/32000/min_time:0.005", "BM_Other/min_time:0.005"}) {
    ASSERT_TRUE(got.count(name)) << name;
    ASSERT_EQ(got.at(name).size(), 3u) << name;
    for (const auto& in : got.at(name)) {
      ASSERT_EQ(in["iterations"].size(), 2u) << in.dump();
      for (const auto& it : in["iterations"]) {
        const double t = it["metrics"]["wall_time"];
        EXPECT_GT(t, 0.0);
        EXPECT_LT(t, 0.01);  // a repetition's time per benchmark iteration, not the process's
        if (std::string(name).starts_with("BM_Spin")) {
          EXPECT_GT(it["metrics"]["items_per_second"].get<double>(), 0.0);
        }
      }
    }
  }
  // The bigger argument takes longer: the repetitions are each benchmark's own. The fastest
  // repetition of each is compared, 32 times the work against at least twice the time: this
  // VM's speed moves by more than 2x between repetitions, and a mean of six by more.
  const auto fastest = [&](const std::string& name) {
    double best = 1e9;
    for (const auto& in : got.at(name))
      for (const auto& it : in["iterations"])
        best = std::min(best, it["metrics"]["wall_time"].get<double>());
    return best;
  };
  EXPECT_GT(fastest("BM_Spin/32000/min_time:0.005"), 2.0 * fastest("BM_Spin/1000/min_time:0.005"));
  const CliResult cmp = run_cli({"--format", "json", "summary", "--db", db});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_EQ(json::parse(cmp.out)["summaries"].size(), 3u) << cmp.out;

  // Its rates are stored as higher-is-better: more items per second is faster.
  ASSERT_EQ(run_cli({"-q", "run", "--db", db, "--instances", "2", "--", sample()}).exit_code, 0);
  const CliResult rates = run_cli(
      {"--format", "json", "compare", "1", "2", "--metric", "items_per_second", "--db", db});
  ASSERT_EQ(rates.exit_code, 0) << rates.err;
  const json compared = json::parse(rates.out);
  ASSERT_EQ(compared["metrics"].size(), 1u) << rates.out;
  EXPECT_EQ(compared["metrics"][0]["direction"], "higher");
}

TEST(CliGoogleBenchmark, ASuiteDeclaresTheFormatAndEachBenchmarkRunsOne) {
  TempDir dir;
  const std::string db = dir.file("bg.db"), suite = dir.file("suite.yml");
  write_file(suite,
             "name: g\ninstances: 2\niterations: 3\nformat: google-benchmark\n"
             "benchmarks:\n"
             "  - name: other\n    command: [" +
                 sample() + ", --benchmark_filter=BM_Other]\n");
  CliResult r = run_cli({"-q", "run", suite, "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto got = instances_of(db);
  ASSERT_EQ(got.at("other").size(), 2u);
  EXPECT_EQ(got.at("other")[0]["iterations"].size(), 3u);

  // A filter that lets several through fails each instance, saying what to do.
  write_file(suite,
             "name: g\ninstances: 1\nformat: google-benchmark\nbenchmarks:\n"
             "  - name: all\n    command: [" +
                 sample() + "]\n");
  r = run_cli({"-q", "run", suite, "--db", db});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("narrow it with --benchmark_filter"), std::string::npos) << r.err;

  // An unknown format is an error naming the line.
  write_file(suite, "name: g\nformat: gbench\nbenchmarks:\n  - name: x\n    command: [true]\n");
  r = run_cli({"run", suite, "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("suite.yml:2"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
