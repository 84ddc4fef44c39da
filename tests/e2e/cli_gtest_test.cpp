// GoogleTest tests as benchmarks (include/benchguard/gtest.hpp), through a real GoogleTest
// program (tests/gtest/gtest_sample.cpp): nothing recorded without BENCHGUARD_DB or a flag,
// one run through `benchguard import` with them, protocol lines under `benchguard run`.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "benchguard/iteration_counters.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::run_cli;
using testing::run_program;
using testing::TempDir;

const std::vector<std::string> kClean = {"BENCHGUARD_DB", "BENCHGUARD_RESULTS",
                                         "BENCHGUARD_ITERATIONS", "BENCHGUARD_BIN",
                                         "BG_SAMPLE_FAIL"};

std::vector<std::string> environment(std::vector<std::string> set) {
  std::vector<std::string> env = kClean;
  env.insert(env.end(), set.begin(), set.end());
  return env;
}

std::string sample() {
  return testing::helper("gtest_sample");
}

// Every run of the database, as `export --format json --all` writes them.
json export_runs(const std::string& db) {
  const CliResult r = run_cli({"export", "--all", "--format", "json", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out)["runs"] : json::array();
}

// benchmark -> its instances, of one run.
std::map<std::string, std::vector<json>> instances_of(const json& run) {
  std::map<std::string, std::vector<json>> out;
  for (const auto& v : run["variants"])
    for (const auto& in : v["instances"]) out[v["benchmark"]].push_back(in);
  return out;
}

TEST(CliGTest, WithoutBenchguardTheFixturesRecordNothing) {
  TempDir dir;
  const CliResult r = run_program({sample()}, environment({}), dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("[  PASSED  ] 8 tests"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // no database, no file
}

TEST(CliGTest, BenchguardDbRecordsEveryBenchmarkTestAsOneRun) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const CliResult r =
      run_program({sample()},
                  environment({"BENCHGUARD_DB=" + db, std::string("BENCHGUARD_BIN=") + BG_BINARY,
                               "BENCHGUARD_ITERATIONS=3"}),
                  dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json runs = export_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["suite"], "gtest");
  EXPECT_EQ(runs[0]["status"], "imported");
  EXPECT_EQ(runs[0]["artifacts"]["gtest_outcomes"], "failed=0 passed=8 skipped=0");
  const auto got = instances_of(runs[0]);
  std::vector<std::string> names;
  for (const auto& [name, _] : got) names.push_back(name);
  // The plain TEST records nothing; a value-parameterized test is named by its value.
  EXPECT_EQ(names, (std::vector<std::string>{"Alloc.Big", "Sizes/Sized.Sleep/param=1",
                                             "Sizes/Sized.Sleep/param=3", "Sorted.Measure",
                                             "Spin.Fails", "Spin.Long", "Spin.Short"}));
  for (const auto& [name, instances] : got) {
    ASSERT_EQ(instances.size(), 1u) << name;
    EXPECT_EQ(instances[0]["failure"], "") << name;
  }
  // A body without measure() is one iteration; measure() runs BENCHGUARD_ITERATIONS.
  EXPECT_EQ(got.at("Spin.Short")[0]["iterations"].size(), 1u);
  ASSERT_EQ(got.at("Sorted.Measure")[0]["iterations"].size(), 3u);
  // Times are the body's: at least what it slept.
  const auto wall = [&](const std::string& name) {
    return got.at(name)[0]["iterations"][0]["metrics"]["wall_time"].get<double>();
  };
  EXPECT_GE(wall("Spin.Short"), 0.002);
  EXPECT_GE(wall("Spin.Long"), 0.020);
  EXPECT_GE(wall("Sizes/Sized.Sleep/param=3"), 0.003);
  EXPECT_GT(wall("Sorted.Measure"), 0.0);
  // The memory fixture saw the 64 MiB the body touched.
  const json mem = got.at("Alloc.Big")[0]["iterations"][0]["metrics"];
  ASSERT_TRUE(mem.contains("rss_peak_bytes")) << mem.dump();
  EXPECT_GE(mem["rss_peak_bytes"].get<double>(), 64.0 * (1 << 20));
  EXPECT_GT(mem["rss_avg_bytes"].get<double>(), 0.0);
  EXPECT_LE(mem["rss_avg_bytes"].get<double>(), mem["rss_peak_bytes"].get<double>());
  EXPECT_FALSE(got.at("Spin.Short")[0]["iterations"][0]["metrics"].contains("rss_peak_bytes"));
  // No temporary file is left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_TRUE(e.path().filename().string().starts_with("bg.db")) << e.path();
}

TEST(CliGTest, FlagsOfInitAndAFailingTest) {
  TempDir dir;
  const std::string db = dir.file("flags.db");
  const CliResult r =
      run_program({sample(), "--gtest_filter=Spin.*:Sorted.*", "--benchguard=" + db,
                   "--benchguard-iterations=2", "--benchguard-label=ci=nightly"},
                  environment({std::string("BENCHGUARD_BIN=") + BG_BINARY, "BG_SAMPLE_FAIL=1"}));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // Spin.Fails failed
  const json runs = export_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["labels"]["ci"], "nightly");
  EXPECT_EQ(runs[0]["artifacts"]["gtest_filter"], "Spin.*:Sorted.*");
  const auto got = instances_of(runs[0]);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got.at("Sorted.Measure")[0]["iterations"].size(), 2u);
  const std::string failure = got.at("Spin.Fails")[0]["failure"];
  EXPECT_NE(failure.find("asked to fail"), std::string::npos) << failure;
  EXPECT_NE(failure.find("gtest_sample.cpp:"), std::string::npos) << failure;
  EXPECT_EQ(got.at("Spin.Short")[0]["failure"], "");

  const CliResult bad = run_program({sample(), "--benchguard-iterations=zero"}, environment({}));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--benchguard-iterations needs a whole number"), std::string::npos)
      << bad.err;
}

