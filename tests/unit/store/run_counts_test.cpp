// run_counts (0013): the counts list_runs gives, kept per ended run by every writer, counted
// from the rows where a run has none, and checked by `db check`.
#include "store/run_counts.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;
using Counts = std::pair<int64_t, int64_t>;  // (benchmarks, instances)

// The kept row of each run that has one.
std::map<int64_t, Counts> kept_rows(const std::string& path) {
  std::map<int64_t, Counts> out;
  auto db = raw_db(path);
  if (!db) return out;
  auto stmt = db->prepare("SELECT run_id, benchmarks, instances FROM run_counts");
  EXPECT_TRUE(stmt.ok());
  if (!stmt.ok()) return out;
  while (true) {
    auto row = stmt->step();
    EXPECT_TRUE(row.ok());
    if (!row.ok() || !*row) break;
    out[stmt->int64(0)] = {stmt->int64(1), stmt->int64(2)};
  }
  return out;
}

// What list_runs gives, by run id.
std::map<int64_t, Counts> listed(Store& store) {
  std::map<int64_t, Counts> out;
  auto runs = store.list_runs();
  EXPECT_TRUE(runs.ok()) << runs.error().message;
  if (!runs.ok()) return out;
  for (const auto& r : *runs) out[r.id] = {r.benchmarks, r.instances};
  return out;
}

std::string problems_of(const std::string& path) {
  auto report = check_store(path);
  if (!report.ok()) return report.error().message;
  std::string out;
  for (const auto& p : report->problems) out += p.text + "\n";
  return out;
}

Result<int64_t> add_variant_with(Store& store, int64_t run, const std::string& benchmark,
                                 const std::string& name, int instances, bool batched = false) {
  BG_ASSIGN(int64_t variant, store.add_variant(run, sample_variant(benchmark, name)));
  for (int i = 0; i < instances; ++i)
    BG_TRY(batched ? store.add_instance_batched(variant, sample_instance(i))
                   : store.add_instance(variant, sample_instance(i)));
  return variant;
}

