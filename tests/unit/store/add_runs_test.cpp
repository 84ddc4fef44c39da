// add_runs: whole runs in one transaction, as the importers hand them over.
#include <gtest/gtest.h>

#include <algorithm>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

RunData whole_run(const std::string& uuid, int64_t started_at) {
  RunData data;
  data.run = sample_run(uuid, started_at);
  data.run.status = "imported";
  data.run.finished_at = started_at + 5;
  for (const char* name : {"A", "B"}) {
    VariantData v;
    v.variant = sample_variant("parse", name);
    v.instances = {sample_instance(0, 3), sample_instance(1, 2)};
    data.variants.push_back(v);
  }
  return data;
}

TEST(StoreAddRuns, RunsReadBackFieldByField) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  const RunData one = whole_run("00000000-0000-4000-8000-00000000000a", 100);
  const RunData two = whole_run("00000000-0000-4000-8000-00000000000b", 200);
  auto ids = store->add_runs({one, two}, {{"zz_custom", "req/s", Direction::kHigherIsBetter}});
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  ASSERT_EQ(ids->size(), 2u);
  auto back = store->load_run(std::to_string((*ids)[0]));
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(back->run, one.run);
  ASSERT_EQ(back->variants.size(), 2u);
  // An iteration's metrics come back in the order the database first met them (zz_custom,
  // declared up front, now comes first), so compare them by name.
  auto by_name = [](InstanceRecord in) {
    for (auto& it : in.iterations) std::sort(it.metrics.begin(), it.metrics.end());
    return in;
  };
  for (size_t v = 0; v < 2; ++v) {
    expect_same(back->variants[v].variant, one.variants[v].variant);
    ASSERT_EQ(back->variants[v].instances.size(), 2u);
    for (size_t i = 0; i < 2; ++i)
      expect_same(by_name(back->variants[v].instances[i]), by_name(one.variants[v].instances[i]));
  }
  EXPECT_EQ(store->load_run("latest")->run.uuid, two.run.uuid);
  // Each variant carries the stored description of every metric its iterations hold.
  const auto& described = back->variants[0].metrics;
  const auto custom = std::find_if(described.begin(), described.end(),
                                   [](const MetricInfo& m) { return m.name == "zz_custom"; });
  ASSERT_NE(custom, described.end());
  EXPECT_EQ(custom->unit, "req/s");
  EXPECT_EQ(custom->direction, Direction::kHigherIsBetter);

  store.reset();
  auto db = raw_db(dir.file("bg.db"));
  ASSERT_TRUE(db);
  // The unit and direction given for a new metric are kept; built-in ones keep theirs.
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM metrics WHERE name = 'zz_custom' AND "
                           "unit = 'req/s' AND direction = 'higher'"),
            1);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM metrics WHERE name = 'wall_time' AND "
                           "unit = 's' AND direction = 'lower'"),
            1);
}

TEST(StoreAddRuns, OneBadRunStoresNothing) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  RunData good = whole_run("00000000-0000-4000-8000-00000000000c", 100);
  RunData bad = whole_run("00000000-0000-4000-8000-00000000000d", 200);
  bad.variants[1].variant.name = "A";  // the same variant twice in one run
  auto ids = store->add_runs({good, bad}, {{"zz_new", "", Direction::kHigherIsBetter}});
  ASSERT_FALSE(ids.ok());
  EXPECT_NE(ids.error().message.find("already has variant 'A'"), std::string::npos)
      << ids.error().message;
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
  // The store stays usable, and the rolled-back metric is created afresh.
  good.variants[0].instances[0].iterations[0].metrics.emplace_back("zz_new", 1.0);
  ASSERT_TRUE(store->add_runs({good}, {}).ok());
  EXPECT_EQ(store->list_runs()->size(), 1u);
}

}  // namespace
}  // namespace benchguard::store