TEST(CliGTest, AFailedImportFailsTheProgramAndKeepsTheFile) {
  TempDir dir;
  const CliResult r =
      run_program({sample(), "--gtest_filter=Spin.Short"},
                  environment({"BENCHGUARD_DB=" + dir.file("x.db"), "BENCHGUARD_BIN=/bin/false",
                               "TMPDIR=" + dir.path().string()}));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(
      r.out.find("the measurements are kept in " + dir.path().string() + "/benchguard-gtest-"),
      std::string::npos)
      << r.out;
  int kept = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    kept += e.path().extension() == ".csv";
  EXPECT_EQ(kept, 1);
}

TEST(CliGTest, UnderBenchguardRunEachInstanceIsOneTestsIterations) {
  TempDir dir;
  const std::string db = dir.file("run.db");
  const CliResult r =
      run_cli({"-q", "run", "--db", db, "--name", "sorted", "--instances", "2", "--iterations", "3",
               "--burn-in", "1", "--", sample(), "--gtest_filter=Sorted.Measure"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = export_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  const auto got = instances_of(runs[0]);
  ASSERT_EQ(got.count("sorted"), 1u);
  ASSERT_EQ(got.at("sorted").size(), 2u);
  for (const auto& in : got.at("sorted")) {
    ASSERT_EQ(in["iterations"].size(), 4u) << in.dump();
    EXPECT_TRUE(in["iterations"][0]["burn_in"].get<bool>());
    EXPECT_FALSE(in["iterations"][3]["burn_in"].get<bool>());
    // The sort's own time, not the process's.
    EXPECT_LT(in["iterations"][3]["metrics"]["wall_time"].get<double>(),
              (in["end_ns"].get<double>() - in["start_ns"].get<double>()) * 1e-9);
  }

  // Two benchmark tests in one instance: the second fails, and says how to select one.
  const CliResult two = run_cli({"-q", "run", "--db", db, "--name", "two", "--instances", "1",
                                 "--iterations", "1", "--", sample(), "--gtest_filter=Spin.*"});
  EXPECT_NE(two.exit_code, 0);
  const json after = export_runs(db);
  ASSERT_EQ(after.size(), 2u);
  bool said = false;
  for (const auto& run : after)
    for (const auto& [name, instances] : instances_of(run))
      for (const auto& in : instances)
        said = said || in["failure"].get<std::string>().find("exit") != std::string::npos;
  EXPECT_TRUE(said) << after.dump();
}

// Each of the fixture's iterations counts the perf events benchguard names
// (iteration_counters.hpp): hardware ones where they work; here software events named in the
// environment stand in (this VM has no PMU).
TEST(CliGTest, EachIterationCountsTheEventsBenchguardNames) {
  if (PerfCounterSource("task_clock").names().empty())
    GTEST_SKIP() << "perf_event_open is refused here";
  TempDir dir;
  const std::string db = dir.file("run.db");
  const CliResult r =
      run_program({BG_BINARY, "-q", "run", "--db", db, "--name", "sorted", "--instances", "1",
                   "--iterations", "3", "--", sample(), "--gtest_filter=Sorted.Measure"},
                  environment({"BENCHGUARD_COUNTERS=task_clock,page_faults"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = export_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  const json in = instances_of(runs[0]).at("sorted").at(0);
  ASSERT_EQ(in["iterations"].size(), 3u) << in.dump();
  for (const auto& it : in["iterations"]) {
    ASSERT_TRUE(it["metrics"].contains("task_clock")) << it.dump();
    EXPECT_TRUE(it["metrics"].contains("page_faults")) << it.dump();
    // A sort of 100,000 values: more than 100 microseconds of the thread's time.
    EXPECT_GT(it["metrics"]["task_clock"].get<double>(), 1e5) << it.dump();
  }
}

// Under `--measure instructions` the fixture's measure() reports each sort's own count
// (callgrind's dumps around it): about the same for every iteration, the copy and sort of 100,000
// values only, well below what the whole process executed. (Real Valgrind.)
TEST(CliGTest, UnderMeasureInstructionsEachIterationCountsItsOwn) {
  TempDir dir;
  const std::string db = dir.file("run.db");
  const CliResult r =
      run_cli({"-q", "run", "--db", db, "--name", "sorted", "--instances", "1", "--iterations", "3",
               "--measure", "instructions", "--", sample(), "--gtest_filter=Sorted.Measure"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = export_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  const json in = instances_of(runs[0]).at("sorted").at(0);
  ASSERT_EQ(in["iterations"].size(), 3u) << in.dump();
  std::vector<double> counts;
  for (const auto& it : in["iterations"]) {
    ASSERT_TRUE(it["metrics"].contains("instructions")) << it.dump();
    counts.push_back(it["metrics"]["instructions"].get<double>());
  }
  // Within 0.01% (the allocator takes a few more or fewer steps for each copy).
  EXPECT_NEAR(counts[1], counts[0], 1e-4 * counts[0]);
  EXPECT_NEAR(counts[2], counts[0], 1e-4 * counts[0]);
  EXPECT_GT(counts[0], 1e6);  // a sort of 100,000 values
  EXPECT_GT(in["instructions"].get<double>(), 3 * counts[0]);
}

}  // namespace
}  // namespace benchguard
