// Otava's CSV layout: one run per row, one summary record per metric value.
#include <gtest/gtest.h>

#include "core/result.hpp"
#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::data_file;
using testing::find_variant;

const SummaryRecord* summary_of(const RunData& run, const std::string& metric) {
  for (const auto& v : run.variants)
    for (const auto& s : v.summaries)
      if (s.metric == metric) return &s;
  return nullptr;
}

TEST(IngestOtavaCsv, RowsAreRunsOfSummaryRecords) {
  auto r = import_file(data_file("otava-sample.csv"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "otava-csv");
  ASSERT_EQ(r->history.size(), 12u);
  EXPECT_TRUE(r->data.variants.empty());
  EXPECT_EQ(r->runs().size(), 12u);
  EXPECT_EQ(r->benchmarks(), 1);
  EXPECT_EQ(r->instances(), 0);
  EXPECT_EQ(r->summaries(), 23);  // 12 throughput, 11 latency_ms (one cell is empty)

  const RunData& first = r->history.front();
  EXPECT_EQ(first.run.git_commit, "c00abababab");
  EXPECT_EQ(first.run.git_branch, "main");
  EXPECT_EQ(first.run.status, "imported");
  EXPECT_EQ(first.run.started_at, int64_t{1772330400} * 1'000'000'000);  // 03:00 +0100
  EXPECT_EQ(artifact(first, "otava.runner"), "ci-0");
  EXPECT_EQ(artifact(first, "import_format"), "otava-csv");
  // The benchmark is named after the file.
  const VariantData* v = find_variant(first, "otava-sample");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->instances.empty());
  const SummaryRecord* thr = summary_of(first, "throughput");
  ASSERT_NE(thr, nullptr);
  EXPECT_DOUBLE_EQ(thr->mean, 997.2);
  EXPECT_EQ(thr->count, 0);  // Otava does not say how many measurements
  EXPECT_FALSE(thr->stddev.has_value());
  EXPECT_DOUBLE_EQ(summary_of(first, "latency_ms")->mean, 1.986);

  const RunData& last = r->history.back();
  EXPECT_EQ(last.run.git_commit, "c11abababab");
  EXPECT_EQ(last.run.started_at, int64_t{1773320400} * 1'000'000'000);  // 14:00 +0100
  EXPECT_EQ(summary_of(r->history[5], "latency_ms"), nullptr);          // the empty cell
  EXPECT_NE(summary_of(r->history[5], "throughput"), nullptr);

  // throughput is built in (higher is better); latency_ms is not: it arrives without unit,
  // lower-is-better, with a warning.
  ASSERT_EQ(r->metrics.size(), 1u);
  EXPECT_EQ(r->metrics[0].name, "latency_ms");
  EXPECT_EQ(r->metrics[0].direction, Direction::kLowerIsBetter);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "metric(s) latency_ms taken as lower-is-better with no unit (Otava's CSV does not "
            "say)");
}

TEST(IngestOtavaCsv, OtavasOwnExampleLayoutIsDetected) {
  // The header and time format of Otava's examples/csv, numbers of our own.
  const std::string text =
      "time,commit,metric1,metric2\n"
      "2026.01.01 3:00:00 +0100,aaa0,154023,10.43\n"
      "2026.01.02 13:30:05 -0030,aaa1,138455,10.23\n";
  auto r = import_text("local_sample.csv", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "otava-csv");
  ASSERT_EQ(r->history.size(), 2u);
  EXPECT_EQ(r->history[0].run.started_at, int64_t{1767232800} * 1'000'000'000);
  EXPECT_EQ(r->history[1].run.started_at, int64_t{1767362405} * 1'000'000'000);
  EXPECT_NE(find_variant(r->history[0], "local_sample"), nullptr);
  EXPECT_DOUBLE_EQ(summary_of(r->history[1], "metric1")->mean, 138455);
}

TEST(IngestOtavaCsv, IsoAndUnixTimesAreRead) {
  auto r =
      import_text("s.csv", "time,commit,wall_time\n2026-01-01T00:00:00Z,a,0.5\n1767225601,b,0.25\n",
                  "otava-csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->history[0].run.started_at, int64_t{1767225600} * 1'000'000'000);
  EXPECT_EQ(r->history[1].run.started_at, int64_t{1767225601} * 1'000'000'000);
  EXPECT_TRUE(r->metrics.empty());  // wall_time is built in
  EXPECT_TRUE(r->warnings.empty());
}

TEST(IngestOtavaCsv, BadInputNamesFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"time,commit,m\n2026.01.01 3:00:00 +0100,a\n",
       "s.csv:2: 2 fields, the header has 3 columns"},
      {"time,commit,m\nyesterday,a,1\n",
       "s.csv:2: time \"yesterday\" is not a time (Otava's \"YYYY.MM.DD H:MM:SS +ZZZZ\", ISO 8601 "
       "or unix seconds)"},
      {"time,commit,label\n2026-01-01T00:00:00Z,a,x\n",
       "s.csv:1: no metric column: no column beside time, commit and branch holds numbers"},
      {"time,m,m\n2026-01-01T00:00:00Z,1,2\n", "s.csv:1: column \"m\" appears twice in the header"},
      {"time,commit,wall_time\n2026-01-01T00:00:00Z,a,-1\n",
       "s.csv: benchmark 's' variant 'default' summary of wall_time: mean: "},
      {"time,commit,m\n2026-01-01T00:00:00Z,a,\n", "s.csv:1: no metric column"},
      // A metric column with a typo stays a metric column, and the typo is an error.
      {"time,m\n2026-01-01T00:00:00Z,1\n2026-01-02T00:00:00Z,1x\n",
       "s.csv:3: \"1x\" in metric column \"m\" is not a number"},
      {"time,m\n2026-01-01T00:00:00Z,1\n2026-01-02T00:00:00Z,2",
       "s.csv:3: the file ends inside this row without its newline (cut off?)"},
  };
  for (const auto& c : cases) {
    auto r = import_text("s.csv", c.text, "otava-csv");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, ExitCode::kInput);
    EXPECT_TRUE(r.error().message.starts_with(c.message)) << r.error().message;
  }
}

TEST(IngestOtavaCsv, RowsWithoutValuesAreLeftOutWithAWarning) {
  auto r = import_text(
      "s.csv", "time,commit,m\n2026-01-01T00:00:00Z,a,1\n2026-01-02T00:00:00Z,b,\n", "otava-csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->history.size(), 1u);
  EXPECT_EQ(r->warnings.front(), "1 row(s) without any metric value left out");
}

}  // namespace
}  // namespace benchguard::ingest