TEST(RunCounts, EveryWriterKeepsTheCountsTheRunsRowsGive) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  // Finished: two benchmarks of 3 instances; a variant that measured nothing is no benchmark.
  auto finished = store->begin_run(sample_run("aaaa0000-0000-4000-8000-000000000001", 1000));
  ASSERT_TRUE(finished.ok());
  auto x = add_variant_with(*store, *finished, "x", "default", 3);
  ASSERT_TRUE(x.ok());
  ASSERT_TRUE(add_variant_with(*store, *finished, "y", "default", 3).ok());
  ASSERT_TRUE(add_variant_with(*store, *finished, "idle", "default", 0).ok());
  ASSERT_TRUE(store->finish_run(*finished, 1001, "complete").ok());
  // Batched instances, two variants of one benchmark: one benchmark, their instances.
  auto batched = store->begin_run(sample_run("bbbb0000-0000-4000-8000-000000000002", 2000));
  ASSERT_TRUE(batched.ok());
  ASSERT_TRUE(add_variant_with(*store, *batched, "x", "slow", 5, true).ok());
  ASSERT_TRUE(add_variant_with(*store, *batched, "x", "fast", 4, true).ok());
  ASSERT_TRUE(store->finish_run(*batched, 2001, "failed").ok());
  // Whole (import): a benchmark with instances, one with a summary alone, one with nothing.
  RunData imported;
  imported.run = sample_run("cccc0000-0000-4000-8000-000000000003", 3000);
  imported.run.status = "imported";
  imported.run.finished_at = 3001;
  imported.variants.push_back({sample_variant("x", "default"), {}, {}, {}});
  imported.variants[0].instances = {sample_instance(0), sample_instance(1)};
  imported.variants.push_back({sample_variant("s", "default"), {}, {}, {}});
  imported.variants[1].summaries.push_back({"wall_time", 10, 1.5, 0.1, 1.4, 1.2, 1.9});
  imported.variants.push_back({sample_variant("e", "default"), {}, {}, {}});
  auto ids = store->add_runs({imported}, {});
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  // Still running: no row, counted from its rows.
  auto running = store->begin_run(sample_run("dddd0000-0000-4000-8000-000000000004", 4000));
  ASSERT_TRUE(running.ok());
  ASSERT_TRUE(add_variant_with(*store, *running, "z", "default", 2).ok());

  const std::map<int64_t, Counts> ended = {
      {*finished, {2, 6}}, {*batched, {1, 9}}, {ids->front(), {2, 2}}};
  EXPECT_EQ(kept_rows(path), ended);
  auto expected = ended;
  expected[*running] = {1, 2};
  EXPECT_EQ(listed(*store), expected);
  EXPECT_EQ(problems_of(path), "");

  // An instance given to an ended run: its row goes, and it is counted from its rows.
  ASSERT_TRUE(store->add_instance(*x, sample_instance(3)).ok());
  expected[*finished] = {2, 7};
  EXPECT_EQ(listed(*store), expected);
  EXPECT_FALSE(kept_rows(path).contains(*finished));
  ASSERT_TRUE(store->add_instance_batched(*x, sample_instance(4)).ok());
  ASSERT_TRUE(store->flush().ok());
  expected[*finished] = {2, 8};
  EXPECT_EQ(listed(*store), expected);
  EXPECT_EQ(problems_of(path), "");

  // Prune counts again what it leaves of the runs it touches (the running one too, from its
  // rows) and takes the rows of the runs it empties with them.
  auto pruned = store->prune({.benchmark = "x", .before = 0});
  ASSERT_TRUE(pruned.ok()) << pruned.error().message;
  EXPECT_EQ(pruned->runs_emptied, 1);  // the batched run had x alone
  expected.erase(*batched);
  expected[*finished] = {1, 3};
  expected[ids->front()] = {1, 0};
  EXPECT_EQ(listed(*store), expected);
  auto rows = kept_rows(path);
  EXPECT_EQ(rows, (std::map<int64_t, Counts>{{*finished, {1, 3}}, {ids->front(), {1, 0}}}));
  EXPECT_EQ(problems_of(path), "");

  // Ending the running run keeps its counts; a merge keeps those of the ended runs it adds.
  ASSERT_TRUE(store->finish_run(*running, 4001, "complete").ok());
  EXPECT_EQ(kept_rows(path).at(*running), (Counts{1, 2}));
  store.reset();
  const std::string other = dir.file("other.db");
  auto target = open_or_die(other);
  ASSERT_TRUE(target);
  auto merged = target->merge_from(path);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  auto merged_rows = kept_rows(other);
  EXPECT_EQ(merged_rows.size(), 3u);
  std::map<int64_t, Counts> merged_listed = listed(*target);
  EXPECT_EQ(merged_rows, merged_listed);
  std::multiset<Counts> values, before;
  for (const auto& [id, c] : merged_rows) values.insert(c);
  for (const auto& [id, c] : expected) before.insert(c);
  EXPECT_EQ(values, before);
  EXPECT_EQ(problems_of(other), "");
}

TEST(RunCounts, DbCheckNamesACountThatDoesNotMatchItsRows) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "aaaa0000-0000-4000-8000-000000000001", 1000, {"x"}, 3);
    auto running = store->begin_run(sample_run("bbbb0000-0000-4000-8000-000000000002", 2000));
    ASSERT_TRUE(running.ok());
    // Closing marks it interrupted; its row is made then: put it back to running below.
  }
  EXPECT_EQ(problems_of(path), "");
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("UPDATE run_counts SET instances = instances + 1 WHERE run_id = 1").ok());
    ASSERT_TRUE(db->exec("UPDATE runs SET status = 'running' WHERE id = 2").ok());
  }
  const std::string found = problems_of(path);
  EXPECT_NE(found.find("run_counts row 1: holds 1 benchmarks and 4 instances where its rows "
                       "give 1 and 3"),
            std::string::npos)
      << found;
  EXPECT_NE(found.find("run_counts row 2: counts of a run still running"), std::string::npos)
      << found;
}

