// The asynchronous-duet unified CSV (both headers) and benchguard's own csv export.
#include <gtest/gtest.h>

#include <sstream>

#include "ingest/ingest.hpp"
#include "report/export.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::data_file;
using testing::expect_counts;
using testing::find_variant;
using testing::metric;

TEST(IngestDuetCsv, RowsGroupIntoInstancesOfVariantsAAndB) {
  auto r = import_file(data_file("duet-unified.csv"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "duet-csv", 1, 8, 24);  // 2 types x 2 runids x 2 pairs, 3 iterations each
  // A before B, although the file starts with B.
  ASSERT_EQ(r->data.variants.size(), 2u);
  EXPECT_EQ(r->data.variants[0].variant.name, "A");
  EXPECT_EQ(r->data.variants[1].variant.name, "B");
  const auto& a = r->data.variants[0].instances;
  const auto& b = r->data.variants[1].instances;
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);

  // Instances in schedule order: the two duet pairs ran first.
  EXPECT_EQ(a[0].schedule, "duet");
  EXPECT_EQ(a[0].schedule_tag, "AB");
  EXPECT_EQ(a[0].index, 0);
  EXPECT_EQ(a[1].schedule, "duet");
  EXPECT_EQ(a[1].schedule_tag, "BA");
  EXPECT_EQ(a[3].schedule, "sequential");
  EXPECT_EQ(a[3].schedule_tag, "BA");
  // Both members of a duet pair share their position; sequential ones have their own.
  EXPECT_EQ(a[0].order, 0);
  EXPECT_EQ(b[0].order, 0);
  EXPECT_EQ(a[1].order, 1);
  EXPECT_EQ(b[1].order, 1);
  EXPECT_EQ(a[2].order, 2);  // sequential, runid 0, order AB: A ran first
  EXPECT_EQ(b[2].order, 3);
  EXPECT_EQ(b[3].order, 4);  // runid 1, order BA: B ran first
  EXPECT_EQ(a[3].order, 5);

  const auto& first = a[0].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(first, "wall_time"), 0.856789012);
  EXPECT_EQ(first.start_ns, 1714564800000000000);
  EXPECT_EQ(first.end_ns, 1714564800856789012);
  EXPECT_EQ(a[0].iterations.at(2).start_ns, 1714564800000000000 + 856789012 + 421098765);
  EXPECT_EQ(a[0].started_at, 1714564800000000000);
  EXPECT_EQ(a[0].start_ns, first.start_ns);
  EXPECT_EQ(a[0].end_ns, 1714564800000000000 + 856789012 + 421098765 + 412345678);
  EXPECT_EQ(b[0].started_at, 1714564800006000000);
  EXPECT_EQ(a[3].iterations.at(0).index, 0);
  EXPECT_DOUBLE_EQ(metric(a[3].iterations.at(0), "wall_time"), 0.801234567);

  EXPECT_EQ(r->data.run.suite, "renaissance");
  EXPECT_EQ(r->data.run.hostname, "bench-host");
  EXPECT_EQ(r->data.run.started_at, 1714564800000000000);
  EXPECT_EQ(artifact(r->data, "lscpu"), "AMD EPYC 7B13");
  EXPECT_EQ(artifact(r->data, "meminfo"), "16349796 kB");
  EXPECT_EQ(artifact(r->data, "date"), "Wed May  1 12:00:00 PM UTC 2024");
}

