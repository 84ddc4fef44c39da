// JMH: forks are instances, measurement iterations are iterations, and the score keeps
// its meaning (throughput is higher-is-better; time per operation is wall_time).
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

TEST(IngestJmh, ThroughputEntriesWithParams) {
  auto r = import_file(data_file("jmh-throughput.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Two forks of each MapBench.get size, one of StringBench.concat; 3 iterations a fork.
  expect_counts(*r, "jmh", 3, 5, 15);
  EXPECT_TRUE(r->warnings.empty());
  const auto* small = find_variant(r->data, "org.example.MapBench.get/size=10");
  const auto* large = find_variant(r->data, "org.example.MapBench.get/size=1000");
  ASSERT_NE(small, nullptr);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->variant.params, (KeyValues{{"size", "1000"}}));
  ASSERT_EQ(large->instances.size(), 2u);
  ASSERT_EQ(large->instances[1].iterations.size(), 3u);
  // ops/ms x 1000 = operations per second.
  const auto& it = large->instances[1].iterations[0];
  EXPECT_DOUBLE_EQ(metric(it, "throughput"), 305.75 * 1000);
  EXPECT_FALSE(it.metric("wall_time").has_value());
  EXPECT_EQ(large->instances[1].iterations[2].index, 2);
  EXPECT_DOUBLE_EQ(metric(small->instances[0].iterations[1], "throughput"), 1210.25 * 1000);
  EXPECT_NE(small->variant.config_json.find("\"mode\":\"thrpt\""), std::string::npos);
  EXPECT_NE(small->variant.config_json.find("\"forks\":2"), std::string::npos);
  EXPECT_NE(small->variant.config_json.find("\"scoreUnit\":\"ops/ms\""), std::string::npos);

  // ops/s as it is, written the way Java writes doubles (8.625E7).
  const auto* concat = find_variant(r->data, "org.example.StringBench.concat");
  ASSERT_NE(concat, nullptr);
  EXPECT_TRUE(concat->variant.params.empty());
  EXPECT_DOUBLE_EQ(metric(concat->instances.at(0).iterations.at(1), "throughput"), 8.625e7);
  EXPECT_NE(concat->variant.config_json.find("\"threads\":4"), std::string::npos);

  EXPECT_EQ(artifact(r->data, "jmhVersion"), "1.37");
  EXPECT_EQ(artifact(r->data, "jvmArgs"), "[\"-Xmx1g\"]");
  EXPECT_EQ(artifact(r->data, "vmName"), "OpenJDK 64-Bit Server VM");
  EXPECT_EQ(artifact(r->data, "jdkVersion"), "17.0.12");
  // Throughput is a built-in metric: operations per second, higher is better.
  ASSERT_NE(find_builtin_metric("throughput"), nullptr);
  EXPECT_EQ(find_builtin_metric("throughput")->direction, Direction::kHigherIsBetter);
}

TEST(IngestJmh, OneBenchmarkInThreeModes) {
  // -bm avgt,sample,ss -tu us: the same method three times, the mode added to the names.
  auto r = import_file(data_file("jmh-modes.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "jmh", 3, 3, 7);
  EXPECT_TRUE(r->warnings.empty());
  const std::string base = "org.example.ParseBench.json";
  const auto* avgt = find_variant(r->data, base + "/mode=avgt");
  const auto* sample = find_variant(r->data, base + "/mode=sample");
  const auto* ss = find_variant(r->data, base + "/mode=ss");
  ASSERT_NE(avgt, nullptr);
  ASSERT_NE(sample, nullptr);
  ASSERT_NE(ss, nullptr);
  EXPECT_EQ(find_variant(r->data, base), nullptr);

  // us/op x 1e-6 = seconds per operation.
  ASSERT_EQ(avgt->instances.at(0).iterations.size(), 3u);
  EXPECT_DOUBLE_EQ(metric(avgt->instances[0].iterations[2], "wall_time"), 12.75e-6);
  EXPECT_FALSE(avgt->instances[0].iterations[2].metric("throughput").has_value());

  // sample mode has rawDataHistogram only: each iteration is its weighted mean.
  const auto& its = sample->instances.at(0).iterations;
  ASSERT_EQ(its.size(), 3u);
  EXPECT_DOUBLE_EQ(metric(its[0], "wall_time"), (11.5 * 3 + 12.0 * 5 + 40.0 * 1) / 9 * 1e-6);
  EXPECT_DOUBLE_EQ(metric(its[1], "wall_time"), (11.75 * 4 + 12.25 * 4) / 8 * 1e-6);
  EXPECT_DOUBLE_EQ(metric(its[2], "wall_time"), 12.0e-6);

  // Single shot: one iteration, scoreError written as the string "NaN" (not read).
  ASSERT_EQ(ss->instances.at(0).iterations.size(), 1u);
  EXPECT_DOUBLE_EQ(metric(ss->instances[0].iterations[0], "wall_time"), 1500e-6);
  EXPECT_NE(ss->variant.config_json.find("\"mode\":\"ss\""), std::string::npos);
}

TEST(IngestJmh, ModeAndUnitThatDisagreeAreReadByTheUnit) {
  // JMH derives the unit from the mode, but files edited by other tools may not agree
  // (bencher's latency example says thrpt with s/op).
  auto r = import_text("latency.json", R"([{"benchmark": "x.Y.z", "mode": "thrpt",
    "primaryMetric": {"score": 3.0, "scoreUnit": "s/op", "rawData": [[3.5, 2.5]]}}])");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0], "[0]: mode thrpt with scoreUnit s/op; read by the unit as wall_time");
  const auto& v = r->data.variants.at(0);
  EXPECT_DOUBLE_EQ(metric(v.instances.at(0).iterations.at(0), "wall_time"), 3.5);
}

TEST(IngestJmh, TimePerOperationModesBecomeSecondsPerOperation) {
  const std::string text = R"([
    {"benchmark": "a.B.avg", "mode": "avgt", "primaryMetric": {"scoreUnit": "us/op",
     "rawData": [[2.0, 4.0], [3.0, 5.0]]}},
    {"benchmark": "a.B.thr", "mode": "thrpt", "primaryMetric": {"scoreUnit": "ops/ms",
     "rawData": [[1.5]]}},
    {"benchmark": "a.B.avg", "mode": "sample", "primaryMetric": {"scoreUnit": "ns/op",
     "rawDataHistogram": [[[[100, 3], [200, 1]], [[50, 2]]]]}}])";
  auto r = import_text("modes.json", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // The same benchmark in two modes: the mode is added to the names.
  const auto* avg = find_variant(r->data, "a.B.avg/mode=avgt");
  ASSERT_NE(avg, nullptr);
  ASSERT_EQ(avg->instances.size(), 2u);  // two forks
  EXPECT_DOUBLE_EQ(metric(avg->instances[1].iterations[1], "wall_time"), 5e-6);
  EXPECT_DOUBLE_EQ(
      metric(find_variant(r->data, "a.B.thr")->instances[0].iterations[0], "throughput"), 1500.0);
  const auto* sample = find_variant(r->data, "a.B.avg/mode=sample");
  ASSERT_NE(sample, nullptr);
  ASSERT_EQ(sample->instances[0].iterations.size(), 2u);
  // (100 x 3 + 200 x 1) / 4 = 125 ns
  EXPECT_DOUBLE_EQ(metric(sample->instances[0].iterations[0], "wall_time"), 125e-9);

  auto bad = import_text("modes.json", R"([{"benchmark": "x", "mode": "avgt",
    "primaryMetric": {"scoreUnit": "furlongs", "rawData": [[1]]}}])");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "modes.json: [0]: scoreUnit \"furlongs\" is neither ops per time nor time per op");
}

}  // namespace
}  // namespace benchguard::ingest
