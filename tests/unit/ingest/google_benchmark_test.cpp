// Google Benchmark JSON: repetitions become instances, aggregates are left out. The files
// are Google Benchmark 1.7.1's own output (tests/data/ingest/README.md).
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

TEST(IngestGoogleBenchmark, RepetitionsBecomeInstancesAndAggregatesAreLeftOut) {
  auto r = import_file(data_file("gbench-repetitions.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // 2 benchmarks x 4 repetitions; the 8 _mean/_median/_stddev/_cv rows are not instances.
  expect_counts(*r, "google-benchmark", 2, 8, 8);
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(find_variant(r->data, "BM_Memcpy/4096_mean"), nullptr);
  EXPECT_EQ(find_variant(r->data, "BM_Accumulate_cv"), nullptr);

  const auto* memcpy = find_variant(r->data, "BM_Memcpy/4096");
  ASSERT_NE(memcpy, nullptr);
  ASSERT_EQ(memcpy->instances.size(), 4u);
  const auto& it = memcpy->instances[0].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(it, "wall_time"), 95.94074044767969e-9);
  EXPECT_DOUBLE_EQ(metric(it, "cpu_time"), 93.75650562523907e-9);
  EXPECT_DOUBLE_EQ(metric(it, "bytes_per_second"), 43687635035.93466);
  EXPECT_DOUBLE_EQ(metric(memcpy->instances[3].iterations.at(0), "wall_time"),
                   2675.2606998245283e-9);
  EXPECT_EQ(memcpy->instances[3].index, 3);
  EXPECT_NE(memcpy->variant.config_json.find("\"repetitions\":4"), std::string::npos);
  EXPECT_NE(memcpy->variant.config_json.find("\"iterations\":151638"), std::string::npos);

  const auto* acc = find_variant(r->data, "BM_Accumulate");
  ASSERT_NE(acc, nullptr);
  ASSERT_EQ(acc->instances.size(), 4u);
  EXPECT_EQ(acc->instances[0].order, 4);  // after the four of BM_Memcpy
  const auto& third = acc->instances[2].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(third, "wall_time"), 0.19332075786728034e-6);  // time_unit us
  EXPECT_DOUBLE_EQ(metric(third, "items_per_second"), 5212400649.624977);

  // Both rates are higher-is-better metrics of their own.
  ASSERT_EQ(r->metrics.size(), 2u);
  for (const auto& m : r->metrics) EXPECT_EQ(m.direction, Direction::kHigherIsBetter) << m.name;

  const RunRecord& run = r->data.run;
  EXPECT_EQ(run.status, "imported");
  EXPECT_EQ(run.suite, "google-benchmark");
  EXPECT_EQ(run.hostname, "vm");
  EXPECT_EQ(run.started_at, 1795500362LL * 1000000000);  // 2026-11-24T06:06:02+00:00
  EXPECT_EQ(artifact(r->data, "num_cpus"), "2");
  EXPECT_EQ(artifact(r->data, "mhz_per_cpu"), "2445");
  EXPECT_EQ(artifact(r->data, "library_build_type"), "debug");
  EXPECT_EQ(artifact(r->data, "executable"), "./gbench_sample");
  EXPECT_EQ(artifact(r->data, "import_format"), "google-benchmark");
}