TEST(IngestDuetCsv, FirstFormatInfersDuetFromOverlapAndDerivesTimes) {
  auto r = import_file(data_file("duet-unified-v0.csv"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "duet-csv", 1, 4, 12);
  const auto* a = find_variant(r->data, "scrabble", "A");
  const auto* b = find_variant(r->data, "scrabble", "B");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(a->instances.size(), 2u);
  ASSERT_EQ(b->instances.size(), 2u);
  // No `type` column: A and B of runid 0 overlap in time, so they ran as a duet.
  EXPECT_EQ(a->instances[0].schedule, "duet");
  EXPECT_EQ(b->instances[0].schedule, "duet");
  EXPECT_EQ(a->instances[0].order, 0);
  EXPECT_EQ(b->instances[0].order, 0);
  // In runid 1, B started after A had ended: not a duet, each has its own position.
  EXPECT_EQ(a->instances[1].schedule, "");
  EXPECT_EQ(b->instances[1].schedule, "");
  EXPECT_EQ(a->instances[1].order, 1);
  EXPECT_EQ(b->instances[1].order, 2);
  // Iterations back to back from epoch_start_ms, as the duet scripts compute them.
  const auto& its = a->instances[0].iterations;
  ASSERT_EQ(its.size(), 3u);
  EXPECT_DOUBLE_EQ(metric(its[0], "wall_time"), 0.856789012);
  EXPECT_EQ(its[0].start_ns, 1714564800000000000);
  EXPECT_EQ(its[1].start_ns, 1714564800000000000 + 856789012);
  EXPECT_EQ(its[1].end_ns, its[1].start_ns + 421098765);
  EXPECT_EQ(b->instances[1].iterations.at(0).start_ns, 1714564905000000000);
  EXPECT_EQ(artifact(r->data, "jdk"), "OpenJDK Runtime Environment");
  EXPECT_EQ(artifact(r->data, "jdk_version"), "17.0.12+7-Debian-2deb12u1");
  EXPECT_EQ(artifact(r->data, "machine"), "<missing>");  // empty in the file
}

TEST(IngestDuetCsv, CommasInFreeTextKeepTheFixedColumnsRight) {
  const std::string header =
      "suite,benchmark,runid,iteration,type,pair,order,epoch_start_ms,iteration_time_ns,date,"
      "hostname,lscpu,meminfo,uname,iteration_start_ns,iteration_end_ns\n";
  const std::string row =
      "dacapo,h2,0,0,duet,A,AB,1000,2000000,Mon, 1 Jan,box,Xeon(R), 2 sockets,16 GB,Linux box "
      "6.1, SMP,1000000000,1002000000\n";
  auto r = import_text("commas.csv", header + row);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& it = r->data.variants.at(0).instances.at(0).iterations.at(0);
  EXPECT_EQ(it.start_ns, 1000000000);
  EXPECT_EQ(it.end_ns, 1002000000);
  EXPECT_DOUBLE_EQ(metric(it, "wall_time"), 0.002);
  // Several free-text columns with commas cannot be told apart: kept whole.
  EXPECT_EQ(artifact(r->data, "date,hostname,lscpu,meminfo,uname"),
            "Mon, 1 Jan,box,Xeon(R), 2 sockets,16 GB,Linux box 6.1, SMP");
  EXPECT_EQ(r->data.run.hostname, "");

  // One free-text column: exact.
  auto one = import_text("one.csv",
                         "benchmark,runid,pair,iteration,jdk,iteration_time_ns\n"
                         "fop,0,B,0,OpenJDK, Temurin,5\n");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(artifact(one->data, "jdk"), "OpenJDK, Temurin");

  auto short_row = import_text("short.csv", header + "dacapo,h2,0,0,duet,A\n");
  ASSERT_FALSE(short_row.ok());
  EXPECT_EQ(short_row.error().message,
            "short.csv:2: 6 fields where the header has 16 columns (a cut-off line?)");
}

TEST(IngestDuetCsv, BadValuesNameTheLineAndColumn) {
  const std::string header = "benchmark,runid,pair,iteration,iteration_time_ns\n";
  auto r = import_text("bad.csv", header + "x,0,A,0,12\nx,0,A,one,13\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "bad.csv:3: iteration \"one\" is not a whole number");
  auto twice = import_text("twice.csv", header + "x,0,A,0,12\nx,0,A,0,13\n");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "twice.csv:3: iteration 0 appears twice in one instance");
  auto cut = import_text("cut.csv", header + "x,0,A,0,12\nx,0,A,1,1");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().message, "cut.csv:3: the last line has no end (truncated file?)");
}

