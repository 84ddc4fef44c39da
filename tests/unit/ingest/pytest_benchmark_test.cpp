// pytest-benchmark: stats.data samples are the iterations of one instance; values that are
// not numbers are left out with one warning per file.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::data_file;
using testing::expect_counts;
using testing::find_variant;
using testing::metric;

TEST(IngestPytestBenchmark, RoundsAreIterationsFromMicrosecondsToATenthOfASecond) {
  auto r = import_file(data_file("pytest-benchmark.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "pytest-benchmark", 5, 5, 22);  // 6 + 4 + 4 + 5 + 3 rounds
  EXPECT_TRUE(r->warnings.empty());

  // 100 calls per round: each sample is already one call's time.
  const auto* sum = find_variant(r->data, "test_pytest_sample.py::test_sum_small");
  ASSERT_NE(sum, nullptr);
  ASSERT_EQ(sum->instances.size(), 1u);
  ASSERT_EQ(sum->instances[0].iterations.size(), 6u);
  EXPECT_DOUBLE_EQ(metric(sum->instances[0].iterations[0], "wall_time"), 8.759299998928327e-07);
  EXPECT_EQ(sum->instances[0].iterations[5].index, 5);
  EXPECT_NE(sum->variant.config_json.find("\"iterations\":100"), std::string::npos);
  EXPECT_NE(sum->variant.config_json.find("\"rounds\":6"), std::string::npos);
  EXPECT_TRUE(sum->variant.params.empty());  // "params": null

  const auto* big = find_variant(r->data, "test_pytest_sample.py::test_sorted[10000]");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->variant.params, (KeyValues{{"n", "10000"}}));
  ASSERT_EQ(big->instances.at(0).iterations.size(), 4u);
  EXPECT_DOUBLE_EQ(metric(big->instances[0].iterations[3], "wall_time"), 0.00010084539999866138);
  EXPECT_EQ(find_variant(r->data, "test_pytest_sample.py::test_sorted[10]")->variant.params,
            (KeyValues{{"n", "10"}}));

  const auto* ms = find_variant(r->data, "test_pytest_sample.py::test_sleep_ms");
  ASSERT_NE(ms, nullptr);
  EXPECT_DOUBLE_EQ(metric(ms->instances.at(0).iterations.at(1), "wall_time"), 0.002111904000003051);
  EXPECT_NE(ms->variant.config_json.find("\"group\":\"sleep\""), std::string::npos);
  const auto* tenth = find_variant(r->data, "test_pytest_sample.py::test_sleep_tenth");
  ASSERT_NE(tenth, nullptr);
  ASSERT_EQ(tenth->instances.at(0).iterations.size(), 3u);  // --benchmark-min-rounds=3
  EXPECT_DOUBLE_EQ(metric(tenth->instances[0].iterations[2], "wall_time"), 0.1001446020000003);

  const RunRecord& run = r->data.run;
  EXPECT_EQ(run.git_commit, "6c85bb0eac68faca8792c3396f924f4807807db1");
  EXPECT_EQ(run.git_branch, "perf");
  EXPECT_TRUE(run.git_dirty);
  EXPECT_EQ(run.hostname, "vm");
  EXPECT_EQ(run.started_at, 1795500367458726000);  // 2026-11-24T06:06:07.458726, UTC
  EXPECT_EQ(artifact(r->data, "machine_info.cpu.brand"), "AMD EPYC");
  EXPECT_EQ(artifact(r->data, "machine_info.python_implementation"), "CPython");
  EXPECT_EQ(artifact(r->data, "commit_info.project"), "pytest-sample");
  EXPECT_EQ(artifact(r->data, "pytest_benchmark_version"), "3.2.2");
}

TEST(IngestPytestBenchmark, ShortenedSampleArraysWarnOnce) {
  // github-action-benchmark shortens its example files' arrays by hand, ending them in a
  // string; such values are left out with one warning per file.
  auto r = import_text("short.json", R"({"machine_info": {"node": "n"}, "benchmarks": [
    {"name": "test_a", "fullname": "bench.py::test_a",
     "stats": {"rounds": 9, "data": [0.25, 0.5, "... omitted to keep this file small"]}},
    {"name": "test_b", "fullname": "bench.py::test_b",
     "stats": {"rounds": 9, "data": [1.5, "... omitted to keep this file small"]}},
    {"name": "test_c", "fullname": "bench.py::test_c", "stats": {"rounds": 2, "data": [2, 3]}}]})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "pytest-benchmark", 3, 3, 5);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "2 sample value(s) that are not numbers left out (e.g. \"... omitted to keep this "
            "file small\")");
  EXPECT_DOUBLE_EQ(
      metric(find_variant(r->data, "bench.py::test_b")->instances.at(0).iterations.at(0),
             "wall_time"),
      1.5);
}