TEST(IngestGoogleBenchmark, BigOAndRmsRowsWithoutTimesAreSkipped) {
  auto r = import_file(data_file("gbench-complexity.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "google-benchmark", 4, 4, 4);  // the four sizes
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(find_variant(r->data, "BM_Sort_BigO"), nullptr);
  EXPECT_EQ(find_variant(r->data, "BM_Sort_RMS"), nullptr);
  EXPECT_EQ(find_variant(r->data, "BM_Sort"), nullptr);  // the run_name of the two fits
  const auto* size = find_variant(r->data, "BM_Sort/1024");
  ASSERT_NE(size, nullptr);
  EXPECT_DOUBLE_EQ(metric(size->instances.at(0).iterations.at(0), "wall_time"),
                   13904.630435196395e-9);
  EXPECT_DOUBLE_EQ(metric(size->instances.at(0).iterations.at(0), "cpu_time"),
                   13325.898550724574e-9);
  EXPECT_EQ(r->data.run.started_at, 1795500363LL * 1000000000);  // 2026-11-24T06:06:03+00:00
}

TEST(IngestGoogleBenchmark, OutputWithoutRepetitions) {
  auto r = import_file(data_file("gbench-plain.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "google-benchmark", 4, 4, 4);

  const auto* memcpy = find_variant(r->data, "BM_Memcpy/4096");
  ASSERT_NE(memcpy, nullptr);
  const auto& m = memcpy->instances.at(0).iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(m, "wall_time"), 2268.36366570222e-9);
  EXPECT_DOUBLE_EQ(metric(m, "bytes_per_second"), 1816981294.1237094);
  EXPECT_NE(memcpy->variant.config_json.find("\"repetitions\":1"), std::string::npos);

  const auto* acc = find_variant(r->data, "BM_Accumulate");
  ASSERT_NE(acc, nullptr);
  const auto& a = acc->instances.at(0).iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(a, "wall_time"), 0.22070303341894304e-6);
  EXPECT_DOUBLE_EQ(metric(a, "cpu_time"), 0.2196042673521851e-6);
  EXPECT_DOUBLE_EQ(metric(a, "items_per_second"), 4553645573.7277355);
  EXPECT_FALSE(a.metric("elements").has_value());  // a user counter: not imported
  EXPECT_NE(acc->variant.config_json.find("\"iterations\":58350"), std::string::npos);
  EXPECT_NE(acc->variant.config_json.find("\"time_unit\":\"us\""), std::string::npos);

  const auto* build = find_variant(r->data, "BM_StringBuild");
  ASSERT_NE(build, nullptr);
  EXPECT_DOUBLE_EQ(metric(build->instances.at(0).iterations.at(0), "wall_time"),
                   0.5225673043484044e-3);  // time_unit ms

  // SkipWithError: a failed instance, its times (zeros) kept as written.
  const auto* error = find_variant(r->data, "BM_Unavailable");
  ASSERT_NE(error, nullptr);
  const auto& inst = error->instances.at(0);
  EXPECT_FALSE(inst.ok());
  EXPECT_EQ(inst.failure, "benchmark error: device not found");
  EXPECT_EQ(inst.iterations.at(0).failure, inst.failure);
  EXPECT_TRUE(memcpy->instances[0].ok());
}

TEST(IngestGoogleBenchmark, AggregatesOnlyGiveSummaryRecords) {
  // --benchmark_report_aggregates_only: mean, median, stddev and cv of 3 repetitions. The cv
  // row (a ratio) is left out; times become seconds.
  auto r = import_file(data_file("gbench-aggregates-only.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 1);
  EXPECT_EQ(r->instances(), 0);
  const VariantData* v = find_variant(r->data, "BM_StringBuild");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->summaries.size(), 2u);
  const SummaryRecord& wall = v->summaries[0];
  EXPECT_EQ(wall.metric, "wall_time");
  EXPECT_EQ(wall.count, 3);
  EXPECT_DOUBLE_EQ(wall.mean, 7.3401742857128272e-01 * 1e-3);
  EXPECT_DOUBLE_EQ(wall.median.value(), 6.8726309523624096e-01 * 1e-3);
  EXPECT_DOUBLE_EQ(wall.stddev.value(), 9.2443892485126120e-02 * 1e-3);
  EXPECT_FALSE(wall.min.has_value());
  const SummaryRecord& cpu = v->summaries[1];
  EXPECT_EQ(cpu.metric, "cpu_time");
  EXPECT_DOUBLE_EQ(cpu.mean, 6.5650355555555551e-01 * 1e-3);
  EXPECT_DOUBLE_EQ(cpu.stddev.value(), 3.5045722135398105e-03 * 1e-3);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "1 benchmark(s) have aggregate rows only (--benchmark_report_aggregates_only): "
            "stored as summary records (history shows them; compare and summary cannot)");
}

TEST(IngestGoogleBenchmark, AggregatesBesideRepetitionsAddNoSummary) {
  // With the repetitions in the file, the aggregates are statistics of what is imported.
  auto r = import_file(data_file("gbench-repetitions.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->summaries(), 0);
  EXPECT_GT(r->instances(), 0);
}

TEST(IngestGoogleBenchmark, RowsWithoutRunTypeAreRepetitionsAndAggregatesAreNot) {
  // Older versions write no run_type; compare.py's test inputs mix such rows with
  // aggregates. A context date without an offset is read as UTC.
  const std::string text = R"({"context": {"date": "2019-11-29 21:26:59", "host_name": "old"},
    "benchmarks": [
    {"name": "BM_One", "run_type": "aggregate", "aggregate_name": "mean", "iterations": 1000,
     "real_time": 10, "cpu_time": 100, "time_unit": "ns"},
    {"name": "BM_Two", "iterations": 1000, "real_time": 9, "cpu_time": 90, "time_unit": "ns"},
    {"name": "BM_Two", "iterations": 1000, "real_time": 8, "cpu_time": 86, "time_unit": "ns"},
    {"name": "medium", "run_type": "iteration", "iterations": 1000, "real_time": 5,
     "cpu_time": 5, "time_unit": "ns"},
    {"name": "medium", "run_type": "iteration", "iterations": 1000, "real_time": 6,
     "cpu_time": 6, "time_unit": "ns"}]})";
  auto r = import_text("old.json", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 2);  // BM_One is an aggregate only
  EXPECT_EQ(find_variant(r->data, "BM_One"), nullptr);
  const auto* two = find_variant(r->data, "BM_Two");
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(two->instances.size(), 2u);
  EXPECT_DOUBLE_EQ(metric(two->instances[1].iterations.at(0), "cpu_time"), 86e-9);
  ASSERT_NE(find_variant(r->data, "medium"), nullptr);
  EXPECT_EQ(find_variant(r->data, "medium")->instances.size(), 2u);
  EXPECT_EQ(r->data.run.hostname, "old");
  EXPECT_EQ(r->data.run.started_at, 1575062819LL * 1000000000);
}

TEST(IngestGoogleBenchmark, FileWithoutAnyTimesIsAnError) {
  // Rows with indices but no times, like compare.py's sorting input.
  auto r = import_text("sorting.json", R"({"context": {}, "benchmarks": [
    {"name": "a", "family_index": 0, "per_family_instance_index": 0, "repetition_index": 0},
    {"name": "a", "family_index": 0, "per_family_instance_index": 0, "repetition_index": 1},
    {"name": "b", "family_index": 1, "per_family_instance_index": 0, "repetition_index": 0}]})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "sorting.json: nothing to import as google-benchmark: 3 benchmark row(s) without "
            "real_time left out");
}

