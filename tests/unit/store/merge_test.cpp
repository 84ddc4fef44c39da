// merge_from: idempotent by run uuid, ids mapped by name, the other file only read, and
// all or nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;
using benchguard::testing::read_file;
using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

int temp_copies() {
  int n = 0;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    if (e.path().filename().string().starts_with("benchguard-merge-")) ++n;
  return n;
}

InstanceRecord novel_metric_instance() {
  InstanceRecord in = sample_instance(0, 1);
  in.iterations[0].metrics = {{"only_in_source", 1.0}};
  return in;
}

TEST(Merge, TwiceAddsNothingTheSecondTime) {
  TempDir dir;
  const std::string source_path = dir.file("source.db");
  {
    auto source = open_or_die(source_path);
    ASSERT_TRUE(source);
    store_run(*source, "50000000-0000-4000-8000-000000000001", 100, {"x", "y"}, 3);
    store_run(*source, "50000000-0000-4000-8000-000000000002", 200, {"x"}, 2);
  }
  auto target = open_or_die(dir.file("target.db"));
  ASSERT_TRUE(target);
  // Created in another order than in the source, so benchmark ids differ between the two.
  store_run(*target, "70000000-0000-4000-8000-000000000001", 50, {"y", "w", "x"}, 1);
  const std::string source_bytes = read_file(source_path);

  auto first = target->merge_from(source_path);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->runs_added, 2);
  EXPECT_EQ(first->runs_skipped, 0);
  EXPECT_EQ(first->instances_added, 3 + 3 + 2);

  auto second = target->merge_from(source_path);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->runs_added, 0);
  EXPECT_EQ(second->runs_skipped, 2);
  EXPECT_EQ(second->instances_added, 0);
  EXPECT_EQ(read_file(source_path), source_bytes);
  // Reading a WAL database must not leave SQLite's side files behind either.
  EXPECT_FALSE(fs::exists(source_path + "-wal"));
  EXPECT_FALSE(fs::exists(source_path + "-shm"));

  auto runs = target->list_runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 3u);
  // Appended in the source's chronological order.
  EXPECT_LT((*runs)[1].id, (*runs)[0].id);
  EXPECT_EQ((*runs)[0].uuid, "50000000-0000-4000-8000-000000000002");

  // The merged runs read back as they read in the source.
  auto source = open_or_die(source_path);
  ASSERT_TRUE(source);
  for (const char* uuid :
       {"50000000-0000-4000-8000-000000000001", "50000000-0000-4000-8000-000000000002"}) {
    SCOPED_TRACE(uuid);
    auto want = source->load_run(uuid);
    auto got = target->load_run(uuid);
    ASSERT_TRUE(want.ok() && got.ok());
    expect_same(got->run, want->run);
    ASSERT_EQ(got->variants.size(), want->variants.size());
    for (size_t v = 0; v < want->variants.size(); ++v) {
      expect_same(got->variants[v].variant, want->variants[v].variant);
      ASSERT_EQ(got->variants[v].instances.size(), want->variants[v].instances.size());
      for (size_t i = 0; i < want->variants[v].instances.size(); ++i)
        expect_same(got->variants[v].instances[i], want->variants[v].instances[i]);
    }
  }
}

TEST(Merge, KeepsUnitsOfMetricsTheTargetLacks) {
  TempDir dir;
  const std::string source_path = dir.file("source.db");
  {
    auto source = open_or_die(source_path);
    ASSERT_TRUE(source);
    store_run(*source, "s1", 100, {"x"}, 1);
    auto db = raw_db(source_path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(
        db->exec("UPDATE metrics SET unit = 'req/s', direction = 'higher' WHERE name = 'zz_custom'")
            .ok());
  }
  auto target = open_or_die(dir.file("target.db"));
  ASSERT_TRUE(target);
  ASSERT_TRUE(target->merge_from(source_path).ok());
  target.reset();
  auto db = raw_db(dir.file("target.db"));
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM metrics WHERE name = 'zz_custom' AND "
                           "unit = 'req/s' AND direction = 'higher'"),
            1);
}

