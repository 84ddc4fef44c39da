// Google Benchmark JSON: repetitions become instances, aggregates are left out.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::find_variant;
using testing::fixture;
using testing::metric;

TEST(IngestGoogleBenchmark, TwentyRepetitionsBecomeTwentyInstances) {
  auto r = import_file(fixture("google-benchmark/cxxgraph-base-20reps.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "google-benchmark");
  EXPECT_EQ(r->benchmarks(), 19);
  EXPECT_EQ(r->instances(), 380);  // the 57 _mean/_median/_stddev rows are not instances
  EXPECT_EQ(r->iterations(), 380);
  EXPECT_TRUE(r->warnings.empty());

  const auto* first = find_variant(r->data, "BM_EdgeCreation");
  ASSERT_NE(first, nullptr);
  ASSERT_EQ(first->instances.size(), 20u);
  const auto& it = first->instances[0].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(it, "wall_time"), 1.4683628116053118e+01 * 1e-9);
  EXPECT_DOUBLE_EQ(metric(it, "cpu_time"), 1.4640287492592083e+01 * 1e-9);
  const auto* last = find_variant(r->data, "NodeGetData");
  ASSERT_NE(last, nullptr);
  ASSERT_EQ(last->instances.size(), 20u);
  EXPECT_DOUBLE_EQ(metric(last->instances[19].iterations.at(0), "wall_time"), 2.424917101994747e-9);

  const RunRecord& run = r->data.run;
  EXPECT_EQ(run.status, "imported");
  EXPECT_EQ(run.suite, "google-benchmark");
  EXPECT_EQ(run.hostname, "codespaces_8b3805");
  EXPECT_EQ(run.started_at, 1648199021LL * 1000000000);  // 2022-03-25T09:03:41+00:00
  EXPECT_EQ(artifact(r->data, "num_cpus"), "4");
  EXPECT_EQ(artifact(r->data, "mhz_per_cpu"), "2594");
  EXPECT_EQ(artifact(r->data, "library_build_type"), "release");
  EXPECT_EQ(artifact(r->data, "import_format"), "google-benchmark");
}

TEST(IngestGoogleBenchmark, BigOAndRmsRowsWithoutTimesAreSkipped) {
  auto r = import_file(fixture("google-benchmark/cxxgraph-bellmanford-bigO.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 19);
  EXPECT_EQ(r->instances(), 19);
  EXPECT_EQ(find_variant(r->data, "BellmanFord_X_BigO"), nullptr);
  EXPECT_EQ(find_variant(r->data, "BellmanFord_X_RMS"), nullptr);
  const auto* one = find_variant(r->data, "BellmanFord_X/1");
  ASSERT_NE(one, nullptr);
  EXPECT_DOUBLE_EQ(metric(one->instances.at(0).iterations.at(0), "wall_time"),
                   179.97280596355037e-9);
  // 2026-01-11T18:11:08+01:00
  EXPECT_EQ(r->data.run.started_at, 1768151468LL * 1000000000);
  EXPECT_EQ(artifact(r->data, "library_version"), "v1.9.4-93-g27fc2bf4");
}

TEST(IngestGoogleBenchmark, OutputWithoutRepetitions) {
  auto r = import_file(fixture("google-benchmark/github-action-benchmark-googlecpp_output.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 2);
  EXPECT_EQ(r->instances(), 2);
  const auto* fib20 = find_variant(r->data, "fib_20");
  ASSERT_NE(fib20, nullptr);
  EXPECT_DOUBLE_EQ(metric(fib20->instances.at(0).iterations.at(0), "wall_time"),
                   2.7455600415007055e-05);
  EXPECT_EQ(r->data.run.hostname, "Corgi.local");
  // "2019-11-29 21:26:59" has no offset: read as UTC.
  EXPECT_EQ(r->data.run.started_at, 1575062819LL * 1000000000);
  EXPECT_NE(fib20->variant.config_json.find("\"iterations\":23968"), std::string::npos);
}

TEST(IngestGoogleBenchmark, RowsWithoutRunTypeAreRepetitionsAndAggregatesAreNot) {
  auto r0 = import_file(fixture("google-benchmark/gbench-Inputs-test3_run0.json"));
  ASSERT_TRUE(r0.ok()) << r0.error().message;
  EXPECT_EQ(r0->benchmarks(), 2);  // BM_One and short are aggregates only
  ASSERT_NE(find_variant(r0->data, "BM_Two"), nullptr);
  ASSERT_EQ(find_variant(r0->data, "BM_Two")->instances.size(), 2u);
  EXPECT_DOUBLE_EQ(
      metric(find_variant(r0->data, "BM_Two")->instances[1].iterations.at(0), "cpu_time"), 86e-9);
  EXPECT_EQ(find_variant(r0->data, "medium")->instances.size(), 2u);
  EXPECT_EQ(find_variant(r0->data, "BM_One"), nullptr);

  auto r1 = import_file(fixture("google-benchmark/gbench-Inputs-test3_run1.json"));
  ASSERT_TRUE(r1.ok()) << r1.error().message;
  EXPECT_EQ(r1->benchmarks(), 4);
  EXPECT_EQ(r1->instances(), 4);
  EXPECT_DOUBLE_EQ(
      metric(find_variant(r1->data, "BM_One")->instances.at(0).iterations.at(0), "wall_time"),
      9e-9);
}

TEST(IngestGoogleBenchmark, FileWithoutAnyTimesIsAnError) {
  // Hand-made input for compare.py's sorting: the rows carry indices but no times.
  auto r = import_file(fixture("google-benchmark/gbench-Inputs-test4_run.json"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("gbench-Inputs-test4_run.json: nothing to import"),
            std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("8 benchmark row(s) without real_time"), std::string::npos)
      << r.error().message;
}

TEST(IngestGoogleBenchmark, TimeUnitsAreConvertedToSeconds) {
  const std::string text = R"({"context": {}, "benchmarks": [
    {"name": "a", "run_type": "iteration", "real_time": 2, "cpu_time": 1, "time_unit": "us"},
    {"name": "b", "run_type": "iteration", "real_time": 3, "cpu_time": 3, "time_unit": "ms"},
    {"name": "c", "run_type": "iteration", "real_time": 1.5, "time_unit": "s",
     "items_per_second": 7.5},
    {"name": "d", "run_type": "iteration", "real_time": 1, "time_unit": "ns",
     "error_occurred": true, "error_message": "out of memory"}]})";
  auto r = import_text("inline.json", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_DOUBLE_EQ(metric(find_variant(r->data, "a")->instances[0].iterations[0], "wall_time"),
                   2e-6);
  EXPECT_DOUBLE_EQ(metric(find_variant(r->data, "b")->instances[0].iterations[0], "wall_time"),
                   3e-3);
  const auto& c = find_variant(r->data, "c")->instances[0].iterations[0];
  EXPECT_DOUBLE_EQ(metric(c, "wall_time"), 1.5);
  EXPECT_DOUBLE_EQ(metric(c, "items_per_second"), 7.5);
  ASSERT_EQ(r->metrics.size(), 1u);
  EXPECT_EQ(r->metrics[0].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(find_variant(r->data, "d")->instances[0].failure, "benchmark error: out of memory");

  auto bad = import_text("inline.json", R"({"context": {}, "benchmarks": [
    {"name": "a", "run_type": "iteration", "real_time": 2, "time_unit": "fortnights"}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "inline.json: benchmarks[0]: unknown time_unit \"fortnights\"");
}

}  // namespace
}  // namespace benchguard::ingest
