// pytest-benchmark: stats.data samples are the iterations of one instance; values that are
// not numbers are left out with one warning per file.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::expect_counts;
using testing::find_variant;
using testing::fixture;
using testing::metric;

TEST(IngestPytestBenchmark, ShortenedSampleArraysWarnOnce) {
  auto r = import_file(fixture("pytest-benchmark/github-action-benchmark-pytest_output.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "pytest-benchmark", 2, 2, 8);  // four numbers each, then the placeholder string
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "2 sample value(s) that are not numbers left out (e.g. \"... omitted to keep this "
            "file small\")");
  const auto* v = find_variant(r->data, "bench.py::test_fib_10");
  ASSERT_NE(v, nullptr);
  EXPECT_DOUBLE_EQ(metric(v->instances.at(0).iterations.at(0), "wall_time"), 3.215300000025678e-05);
  const RunRecord& run = r->data.run;
  EXPECT_EQ(run.git_commit, "9d55ab0434c9088746ae2d134702d782bf088644");
  EXPECT_EQ(run.git_branch, "pytest");
  EXPECT_TRUE(run.git_dirty);
  EXPECT_EQ(run.hostname, "Corgi.local");
  EXPECT_EQ(run.started_at, 1573957336817862000);  // 2019-11-17T02:22:16.817862
  EXPECT_EQ(artifact(r->data, "machine_info.cpu.brand"), "Intel(R) Core(TM) i7-4771 CPU @ 3.50GHz");
  EXPECT_EQ(artifact(r->data, "commit_info.project"), "github-action-benchmark");
}

TEST(IngestPytestBenchmark, CompleteAndShortenedArraysSideBySide) {
  auto r =
      import_file(fixture("pytest-benchmark/github-action-benchmark-pytest_several_units.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 4);
  EXPECT_EQ(r->iterations(), 17);  // 4 + 4 + 4 + 5
  EXPECT_EQ(r->warnings.size(), 1u);
  const auto* sleep = find_variant(r->data, "bench.py::test_sleep_2");
  ASSERT_NE(sleep, nullptr);
  ASSERT_EQ(sleep->instances.at(0).iterations.size(), 5u);
  EXPECT_DOUBLE_EQ(metric(sleep->instances[0].iterations[4], "wall_time"), 2.001044877);
  EXPECT_DOUBLE_EQ(metric(find_variant(r->data, "bench.py::test_fib_1")->instances[0].iterations[0],
                          "wall_time"),
                   1.4538999999924586e-07);
  EXPECT_NE(sleep->variant.config_json.find("\"rounds\":5"), std::string::npos);
}

TEST(IngestPytestBenchmark, OldFormatWithoutSamplesIsAnError) {
  auto r = import_file(fixture("pytest-benchmark/pytest-benchmark-test_storage-0030.json"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("test_storage-0030.json: nothing to import as "
                                   "pytest-benchmark: 1 benchmark(s) have no stats.data samples"),
            std::string::npos)
      << r.error().message;
}

TEST(IngestPytestBenchmark, BenchmarksWithoutSamplesBesideOthersAreWarnedAbout) {
  auto r = import_text("p.json", R"({"machine_info": {}, "benchmarks": [
    {"name": "t_a", "fullname": "t.py::t_a", "params": {"n": 3}, "stats": {"data": [0.5, 0.25]}},
    {"name": "t_b", "stats": {"mean": 1.0}}]})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 1);
  EXPECT_EQ(find_variant(r->data, "t.py::t_a")->variant.params, (KeyValues{{"n", "3"}}));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "1 benchmark(s) have no stats.data samples, only summary statistics; left out");
}

}  // namespace
}  // namespace benchguard::ingest
