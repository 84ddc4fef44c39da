// Summary records end to end: an Otava CSV history imported as one run per commit, shown by
// `history` as summary points, its step found by `detect` but never confirmed (so `gate`
// passes); stats-only pytest-benchmark and aggregates-only Google Benchmark files listed by
// `show` and exported.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::run_cli;
using testing::TempDir;

using ingest::testing::data_file;

TEST(CliSummaryPoints, OtavaHistoryIsSummaryPointsWithASuspectedChange) {
  TempDir dir;
  const std::string db = dir.file("o.db");
  CliResult r = run_cli({"import", data_file("otava-sample.csv"), "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("otava-csv, 1 benchmark(s), 0 instance(s), 0 iteration(s), 23 summary "
                       "record(s) -> 12 runs, 1 to 12"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("taken as lower-is-better"), std::string::npos) << r.err;

  // Twelve points, one per commit in time order, each a summary of unknown count.
  r = run_cli(
      {"history", "otava-sample", "--metric", "latency_ms", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json h = json::parse(r.out);
  ASSERT_EQ(h["series"].size(), 1u) << r.out;
  const auto& points = h["series"][0]["points"];
  ASSERT_EQ(points.size(), 11u);  // one row has no latency_ms
  EXPECT_EQ(points[0]["commit"], "c00abababab");
  EXPECT_EQ(points[10]["commit"], "c11abababab");
  for (const auto& p : points) {
    EXPECT_EQ(p["summary"], true);
    EXPECT_EQ(p["instances"], 0);
    EXPECT_TRUE(p["summarised"].is_null());  // Otava does not say how many
    EXPECT_TRUE(p["interval"][0].is_null());
  }
  EXPECT_DOUBLE_EQ(points[0]["centre"].get<double>(), 1.986);
  r = run_cli({"history", "otava-sample", "--metric", "latency_ms", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("s:?"), std::string::npos) << r.out;

  // detect: at c08 latency_ms rises 10% and throughput (built in, higher is better) falls
  // 10%: two regressions, both suspected: there are no instances to confirm them with.
  r = run_cli({"detect", "--db", db, "--metric", "latency_ms", "--metric", "throughput", "--format",
               "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json changes = json::parse(r.out)["changes"];
  ASSERT_EQ(changes.size(), 2u) << r.out;
  for (const auto& c : changes) {
    EXPECT_EQ(c["last_good"], "c07abababab") << c;
    EXPECT_EQ(c["first_bad"], "c08abababab") << c;
    EXPECT_EQ(c["status"], "suspected") << c;
    EXPECT_EQ(c["kind"], "regression") << c;
  }

  // gate fails on confirmed regressions only.
  r = run_cli({"gate", "--db", db, "--metric", "latency_ms"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(CliSummaryPoints, StatsOnlyFilesAreListedByShowAndExported) {
  TempDir dir;
  const std::string db = dir.file("s.db");
  CliResult r = run_cli({"import", data_file("pytest-benchmark-stats-only.json"),
                         data_file("gbench-aggregates-only.json"), "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  r = run_cli({"show", "1", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("summary records (statistics only, no measurements)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("test_pytest_sample.py::test_sleep_ms"), std::string::npos) << r.out;

  r = run_cli({"show", "2", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json shown = json::parse(r.out);
  ASSERT_EQ(shown["summaries"].size(), 2u) << r.out;
  EXPECT_EQ(shown["summaries"][0]["benchmark"], "BM_StringBuild");
  EXPECT_EQ(shown["summaries"][0]["metric"], "wall_time");
  EXPECT_EQ(shown["summaries"][0]["count"], 3);

  r = run_cli({"export", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json exported = json::parse(r.out);
  bool found = false;
  for (const auto& run : exported["runs"])
    for (const auto& v : run["variants"])
      if (v["benchmark"] == "test_pytest_sample.py::test_sum_small") {
        ASSERT_EQ(v["summaries"].size(), 1u);
        EXPECT_EQ(v["summaries"][0]["count"], 6);
        EXPECT_DOUBLE_EQ(v["summaries"][0]["mean"].get<double>(), 7.871533333059233e-07);
        found = true;
      }
  EXPECT_TRUE(found) << r.out;

  // The history of a stats-only benchmark: one summary point of 6 rounds.
  r = run_cli({"history", "test_pytest_sample.py::test_sum_small", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("s:6"), std::string::npos) << r.out;

  // summary has nothing instance-level to work with, and says where the statistics are;
  // compare refuses with a reason.
  r = run_cli({"summary", "1", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 benchmark variant(s) hold summary records only (statistics without "
                       "measurements, nothing to summarise): `benchguard show 1` lists them"),
            std::string::npos)
      << r.out;
  r = run_cli({"compare", "1", "2", "--db", db});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("nothing to compare"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
