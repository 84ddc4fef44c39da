// hyperfine --export-json: each run of a command is one instance.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::expect_counts;
using testing::find_variant;
using testing::fixture;
using testing::metric;

TEST(IngestHyperfine, TwoCommands) {
  auto r = import_file(fixture("hyperfine/bencher-hyperfine-two.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "hyperfine", 2, 40, 40);
  const auto* fast = find_variant(r->data, "sleep 0.1");
  const auto* slow = find_variant(r->data, "sleep 0.2");
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(slow, nullptr);
  ASSERT_EQ(fast->instances.size(), 27u);
  ASSERT_EQ(slow->instances.size(), 13u);
  EXPECT_DOUBLE_EQ(metric(fast->instances[0].iterations.at(0), "wall_time"), 0.10586876872);
  EXPECT_DOUBLE_EQ(metric(slow->instances[0].iterations.at(0), "wall_time"), 0.21231231072000004);
  EXPECT_DOUBLE_EQ(metric(slow->instances[12].iterations.at(0), "wall_time"), 0.21289764272000003);
  EXPECT_EQ(slow->instances[12].index, 12);
  EXPECT_EQ(slow->instances[0].order, 27);  // the second command ran after the first
  EXPECT_EQ(fast->instances[0].exit_code, 0);
  EXPECT_TRUE(fast->instances[0].ok());
  EXPECT_EQ(fast->variant.command, std::vector<std::string>{"sleep 0.1"});
  // user and system are means over the runs, not per run: not made up per instance.
  EXPECT_EQ(fast->instances[0].user_s, 0.0);
}

TEST(IngestHyperfine, OneCommandManyRuns) {
  auto r = import_file(fixture("hyperfine/bencher-hyperfine-one.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->benchmarks(), 1);
  EXPECT_EQ(r->instances(), 214);
  EXPECT_DOUBLE_EQ(
      metric(find_variant(r->data, "sleep 0.01")->instances[0].iterations.at(0), "wall_time"),
      0.01074585146);
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
