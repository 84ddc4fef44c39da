// hyperfine --export-json: each run of a command is one instance. The files are hyperfine
// 1.15's own output (tests/data/ingest/README.md).
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::data_file;
using testing::expect_counts;
using testing::find_variant;
using testing::metric;

TEST(IngestHyperfine, TwoCommands) {
  auto r = import_file(data_file("hyperfine-two.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "hyperfine", 2, 10, 10);
  const auto* fast = find_variant(r->data, "sleep 0.01");
  const auto* slow = find_variant(r->data, "sleep 0.02");
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(slow, nullptr);
  ASSERT_EQ(fast->instances.size(), 5u);
  ASSERT_EQ(slow->instances.size(), 5u);
  EXPECT_DOUBLE_EQ(metric(fast->instances[0].iterations.at(0), "wall_time"), 0.016648006120000003);
  EXPECT_DOUBLE_EQ(metric(fast->instances[2].iterations.at(0), "wall_time"), 0.010990300120000001);
  EXPECT_DOUBLE_EQ(metric(slow->instances[0].iterations.at(0), "wall_time"), 0.020947948120000004);
  EXPECT_DOUBLE_EQ(metric(slow->instances[4].iterations.at(0), "wall_time"), 0.027424482120000003);
  EXPECT_EQ(slow->instances[4].index, 4);
  EXPECT_EQ(slow->instances[0].order, 5);  // the second command ran after the first
  EXPECT_EQ(fast->instances[0].exit_code, 0);
  EXPECT_TRUE(fast->instances[0].ok());
  EXPECT_EQ(fast->variant.command, std::vector<std::string>{"sleep 0.01"});
  EXPECT_TRUE(fast->variant.params.empty());
  // user and system are means over the runs, not per run: not made up per instance.
  EXPECT_EQ(fast->instances[0].user_s, 0.0);
  EXPECT_EQ(slow->instances[0].sys_s, 0.0);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(IngestHyperfine, OneCommandWithoutShell) {
  auto r = import_file(data_file("hyperfine-one.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "hyperfine", 1, 8, 8);
  const auto* v = find_variant(r->data, "sleep 0.005");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->instances.size(), 8u);
  EXPECT_DOUBLE_EQ(metric(v->instances[0].iterations.at(0), "wall_time"), 0.006877274);
  EXPECT_DOUBLE_EQ(metric(v->instances[7].iterations.at(0), "wall_time"), 0.013158606000000002);
}

TEST(IngestHyperfine, ParameterScanWithFailingRuns) {
  // --parameter-scan code 0 1 --ignore-failure: the runs of "exit 1" failed.
  auto r = import_file(data_file("hyperfine-scan.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "hyperfine", 2, 6, 6);
  const auto* pass = find_variant(r->data, "sleep 0.005; exit 0");
  const auto* fail = find_variant(r->data, "sleep 0.005; exit 1");
  ASSERT_NE(pass, nullptr);
  ASSERT_NE(fail, nullptr);
  EXPECT_EQ(pass->variant.params, (KeyValues{{"code", "0"}}));
  EXPECT_EQ(fail->variant.params, (KeyValues{{"code", "1"}}));
  ASSERT_EQ(fail->instances.size(), 3u);
  for (const auto& inst : pass->instances) EXPECT_TRUE(inst.ok());
  for (const auto& inst : fail->instances) {
    EXPECT_EQ(inst.exit_code, 1);
    EXPECT_EQ(inst.failure, "exit code 1");
    EXPECT_FALSE(inst.ok());
  }
  // A failed run's time is still what hyperfine measured.
  EXPECT_DOUBLE_EQ(metric(fail->instances[1].iterations.at(0), "wall_time"), 0.00735377808);
  EXPECT_DOUBLE_EQ(metric(pass->instances[2].iterations.at(0), "wall_time"), 0.01105749908);
}

TEST(IngestHyperfine, ParametersPerRunArraysAndFailedRuns) {
  const std::string text = R"({"results": [{"command": "sort -n big.txt", "mean": 1.5,
    "times": [1.0, 2.0, 1.5], "user": [0.5, 0.6, 0.7], "system": [0.1, 0.2, 0.3],
    "memory_usage_byte": [1000, 2000, 3000], "exit_codes": [0, 1, 0],
    "parameters": {"size": "big", "threads": 4}}]})";
  auto r = import_text("scan.json", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto* v = find_variant(r->data, "sort -n big.txt");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->variant.params, (KeyValues{{"size", "big"}, {"threads", "4"}}));
  ASSERT_EQ(v->instances.size(), 3u);
  EXPECT_DOUBLE_EQ(v->instances[1].user_s, 0.6);
  EXPECT_DOUBLE_EQ(v->instances[2].sys_s, 0.3);
  EXPECT_EQ(v->instances[2].max_rss_bytes, 3000);
  EXPECT_EQ(v->instances[1].exit_code, 1);
  EXPECT_EQ(v->instances[1].failure, "exit code 1");
  EXPECT_TRUE(v->instances[0].ok());

  auto bad = import_text("scan.json", R"({"results": [{"command": "x", "times": [1.0, 2.0],
    "exit_codes": [0]}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "scan.json: results[0].exit_codes: has 1 values for 2 runs");
}

}  // namespace
}  // namespace benchguard::ingest
