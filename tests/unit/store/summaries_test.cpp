// Summary records (migration 0008): stored with their run, read back field by field, carried
// by merge, verified by db check.
#include <gtest/gtest.h>

#include <string>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

// An imported run whose one benchmark has no instance, only summaries: one with every
// statistic, one with a mean alone.
RunData summary_run(const std::string& uuid, int64_t started_at) {
  RunData data;
  data.run = sample_run(uuid, started_at);
  data.run.status = "imported";
  data.run.finished_at = started_at;
  VariantData v;
  v.variant = sample_variant("stats_only", "default");
  SummaryRecord full;
  full.metric = "wall_time";
  full.count = 30;
  full.mean = 1.25e-3;
  full.stddev = 4e-5;
  full.median = 1.2e-3;
  full.min = 1.1e-3;
  full.max = 1.9e-3;
  SummaryRecord bare;
  bare.metric = "throughput";
  bare.mean = 1500;
  v.summaries = {full, bare};
  data.variants.push_back(v);
  return data;
}

void expect_same(const SummaryRecord& a, const SummaryRecord& b) {
  EXPECT_EQ(a.metric, b.metric);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.mean, b.mean);
  EXPECT_EQ(a.stddev, b.stddev);
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
}

const MetricInfo kThroughput{"throughput", "1/s", Direction::kHigherIsBetter};

TEST(StoreSummaries, ReadBackFieldByFieldWithTheirMetrics) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  const RunData run = summary_run("80000000-0000-4000-8000-000000000001", 100);
  auto ids = store->add_runs({run}, {kThroughput});
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  auto back = store->load_run(std::to_string(ids->at(0)));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->variants.size(), 1u);
  const VariantData& v = back->variants[0];
  EXPECT_TRUE(v.instances.empty());
  ASSERT_EQ(v.summaries.size(), 2u);
  expect_same(v.summaries[0], run.variants[0].summaries[0]);
  expect_same(v.summaries[1], run.variants[0].summaries[1]);
  // Their metrics, as the store describes them.
  ASSERT_EQ(v.metrics.size(), 2u);
  EXPECT_EQ(v.metrics[0].name, "wall_time");
  EXPECT_EQ(v.metrics[1].name, "throughput");
  EXPECT_EQ(v.metrics[1].direction, Direction::kHigherIsBetter);
  // `runs` counts the benchmark though it has no instance.
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->at(0).benchmarks, 1);
  EXPECT_EQ(runs->at(0).instances, 0);
}

TEST(StoreSummaries, ASecondSummaryOfOneMetricIsRefusedAndNothingStored) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  RunData run = summary_run("80000000-0000-4000-8000-000000000002", 100);
  run.variants[0].summaries.push_back(run.variants[0].summaries[0]);
  auto ids = store->add_runs({run}, {kThroughput});
  ASSERT_FALSE(ids.ok());
  EXPECT_NE(ids.error().message.find("summary of metric 'wall_time' twice"), std::string::npos)
      << ids.error().message;
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
}

TEST(StoreSummaries, MergeCarriesThem) {
  TempDir dir;
  const std::string source_path = dir.file("source.db");
  {
    auto source = open_or_die(source_path);
    ASSERT_TRUE(source);
    ASSERT_TRUE(
        source->add_runs({summary_run("80000000-0000-4000-8000-000000000003", 100)}, {kThroughput})
            .ok());
  }
  auto target = open_or_die(dir.file("target.db"));
  ASSERT_TRUE(target);
  auto merged = target->merge_from(source_path);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->runs_added, 1);
  auto back = target->load_run("80000000");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->variants.at(0).summaries.size(), 2u);
  expect_same(back->variants[0].summaries[1], summary_run("x", 0).variants[0].summaries[1]);
  EXPECT_EQ(back->variants[0].metrics.at(1).direction, Direction::kHigherIsBetter);
}

TEST(StoreSummaries, DbCheckVerifiesTheirChecksumsAndInvariants) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    ASSERT_TRUE(
        store->add_runs({summary_run("80000000-0000-4000-8000-000000000004", 100)}, {kThroughput})
            .ok());
  }
  auto sound = check_store(path);
  ASSERT_TRUE(sound.ok()) << sound.error().message;
  EXPECT_TRUE(sound->problems.empty());
  // The run, its variant, two metrics and two summaries.
  EXPECT_EQ(sound->checksums_verified, 6);
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("UPDATE summaries SET mean = 2.5e-3 WHERE id = 1;"
                         "UPDATE summaries SET stddev = -1, count = -3 WHERE id = 2;")
                    .ok());
  }
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::string all;
  for (const auto& p : r->problems) all += p.text + "\n";
  for (const char* line :
       {"summaries row 1: checksum mismatch: what it holds changed after it was stored",
        "summaries row 2: checksum mismatch: what it holds changed after it was stored",
        "summaries row 2: count is negative (-3)",
        "summaries row 2: standard deviation is negative (-1.0)"})
    EXPECT_NE(all.find(line), std::string::npos) << line << "\n" << all;
}

}  // namespace
}  // namespace benchguard::store