// A database from before run_counts: read without migrating, its runs are counted from their
// rows; migrated, every ended run gets the same counts kept.
TEST(RunCounts, TheMigrationKeepsWhatCountingTheRowsGave) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "aaaa0000-0000-4000-8000-000000000001", 1000, {"x", "y"}, 3);
    store_run(*store, "bbbb0000-0000-4000-8000-000000000002", 2000, {"x"}, 0);
    store_run(*store, "cccc0000-0000-4000-8000-000000000003", 3000, {"x", "y", "z"}, 1);
  }
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    // As benchguard wrote them before 0013: applied at any nanosecond (and without the
    // columns of 0014 and 0015).
    ASSERT_TRUE(db->exec("DROP TABLE run_counts; ALTER TABLE instances DROP COLUMN mem_source; "
                         "ALTER TABLE instances DROP COLUMN prepare_s; ALTER TABLE instances DROP "
                         "COLUMN conclude_s; DELETE FROM schema_migrations WHERE version >= 13; "
                         "PRAGMA user_version = 12; UPDATE schema_migrations SET applied_at = "
                         "applied_at - 123456789 * (13 - version)")
                    .ok());
  }
  std::map<int64_t, Counts> counted;
  {
    auto old = open_or_die(path, {.create = false, .migrate = false, .read_only = true});
    ASSERT_TRUE(old);
    counted = listed(*old);
  }
  EXPECT_EQ(counted, (std::map<int64_t, Counts>{{1, {2, 6}}, {2, {0, 0}}, {3, {3, 3}}}));
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  {
    // 0014 added the column back empty: the fixture's sources again, which the rows'
    // checksums cover.
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("UPDATE instances SET mem_source = CASE idx % 3 WHEN 1 THEN 'cgroup1' "
                         "WHEN 2 THEN 'sampled' ELSE '' END")
                    .ok());
  }
  EXPECT_EQ(kept_rows(path), counted);
  EXPECT_EQ(listed(*store), counted);
  EXPECT_EQ(problems_of(path), "");
  // Every migration's record is now a whole second, which db check holds them to.
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM schema_migrations WHERE applied_at % "
                           "1000000000 <> 0"),
            0);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM schema_migrations"), 15);
  ASSERT_TRUE(db->exec("UPDATE schema_migrations SET applied_at = applied_at + 512 WHERE "
                       "version = 1")
                  .ok());
  EXPECT_NE(problems_of(path).find("schema_migrations row 1: applied_at "), std::string::npos);
  EXPECT_NE(problems_of(path).find("is not a whole second, as it is recorded"), std::string::npos);
}

TEST(RunCounts, ARunGivenWholeIsCountedAsItsRowsWouldCountIt) {
  RunData data;
  data.variants.push_back({sample_variant("x", "a"), {}, {}, {}});
  data.variants.push_back({sample_variant("x", "b"), {}, {}, {}});
  data.variants.push_back({sample_variant("y", "a"), {}, {}, {}});
  data.variants.push_back({sample_variant("z", "a"), {}, {}, {}});
  data.variants[0].instances = {sample_instance(0)};
  data.variants[1].instances = {sample_instance(0), sample_instance(1)};
  data.variants[3].summaries.push_back({"wall_time", 1, 1.0, {}, {}, {}, {}});
  const RunCounts counts = run_counts_of(data);
  EXPECT_EQ(counts.benchmarks, 2);  // x (twice) and z (a summary); y measured nothing
  EXPECT_EQ(counts.instances, 3);
}

}  // namespace
}  // namespace benchguard::store
