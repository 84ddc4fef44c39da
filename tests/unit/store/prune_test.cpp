// prune: one benchmark's variants before a time go, with everything below them; runs left
// without variants go too.
#include <gtest/gtest.h>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

// Run A (t=1000): x, y with 3 instances each; B (t=2000): x with 2; C (t=3000): x, y with 1.
// Every instance has 2 iterations of 3 metrics.
struct PruneDb {
  TempDir dir;
  std::unique_ptr<Store> store;
  int64_t a = 0, b = 0, c = 0;

  PruneDb() {
    store = open_or_die(path());
    if (!store) return;
    a = store_run(*store, "aaaa", 1000, {"x", "y"}, 3);
    b = store_run(*store, "bbbb", 2000, {"x"}, 2);
    c = store_run(*store, "cccc", 3000, {"x", "y"}, 1);
  }
  std::string path() const { return dir.file("bg.db"); }
};

TEST(Prune, BeforeTimeCountsAndCascades) {
  PruneDb p;
  ASSERT_TRUE(p.store);
  auto counts = p.store->prune(PruneFilter{"x", 2500});
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  EXPECT_EQ(counts->variants, 2);
  EXPECT_EQ(counts->instances, 3 + 2);
  EXPECT_EQ(counts->iterations, (3 + 2) * 2);
  EXPECT_EQ(counts->runs_emptied, 1);  // B had only x

  auto db = raw_db(p.path());
  ASSERT_TRUE(db);
  EXPECT_EQ(count_rows(*db, "runs"), 2);
  EXPECT_EQ(count_rows(*db, "variants"), 3);
  EXPECT_EQ(count_rows(*db, "instances"), 3 + 1 + 1);
  EXPECT_EQ(count_rows(*db, "iteration_blocks"), 3 + 1 + 1);  // one per instance
  EXPECT_EQ(*db->query_int("SELECT SUM(count) FROM iteration_blocks"), (3 + 1 + 1) * 2);
  EXPECT_EQ(count_rows(*db, "iteration_values"), (3 + 1 + 1) * 3);
  EXPECT_EQ(count_rows(*db, "run_labels"), 2 * 3);  // B's labels went with it
  EXPECT_EQ(count_rows(*db, "artifacts"), 2 * 2);

  auto a = p.store->load_run(std::to_string(p.a));
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->variants.size(), 1u);
  EXPECT_EQ(a->variants[0].variant.benchmark, "y");
  EXPECT_FALSE(p.store->load_run(std::to_string(p.b)).ok());
  auto c = p.store->load_run(std::to_string(p.c));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->variants.size(), 2u);
}

TEST(Prune, DryRunCountsAndListsWhatWouldGoAndDeletesNothing) {
  PruneDb p;
  ASSERT_TRUE(p.store);
  auto before = raw_db(p.path());
  ASSERT_TRUE(before);
  const int64_t iterations = *before->query_int("SELECT SUM(count) FROM iteration_blocks");
  PruneFilter filter{"x", 2500};
  filter.dry_run = true;
  auto counts = p.store->prune(filter);
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  // The counts a real prune gives (BeforeTimeCountsAndCascades), and the runs by name.
  EXPECT_EQ(counts->variants, 2);
  EXPECT_EQ(counts->instances, 3 + 2);
  EXPECT_EQ(counts->runs_emptied, 1);
  ASSERT_EQ(counts->runs.size(), 2u);
  EXPECT_EQ(counts->runs[0].uuid, "aaaa");
  EXPECT_FALSE(counts->runs[0].removed);  // keeps y
  EXPECT_EQ(counts->runs[1].uuid, "bbbb");
  EXPECT_TRUE(counts->runs[1].removed);
  // Nothing went, and the store still works for the real thing afterwards.
  auto db = raw_db(p.path());
  ASSERT_TRUE(db);
  EXPECT_EQ(count_rows(*db, "runs"), 3);
  EXPECT_EQ(count_rows(*db, "variants"), 5);
  EXPECT_EQ(*db->query_int("SELECT SUM(count) FROM iteration_blocks"), iterations);
  EXPECT_TRUE(p.store->load_run(std::to_string(p.b)).ok());
  auto real = p.store->prune(PruneFilter{"x", 2500});
  ASSERT_TRUE(real.ok()) << real.error().message;
  EXPECT_EQ(real->runs_emptied, 1);
  EXPECT_FALSE(p.store->load_run(std::to_string(p.b)).ok());
}

TEST(Prune, AllTimeThenNothingLeft) {
  PruneDb p;
  ASSERT_TRUE(p.store);
  auto counts = p.store->prune(PruneFilter{"y", 0});
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  EXPECT_EQ(counts->variants, 2);
  EXPECT_EQ(counts->instances, 3 + 1);
  EXPECT_EQ(counts->iterations, (3 + 1) * 2);
  EXPECT_EQ(counts->runs_emptied, 0);  // A and C still have x

  // The benchmark is still known, only without data: a second prune finds nothing to do.
  auto again = p.store->prune(PruneFilter{"y", 0});
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->variants, 0);
  EXPECT_EQ(again->instances, 0);
  EXPECT_EQ(again->runs_emptied, 0);

  auto runs = p.store->list_runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 3u);
  for (const auto& r : *runs) EXPECT_EQ(r.benchmarks, 1) << r.uuid;
}

TEST(Prune, UnknownBenchmarkIsAnError) {
  PruneDb p;
  ASSERT_TRUE(p.store);
  auto counts = p.store->prune(PruneFilter{"nope", 0});
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.error().message, "no benchmark named nope in " + p.path());
  EXPECT_EQ(counts.error().code, ExitCode::kInput);
  auto runs = p.store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 3u);
}

}  // namespace
}  // namespace benchguard::store