TEST(Merge, OlderSourceIsMigratedInACopyAndLeftAlone) {
  TempDir dir;
  const std::string source_path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(source_path));
  const std::string source_bytes = read_file(source_path);
  const int copies_before = temp_copies();

  auto target = open_or_die(dir.file("target.db"));
  ASSERT_TRUE(target);
  auto counts = target->merge_from(source_path);
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  EXPECT_EQ(counts->runs_added, 1);
  EXPECT_EQ(counts->instances_added, 1);
  EXPECT_EQ(read_file(source_path), source_bytes);
  EXPECT_EQ(temp_copies(), copies_before);

  auto data = target->load_run("0ld");
  ASSERT_TRUE(data.ok()) << data.error().message;
  EXPECT_EQ(data->run.hostname, "oldhost");
  ASSERT_EQ(data->variants.size(), 1u);
  ASSERT_EQ(data->variants[0].instances.size(), 1u);
  EXPECT_EQ(data->variants[0].instances[0].iterations[0].metric("wall_time"), 1.5e-8);
}

TEST(Merge, RefusesNewerMissingForeignAndItself) {
  TempDir dir;
  const std::string target_path = dir.file("target.db");
  auto target = open_or_die(target_path);
  ASSERT_TRUE(target);
  store_run(*target, "t1", 1, {"x"}, 1);

  const std::string newer = dir.file("newer.db");
  {
    auto s = open_or_die(newer);
    ASSERT_TRUE(s);
  }
  const std::string future = std::to_string(sqlite::latest_schema_version() + 1);
  ASSERT_TRUE(raw_db(newer)->exec("PRAGMA user_version = " + future).ok());
  const std::string newer_bytes = read_file(newer);
  auto a = target->merge_from(newer);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find(newer + ": database schema version " + future + " is newer"),
            std::string::npos)
      << a.error().message;
  EXPECT_EQ(read_file(newer), newer_bytes);

  auto b = target->merge_from(dir.file("absent.db"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, dir.file("absent.db") + ": no such database file");

  benchguard::testing::write_file(dir.file("junk.db"), std::string(4096, 'j'));
  auto c = target->merge_from(dir.file("junk.db"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("not a SQLite database"), std::string::npos);

  auto d = target->merge_from(target_path);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("into itself"), std::string::npos);

  auto runs = target->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 1u);
}

TEST(Merge, FailureLeavesTargetAsItWas) {
  TempDir dir;
  const std::string source_path = dir.file("source.db");
  {
    auto source = open_or_die(source_path);
    ASSERT_TRUE(source);
    auto run = source->begin_run(sample_run("a1", 100));
    ASSERT_TRUE(run.ok());
    auto variant = source->add_variant(*run, sample_variant("x", "default"));
    ASSERT_TRUE(variant.ok());
    ASSERT_TRUE(source->add_instance(*variant, novel_metric_instance()).ok());
    store_run(*source, "a2", 200, {"x"}, 2);
  }
  // The second run cannot be read: the merge must fail after writing the first one.
  ASSERT_TRUE(
      raw_db(source_path)->exec("UPDATE variants SET params = 'not json' WHERE run_id = 2").ok());
  auto target = open_or_die(dir.file("target.db"));
  ASSERT_TRUE(target);
  store_run(*target, "own", 1, {"x"}, 1);

  auto merged = target->merge_from(source_path);
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.error().message.find("params is not a JSON object"), std::string::npos)
      << merged.error().message;
  auto runs = target->list_runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].uuid, "own");
  auto db = raw_db(dir.file("target.db"));
  ASSERT_TRUE(db);
  EXPECT_EQ(count_rows(*db, "instances"), 1);

  // The metric the rolled-back merge created is gone; storing it again must work.
  auto run = target->begin_run(sample_run("own2", 2));
  ASSERT_TRUE(run.ok());
  auto variant = target->add_variant(*run, sample_variant("x", "default"));
  ASSERT_TRUE(variant.ok());
  auto stored = target->add_instance(*variant, novel_metric_instance());
  EXPECT_TRUE(stored.ok()) << stored.error().message;
}

}  // namespace
}  // namespace benchguard::store
