// Renaissance: one JVM per file, its repetitions the iterations of one instance.
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

TEST(IngestRenaissance, RepetitionsAreIterationsOfOneInstance) {
  auto r = import_file(data_file("renaissance-scrabble.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "renaissance", 1, 1, 6);
  EXPECT_TRUE(r->warnings.empty());
  const auto* v = find_variant(r->data, "scrabble");
  ASSERT_NE(v, nullptr);
  const auto& inst = v->instances.at(0);
  EXPECT_TRUE(inst.ok());
  const auto& first = inst.iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(first, "wall_time"), 0.812345678);
  // uptime_ns is when the repetition started, on the JVM's clock.
  EXPECT_EQ(first.start_ns, 1204567890);
  EXPECT_EQ(first.end_ns, 1204567890 + 812345678);
  EXPECT_EQ(inst.iterations[5].index, 5);
  EXPECT_DOUBLE_EQ(metric(inst.iterations[5], "wall_time"), 0.388888888);
  EXPECT_EQ(inst.iterations[5].start_ns, 3599123456);
  EXPECT_EQ(inst.start_ns, 1204567890);
  EXPECT_EQ(inst.end_ns, 3599123456 + 388888888);

  EXPECT_EQ(r->data.run.suite, "Renaissance Benchmark Suite");
  EXPECT_EQ(artifact(r->data, "suite.version"), "0.15.0");
  EXPECT_EQ(artifact(r->data, "suite.git.commit_hash"), "7b2a5a4e5f0c4c0a9d1c3e2f8b6a4d2c1e0f9a8b");
  EXPECT_EQ(artifact(r->data, "os.name"), "Linux");
  EXPECT_EQ(artifact(r->data, "os.available_processors"), "4");
  EXPECT_EQ(artifact(r->data, "vm.name"), "OpenJDK 64-Bit Server VM");
  EXPECT_EQ(artifact(r->data, "vm.args"), "[\"-Xms1g\",\"-Xmx1g\"]");
  EXPECT_EQ(artifact(r->data, "jre.version"), "17.0.12+7-Debian-2deb12u1");
  EXPECT_EQ(artifact(r->data, "format_version"), "5");
  // The run's own git fields are for the code measured, not the suite's.
  EXPECT_EQ(r->data.run.git_commit, "");
}

TEST(IngestRenaissance, SeveralBenchmarksInOneJvmAndAFailure) {
  auto r = import_file(data_file("renaissance-two.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "renaissance", 2, 2, 5);
  const auto* kmeans = find_variant(r->data, "fj-kmeans");
  const auto* db = find_variant(r->data, "db-shootout");
  ASSERT_NE(kmeans, nullptr);
  ASSERT_NE(db, nullptr);
  ASSERT_EQ(kmeans->instances.at(0).iterations.size(), 3u);
  EXPECT_TRUE(kmeans->instances[0].ok());
  const auto& last = kmeans->instances[0].iterations[2];
  EXPECT_DOUBLE_EQ(metric(last, "wall_time"), 1.598765432);
  EXPECT_EQ(last.start_ns, 4665432100);
  // "termination": "failure": the benchmark failed its validation; its times are kept.
  EXPECT_EQ(db->instances.at(0).failure, "termination: failure");
  ASSERT_EQ(db->instances[0].iterations.size(), 2u);
  EXPECT_DOUBLE_EQ(metric(db->instances[0].iterations[1], "wall_time"), 2.890123456);
}

TEST(IngestRenaissance, AbnormalTerminationFailsTheInstance) {
  auto r = import_text("r.json", R"({"format_version": 5, "benchmarks": ["als"],
    "data": {"als": {"results": [{"duration_ns": 1000, "uptime_ns": 5}],
    "termination": "validation failed"}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->data.variants.at(0).instances.at(0).failure, "termination: validation failed");
}

}  // namespace
}  // namespace benchguard::ingest
