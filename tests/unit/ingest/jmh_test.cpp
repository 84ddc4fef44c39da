// JMH: forks are instances, measurement iterations are iterations, and the score keeps
// its meaning (throughput is higher-is-better; time per operation is wall_time).
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::find_variant;
using testing::fixture;
using testing::metric;

TEST(IngestJmh, ThroughputEntriesWithParams) {
  auto r = import_file(fixture("jmh/bencher-jmh-six.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "jmh");
  EXPECT_EQ(r->benchmarks(), 6);
  EXPECT_EQ(r->instances(), 6);  // one fork each
  EXPECT_EQ(r->iterations(), 18);
  const auto* v = find_variant(
      r->data,
      "com.github.guava.caffeine.cache.ComputeBenchmark.compute_sameKey/computeType=Guava");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->variant.params, (KeyValues{{"computeType", "Guava"}}));
  ASSERT_EQ(v->instances.at(0).iterations.size(), 3u);
  const auto& it = v->instances[0].iterations[0];
  EXPECT_DOUBLE_EQ(metric(it, "throughput"), 30013960.585613117);  // ops/s as it is
  EXPECT_FALSE(it.metric("wall_time").has_value());
  EXPECT_EQ(it.index, 0);
  EXPECT_NE(v->variant.config_json.find("\"threads\":32"), std::string::npos);
  EXPECT_NE(v->variant.config_json.find("\"mode\":\"thrpt\""), std::string::npos);
  EXPECT_EQ(artifact(r->data, "jmhVersion"), "1.36");
  EXPECT_EQ(artifact(r->data, "jvmArgs"), "[\"-Xmx2G\"]");
  // Throughput is a built-in metric: operations per second, higher is better.
  ASSERT_NE(find_builtin_metric("throughput"), nullptr);
  EXPECT_EQ(find_builtin_metric("throughput")->direction, Direction::kHigherIsBetter);
}

TEST(IngestJmh, HelloWorldSamples) {
  auto r = import_file(fixture("jmh/github-action-benchmark-jmh_output.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 1);
  const auto* v =
      find_variant(r->data, "org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->instances.size(), 1u);
  ASSERT_EQ(v->instances[0].iterations.size(), 3u);
  EXPECT_DOUBLE_EQ(metric(v->instances[0].iterations[2], "throughput"), 3.375353964729294E9);
  EXPECT_EQ(artifact(r->data, "vmName"), "Java HotSpot(TM) 64-Bit Server VM");

  auto p = import_file(fixture("jmh/github-action-benchmark-jmh_output_2.json"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NE(find_variant(p->data,
                         "org.openjdk.jmh.samples.JMHSample_01_HelloWorld."
                         "wellHelloThere/paramA=17/paramB=33"),
            nullptr);
}

TEST(IngestJmh, ModeAndUnitThatDisagreeAreReadByTheUnit) {
  // "latency.json" says thrpt but its unit is s/op.
  auto r = import_file(fixture("jmh/bencher-jmh-latency.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0], "[0]: mode thrpt with scoreUnit s/op; read by the unit as wall_time");
  const auto& v = r->data.variants.at(0);
  EXPECT_DOUBLE_EQ(metric(v.instances.at(0).iterations.at(0), "wall_time"), 3.376842765688582E9);
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