RunData duet_run() {
  RunData run;
  run.run.uuid = "0f1e2d3c-aaaa-4bbb-8ccc-123456789abc";
  run.run.suite = "pair";
  run.run.started_at = 1700000000000000000;
  run.run.artifacts = {{"schedule", "duet"}, {"cpu_model", "Xeon, 8 cores"}};
  for (const char* name : {"A", "B"}) {
    VariantData v;
    v.variant.benchmark = "sort";
    v.variant.name = name;
    for (int i = 0; i < 2; ++i) {
      InstanceRecord inst;
      inst.index = i;
      inst.order = i;
      inst.schedule = "duet";
      inst.schedule_tag = i == 0 ? "AB" : "BA";
      for (int k = 0; k < 3; ++k) {
        IterationRecord it;
        it.index = k;
        it.start_ns = 5000 + 1000 * k;
        it.end_ns = it.start_ns + 900;
        it.burn_in = k == 0;
        it.metrics = {{"wall_time", 0.25 * (k + 1)}, {"cpu_time", 0.125}};
        inst.iterations.push_back(it);
      }
      v.instances.push_back(inst);
    }
    run.variants.push_back(v);
  }
  run.variants[1].instances[0].iterations[2].failure = "bad result, retry";
  return run;
}

TEST(IngestDuetCsv, BenchguardExportReadsBack) {
  std::ostringstream out;
  report::export_csv({duet_run()}, out);
  auto r = import_text("export.csv", out.str());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "duet-csv");
  EXPECT_EQ(r->data.run.suite, "pair");
  EXPECT_EQ(r->data.run.started_at, 1700000000000000000);
  EXPECT_EQ(artifact(r->data, "cpu_model"), "Xeon, 8 cores");
  ASSERT_EQ(r->data.variants.size(), 2u);
  const auto& b = r->data.variants[1];
  EXPECT_EQ(b.variant.name, "B");
  ASSERT_EQ(b.instances.size(), 2u);
  EXPECT_EQ(b.instances[1].schedule, "duet");
  EXPECT_EQ(b.instances[1].schedule_tag, "BA");
  EXPECT_EQ(b.instances[1].order, r->data.variants[0].instances[1].order);
  const auto& it = b.instances[0].iterations.at(2);
  EXPECT_EQ(it.failure, "bad result, retry");
  EXPECT_EQ(it.start_ns, 7000);
  EXPECT_EQ(it.end_ns, 7900);
  EXPECT_DOUBLE_EQ(metric(it, "wall_time"), 0.75);
  EXPECT_DOUBLE_EQ(metric(it, "cpu_time"), 0.125);
  EXPECT_TRUE(b.instances[0].iterations[0].burn_in);
}

// A pytest plugin session's units and directions travel in the run's artifact
// metric_declarations (the CSV layout has no column for them): the import declares them.
TEST(IngestDuetCsv, MetricDeclarationsInTheArtifactsAreDeclared) {
  RunData run = duet_run();
  run.run.artifacts.emplace_back(
      "metric_declarations",
      R"({"cpu_time": {"unit": "", "better": "higher"}, "tasks_per_s": {"unit": "1/s",
          "better": "higher"}, "spilled": {"unit": "B"}, "odd": 3})");
  std::ostringstream out;
  report::export_csv({run}, out);
  auto r = import_text("session.csv", out.str());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto declared = [&](const std::string& name) -> const MetricInfo* {
    for (const auto& m : r->metrics)
      if (m.name == name) return &m;
    return nullptr;
  };
  ASSERT_NE(declared("tasks_per_s"), nullptr);
  EXPECT_EQ(declared("tasks_per_s")->unit, "1/s");
  EXPECT_EQ(declared("tasks_per_s")->direction, Direction::kHigherIsBetter);
  ASSERT_NE(declared("spilled"), nullptr);
  EXPECT_EQ(declared("spilled")->unit, "B");
  EXPECT_EQ(declared("spilled")->direction, Direction::kLowerIsBetter);
  EXPECT_EQ(declared("cpu_time"), nullptr);  // built in: keeps its own
  EXPECT_EQ(declared("odd"), nullptr);       // not a declaration
}

}  // namespace
}  // namespace benchguard::ingest