TEST(IngestGoogleBenchmark, SkippedRowsAreLeftOut) {
  // Since 1.8, SkipWithMessage writes "skipped": true and "skip_message" (and zero times);
  // SkipWithError still writes error_occurred. A skipped row measured nothing.
  const std::string text = R"({"context": {}, "benchmarks": [
    {"name": "BM_Gpu", "run_name": "BM_Gpu", "run_type": "iteration", "repetitions": 1,
     "repetition_index": 0, "threads": 1, "skipped": true, "skip_message": "no GPU here",
     "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"},
    {"name": "BM_Cpu", "run_name": "BM_Cpu", "run_type": "iteration", "repetitions": 1,
     "repetition_index": 0, "threads": 1, "iterations": 100, "real_time": 12.5,
     "cpu_time": 12.0, "time_unit": "ns"}]})";
  auto r = import_text("skip.json", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "google-benchmark", 1, 1, 1);
  EXPECT_EQ(find_variant(r->data, "BM_Gpu"), nullptr);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "1 benchmark row(s) skipped by the benchmark left out (e.g. \"no GPU "
            "here\")");

  auto only = import_text("skip.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_Gpu", "run_type": "iteration", "skipped": true, "skip_message": "no GPU",
     "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}]})");
  ASSERT_FALSE(only.ok());
  EXPECT_EQ(only.error().message,
            "skip.json: nothing to import as google-benchmark: 1 benchmark row(s) skipped by the "
            "benchmark left out (e.g. \"no GPU\")");

  auto bad = import_text("skip.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_Gpu", "run_type": "iteration", "skipped": "yes", "real_time": 0}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "skip.json: benchmarks[0].skipped: expected true or false, got the string \"yes\"");
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
