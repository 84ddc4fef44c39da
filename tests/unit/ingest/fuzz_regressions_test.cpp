// Inputs the fuzz targets (fuzz/, docs/dev/fuzzing.md) found to overflow the importers' time
// arithmetic: each must give an error or no time, never a wrapped-around one.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "ingest/importer.hpp"
#include "ingest/ingest.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {
namespace {

TEST(IngestFuzzRegressions, TimestampsOutsideInt64NanosecondsAreNotTimes) {
  // Unix ns hold 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z.
  EXPECT_EQ(parse_timestamp("2262-04-11T23:47:16.854775807Z"), INT64_MAX);
  EXPECT_EQ(parse_timestamp("1677-09-21T00:12:44Z"), INT64_C(-9223372036000000000));
  EXPECT_FALSE(parse_timestamp("2262-04-11T23:47:16.854775808Z").has_value());
  EXPECT_FALSE(parse_timestamp("4048-12-31T00:00:00Z").has_value());
  EXPECT_FALSE(parse_timestamp("9999-12-31T23:59:59+00:00").has_value());
  EXPECT_FALSE(parse_timestamp("1015-01-01 00:00:00").has_value());
  EXPECT_FALSE(parse_timestamp("0000-01-01T00:00:00Z").has_value());
}

TEST(IngestFuzzRegressions, HailRecordStartingInTheYear4048IsAnError) {
  auto r = import_text(
      "h.jsonl",
      "{\"path\": \"p.py\", \"name\": \"b\", \"start\": "
      "\"4048-12-31T00:00:00+00:00\", \"iterations\": [{\"iteration\": 0, \"time\": 1.5}]}\n",
      "hail-jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("is not an ISO 8601 time"), std::string::npos)
      << r.error().message;
}

TEST(IngestFuzzRegressions, GoogleBenchmarkDateBeforeInt64NanosecondsIsLeftOut) {
  auto r = import_text("g.json",
                       R"({"context": {"date": "1014-01-01T00:00:00+00:00"},
                           "benchmarks": [{"name": "BM_x", "run_type": "iteration",
                             "iterations": 10, "real_time": 5, "cpu_time": 5,
                             "time_unit": "ns"}]})",
                       "google-benchmark", 42);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->data.run.started_at, 42);  // the fallback, as for a date it cannot read
}

TEST(IngestFuzzRegressions, HailTaskMemoryBeyondInt64IsAnError) {
  auto r = import_text("h.jsonl",
                       "{\"path\": \"p.py\", \"name\": \"b\", \"iterations\": [{\"iteration\": 0, "
                       "\"time\": 1.5, \"task_memory\": 2.5e135}]}\n",
                       "hail-jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("task_memory 2.5e+135 is out of range"), std::string::npos)
      << r.error().message;
}

TEST(IngestFuzzRegressions, RenaissanceRepetitionEndingPastInt64IsAnError) {
  auto r = import_text("r.json",
                       R"({"benchmarks": ["a"], "format_version": 5, "data": {"a": {"results": [
                           {"duration_ns": 9223372036854775807, "uptime_ns": 1}]}}})",
                       "renaissance");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("data.a.results[0]: uptime_ns + duration_ns is beyond"),
            std::string::npos)
      << r.error().message;
}

// A Google Benchmark file whose context holds `depth` nested arrays.
std::string gbench_with_context_depth(size_t depth) {
  return R"({"context": {"x": )" + std::string(depth, '[') + std::string(depth, ']') +
         R"(}, "benchmarks": [{"name": "BM_x", "run_type": "iteration", "iterations": 10,
             "real_time": 5, "cpu_time": 5, "time_unit": "ns"}]})";
}

TEST(IngestFuzzRegressions, JsonNestingDeeperThanTheLimitIsAnError) {
  // Writing the context back as text (nlohmann's dump) recursed once per level: in a gcc -O2
  // build 100,000 levels (100 kB of '[') overflowed an 8 MiB stack.
  for (const char* format : {"google-benchmark", "auto"}) {
    SCOPED_TRACE(format);
    auto r = import_text("g.json", gbench_with_context_depth(200000), format);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "g.json: malformed JSON: arrays and objects nest deeper than 256 levels");
  }
  auto ok = import_text("g.json", gbench_with_context_depth(kMaxJsonDepth - 2), "auto");
  EXPECT_TRUE(ok.ok()) << ok.error().message;  // two levels are the document and "context"
  EXPECT_FALSE(import_text("g.json", gbench_with_context_depth(kMaxJsonDepth - 1), "auto").ok());
}

TEST(IngestFuzzRegressions, HailLineNestingDeeperThanTheLimitIsAnError) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  auto r = import_text("h.jsonl",
                       "{\"path\": \"p.py\", \"name\": \"b\", \"iterations\": [{\"time\": 1.5}]}\n"
                       "{\"path\": \"p.py\", \"name\": \"b\", \"iterations\": [{\"time\": 1.5, "
                       "\"failure\": " +
                           deep + "}]}\n",
                       "hail-jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "h.jsonl:2: malformed JSON: arrays and objects nest deeper than 256 levels");
}

const char* const kDuetHeader =
    "benchmark,runid,pair,iteration,epoch_start_ms,iteration_time_ns,machine,provider,jdk,"
    "jdk_version\n";

TEST(IngestFuzzRegressions, DuetEpochStartPastTheYear2262IsAnError) {
  // 17145649050003 ms is in the year 2513: in ns, beyond int64.
  auto r = import_text("d.csv",
                       std::string(kDuetHeader) +
                           "s,0,A,0,1714564800000,856789012,,,j,1\n"
                           "s,0,B,0,17145649050003,856789012,,,j,1\n",
                       "duet-csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("d.csv:3: epoch_start_ms"), std::string::npos)
      << r.error().message;
}

TEST(IngestFuzzRegressions, DuetIterationTimesSummingPastInt64AreAnError) {
  auto r = import_text("d.csv",
                       std::string(kDuetHeader) +
                           "s,0,A,0,1714564800000,9e18,,,j,1\n"
                           "s,0,A,1,1714564800000,1e300,,,j,1\n",
                       "duet-csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("d.csv:2: epoch_start_ms"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace benchguard::ingest
