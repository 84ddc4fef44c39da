// `benchguard calibrate` and `run --null` end to end: A/A runs stored and labelled, the
// calibration file, and `compare --calibration` raising thresholds from it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::helper;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string suite_text() {
  return "name: aa\ninstances: 3\nbenchmarks:\n  - name: spin\n    command: [" + helper("spin") +
         ", \"3\"]\n    variants:\n      old: {}\n      new: {command: [" + helper("spin") +
         ", \"4\"]}\n";
}

TEST(CliCalibrate, RunsRepeatedAAAndWritesWhatCompareReads) {
  TempDir dir;
  write_file(dir.file("suite.yml"), suite_text());
  const std::string db = dir.file("c.db");
  const auto r = run_cli({"calibrate", dir.file("suite.yml"), "--db", db, "--repetitions", "3",
                          "--seed", "5", "-o", dir.file("cal.json"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(benchguard::testing::schema_problem(r.out), "");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["repetitions"], 3);
  EXPECT_EQ(j["variant"], "old");
  EXPECT_EQ(j["suite"], "aa");
  EXPECT_EQ(j["runs"].size(), 3U);
  ASSERT_FALSE(j["entries"].empty());
  const auto& e = j["entries"][0];
  EXPECT_EQ(e["benchmark"], "spin");
  EXPECT_EQ(e["metric"], "wall_time");
  EXPECT_EQ(e["comparisons"], 3);
  EXPECT_EQ(e["instances"], 3);
  EXPECT_FALSE(e["reached"].get<bool>());  // 3 repetitions cannot bound at 5%
  EXPECT_NEAR(e["bound"].get<double>(), 0.25, 1e-12);
  // The file is the document without the output's schema name and version (it has its own:
  // "calibration": 1).
  auto file_view = j;
  file_view.erase("schema");
  file_view.erase("version");
  EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("cal.json"))), file_view);
  EXPECT_NE(r.err.find("stored 3 A/A run(s) labelled calibration="), std::string::npos) << r.err;

  // Three runs, each with the old variant twice, labelled with the calibration and repetition.
  const auto runs = run_cli({"runs", "--db", db, "--format", "json"});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  const auto listed = nlohmann::json::parse(runs.out)["runs"];
  ASSERT_EQ(listed.size(), 3U);
  EXPECT_EQ(listed[0]["labels"]["repetition"], "3");  // newest first
  EXPECT_EQ(listed[2]["labels"]["repetition"], "1");
  EXPECT_EQ(listed[0]["labels"]["calibration"], listed[2]["labels"]["calibration"]);
  const auto shown = run_cli({"show", "latest", "--db", db, "--format", "json"});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("old.again"), std::string::npos);
  EXPECT_EQ(shown.out.find("\"new\""), std::string::npos);

  // compare of the latest (A/A) run with the calibration: the row's threshold is the larger of
  // 1% and the calibrated one, and says so.
  const auto c = run_cli({"compare", "--db", db, "--calibration", dir.file("cal.json"), "--format",
                          "json", "--metric", "wall_time"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  const auto& row = cj["metrics"][0]["rows"][0];
  EXPECT_TRUE(row["calibrated"].get<bool>());
  EXPECT_GE(row["threshold"].get<double>(), 0.01);
  EXPECT_GE(row["threshold"].get<double>(), e["threshold"].get<double>());

  const auto table = run_cli(
      {"compare", "--db", db, "--calibration", dir.file("cal.json"), "--metric", "wall_time"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("from calibration (A/A: "), std::string::npos) << table.out;

  // The file records the settings the rule was calibrated under; compare says when its own
  // differ, and is silent when they are the same.
  EXPECT_EQ(j["burn_in"], "auto");
  EXPECT_EQ(j["resamples"], 10000);
  EXPECT_EQ(j["seed"], "1");
  EXPECT_EQ(j["threshold"], 0.01);
  const auto warned = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "compare",  "--db", db,         "--calibration", dir.file("cal.json"),
        "--format", "json", "--metric", "wall_time"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto out = run_cli(args);
    EXPECT_EQ(out.exit_code, 0) << out.err;
    return out.out + out.err;
  };
  EXPECT_EQ(warned({}).find("calibrated under other settings"), std::string::npos);
  const std::string other =
      warned({"--threshold", "2%", "--burn-in", "configured", "--bootstrap-seed", "7"});
  EXPECT_NE(other.find("calibrated under other settings"), std::string::npos) << other;
  EXPECT_NE(other.find("--threshold 2% (calibrated: 1%)"), std::string::npos) << other;
  EXPECT_NE(other.find("--burn-in configured (calibrated: auto)"), std::string::npos) << other;
  EXPECT_NE(other.find("--bootstrap-seed 7 (calibrated: 1)"), std::string::npos) << other;
}

TEST(CliCalibrate, TableNamesTheRateAndWhatMoreRepetitionsWouldGive) {
  TempDir dir;
  write_file(dir.file("suite.yml"), suite_text());
  const auto r = run_cli({"calibrate", dir.file("suite.yml"), "--db", dir.file("c.db"),
                          "--repetitions", "2", "--instances", "2", "--variant", "new"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 A/A repetitions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("variant new against itself"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("repetitions with any false alarm:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run at least 19 repetitions"), std::string::npos) << r.out;
}

TEST(CliCalibrate, APlanSetsTheCountsAndItsSimulatedRateIsShownBesideTheMeasuredOne) {
  TempDir dir;
  write_file(dir.file("suite.yml"), suite_text());
  write_file(dir.file("plan.yml"),
             "benchmarks:\n  spin: {burn_in: 0, instances: 2, iterations: 1, fpr: 0.04}\n");
  const auto r =
      run_cli({"calibrate", dir.file("suite.yml"), "--db", dir.file("c.db"), "--repetitions", "2",
               "--plan", dir.file("plan.yml"), "--metric", "wall_time"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("plan's simulated rate"), std::string::npos) << r.out;
  // The row: 2 instances a side (from the plan, not the suite's 3), 4% simulated.
  bool row = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("spin ")) {
      row = true;
      EXPECT_NE(line.find(" 2 "), std::string::npos) << line;
      EXPECT_TRUE(line.ends_with("4%")) << line;
    }
  EXPECT_TRUE(row) << r.out;
}

TEST(CliCalibrate, BadInputFailsWithOneLine) {
  TempDir dir;
  write_file(dir.file("suite.yml"), suite_text());
  const auto variant =
      run_cli({"calibrate", dir.file("suite.yml"), "--db", dir.file("c.db"), "--variant", "nope"});
  EXPECT_EQ(variant.exit_code, 2);
  EXPECT_NE(variant.err.find("has no variant 'nope' (it has: old, new)"), std::string::npos)
      << variant.err;
  EXPECT_EQ(testing::count_lines(variant.err), 1);

  const auto none = run_cli({"calibrate", "--db", dir.file("c.db")});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("nothing to calibrate"), std::string::npos) << none.err;

  write_file(dir.file("bad.json"), "{\"calibration\": 1, \"entries\": 3}");
  ASSERT_EQ(run_cli({"run", dir.file("suite.yml"), "--db", dir.file("c.db"), "--instances", "2"})
                .exit_code,
            0);
  const auto bad =
      run_cli({"compare", "--db", dir.file("c.db"), "--calibration", dir.file("bad.json")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.json: entries must be a list"), std::string::npos) << bad.err;
}

TEST(CliRunNull, StoresTheVariantTwiceAndLabelsTheRun) {
  TempDir dir;
  write_file(dir.file("suite.yml"), suite_text());
  const auto r = run_cli({"run", dir.file("suite.yml"), "--db", dir.file("c.db"), "--null",
                          "--null-variant", "new", "--instances", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto shown = run_cli({"show", "latest", "--db", dir.file("c.db"), "--format", "json"});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("new.again"), std::string::npos);
  const auto runs = run_cli({"runs", "--db", dir.file("c.db"), "--format", "json"});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_EQ(nlohmann::json::parse(runs.out)["runs"][0]["labels"]["null"], "new");
  // compare with no references takes the latest run's two variants: A/A.
  const auto c = run_cli({"compare", "--db", dir.file("c.db"), "--metric", "wall_time"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("spin"), std::string::npos);
}

}  // namespace
}  // namespace benchguard