TEST(IngestPytestBenchmark, SavedWithoutDataGivesSummaryRecords) {
  // --benchmark-save without --benchmark-save-data keeps summary statistics only: each
  // benchmark becomes a variant with no instance and one summary record of wall_time.
  auto r = import_file(data_file("pytest-benchmark-stats-only.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 2);
  EXPECT_EQ(r->instances(), 0);
  EXPECT_EQ(r->summaries(), 2);
  const VariantData* sum = find_variant(r->data, "test_pytest_sample.py::test_sum_small");
  ASSERT_NE(sum, nullptr);
  EXPECT_TRUE(sum->instances.empty());
  ASSERT_EQ(sum->summaries.size(), 1u);
  const SummaryRecord& s = sum->summaries[0];
  EXPECT_EQ(s.metric, "wall_time");
  EXPECT_EQ(s.count, 6);  // rounds
  EXPECT_DOUBLE_EQ(s.mean, 7.871533333059233e-07);
  EXPECT_DOUBLE_EQ(s.stddev.value(), 1.0311637255227819e-08);
  EXPECT_DOUBLE_EQ(s.median.value(), 7.83510000132992e-07);
  EXPECT_DOUBLE_EQ(s.min.value(), 7.8145999964363e-07);
  EXPECT_DOUBLE_EQ(s.max.value(), 8.080199995674775e-07);
  const VariantData* sleep = find_variant(r->data, "test_pytest_sample.py::test_sleep_ms");
  ASSERT_NE(sleep, nullptr);
  EXPECT_EQ(sleep->summaries.at(0).count, 5);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "2 benchmark(s) have no stats.data samples, only summary statistics: stored as "
            "summary records (history shows them; compare and summary cannot)");
}

TEST(IngestPytestBenchmark, SummaryStatisticsThatCannotBeAreErrors) {
  const auto with_stats = [](const std::string& stats) {
    return import_text(
        "p.json", R"({"machine_info": {}, "benchmarks": [{"name": "t", "stats": )" + stats + "}]}");
  };
  EXPECT_TRUE(with_stats(R"({"mean": 1.0, "rounds": 3})").ok());
  for (const char* bad : {R"({"rounds": 3})", R"({"mean": -1.0})", R"({"mean": 1.0, "stddev": -2})",
                          R"({"mean": 1.0, "min": 2, "max": 1})", R"({"mean": 1.0, "rounds": 2.5})",
                          R"({"mean": 1.0, "rounds": -1})", R"({"mean": "fast"})"}) {
    auto r = with_stats(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ExitCode::kInput) << bad;
    EXPECT_TRUE(r.error().message.starts_with("p.json")) << r.error().message;
  }
}

TEST(IngestPytestBenchmark, BenchmarksWithoutSamplesBesideOthersAreWarnedAbout) {
  auto r = import_text("p.json", R"({"machine_info": {}, "benchmarks": [
    {"name": "t_a", "fullname": "t.py::t_a", "params": {"n": 3}, "stats": {"data": [0.5, 0.25]}},
    {"name": "t_b", "stats": {"mean": 1.0}}]})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 2);
  EXPECT_EQ(find_variant(r->data, "t.py::t_a")->variant.params, (KeyValues{{"n", "3"}}));
  EXPECT_EQ(find_variant(r->data, "t_b")->summaries.at(0).mean, 1.0);
  EXPECT_EQ(find_variant(r->data, "t_b")->summaries.at(0).count, 0);  // rounds not given
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "1 benchmark(s) have no stats.data samples, only summary statistics: stored as "
            "summary records (history shows them; compare and summary cannot)");
}

}  // namespace
}  // namespace benchguard::ingest
