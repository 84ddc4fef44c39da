// Renaissance: one JVM per file, its repetitions the iterations of one instance.
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

TEST(IngestRenaissance, RepetitionsAreIterationsOfOneInstance) {
  auto r = import_file(fixture("renaissance/chi-square.0.A.results.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "renaissance", 1, 1, 10);
  const auto* v = find_variant(r->data, "chi-square");
  ASSERT_NE(v, nullptr);
  const auto& inst = v->instances.at(0);
  EXPECT_TRUE(inst.ok());
  const auto& first = inst.iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(first, "wall_time"), 9.052543216);
  // uptime_ns is when the repetition started, on the JVM's clock.
  EXPECT_EQ(first.start_ns, 15465435372);
  EXPECT_EQ(first.end_ns, 15465435372 + 9052543216);
  EXPECT_EQ(inst.iterations[9].index, 9);
  EXPECT_DOUBLE_EQ(metric(inst.iterations[9], "wall_time"), 1.605419789);

  EXPECT_EQ(r->data.run.suite, "Renaissance Benchmark Suite");
  EXPECT_EQ(artifact(r->data, "suite.version"), "0.13.0");
  EXPECT_EQ(artifact(r->data, "suite.git.commit_hash"), "e3c0a0ad4d70494a7ed3051f5c118199bd56f0da");
  EXPECT_EQ(artifact(r->data, "os.name"), "Linux");
  EXPECT_EQ(artifact(r->data, "os.available_processors"), "8");
  EXPECT_EQ(artifact(r->data, "vm.name"), "Eclipse OpenJ9 VM");
  EXPECT_EQ(artifact(r->data, "jre.version"), "11.0.11+9");
  EXPECT_EQ(artifact(r->data, "format_version"), "5");
  // The run's own git fields are for the code measured, not the suite's.
  EXPECT_EQ(r->data.run.git_commit, "");
}

TEST(IngestRenaissance, OtherHalfOfTheDuetPair) {
  auto r = import_file(fixture("renaissance/chi-square.0.B.results.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->iterations(), 10);
  const auto& last = r->data.variants.at(0).instances.at(0).iterations.at(9);
  EXPECT_DOUBLE_EQ(metric(last, "wall_time"), 1.623300203);
  EXPECT_EQ(last.start_ns, 43977554301);
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
