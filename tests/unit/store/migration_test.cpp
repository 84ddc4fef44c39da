// Schema versions: the embedded migrations, a new database, and a version-1 database with
// data written the way benchguard 1 wrote it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

TEST(Migration, EmbeddedMigrationsAreNumberedWithoutGaps) {
  auto migrations = sqlite::embedded_migrations();
  ASSERT_TRUE(migrations.ok()) << migrations.error().message;
  ASSERT_GE(migrations->size(), 2u);
  for (size_t i = 0; i < migrations->size(); ++i) {
    EXPECT_EQ((*migrations)[i].version, static_cast<int>(i) + 1);
    EXPECT_FALSE((*migrations)[i].sql.empty());
  }
  EXPECT_EQ((*migrations)[0].name, "initial");
  EXPECT_EQ((*migrations)[1].name, "history_indexes");
  EXPECT_EQ(sqlite::latest_schema_version(), static_cast<int>(migrations->size()));
}

TEST(Migration, NewDatabaseGetsEveryMigration) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  auto status = store->schema_status();
  ASSERT_TRUE(status.ok()) << status.error().message;
  const int latest = sqlite::latest_schema_version();
  EXPECT_EQ(status->current, latest);
  EXPECT_EQ(status->latest, latest);
  ASSERT_EQ(status->applied.size(), static_cast<size_t>(latest));
  EXPECT_EQ(status->applied[0], (std::pair<int, std::string>{1, "initial"}));
  EXPECT_EQ(status->applied[1], (std::pair<int, std::string>{2, "history_indexes"}));
  EXPECT_TRUE(status->pending.empty());

  auto db = raw_db(dir.file("bg.db"));
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->query_int("PRAGMA user_version"), latest);
  EXPECT_EQ(count_rows(*db, "schema_migrations"), latest);
}

// A new database's schema is made in one transaction; connections that open the same new
// file at once wait for it, find it made, and add nothing.
TEST(Migration, ConnectionsOpeningOneNewFileAtOnceMakeItsSchemaOnce) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  constexpr int kOpeners = 6;
  std::vector<std::string> errors(kOpeners);
  {
    std::vector<std::thread> openers;
    for (int i = 0; i < kOpeners; ++i)
      openers.emplace_back([&, i] {
        auto store = open_store(path);
        if (!store.ok()) errors[i] = store.error().message;
      });
    for (auto& t : openers) t.join();
  }
  for (const auto& e : errors) EXPECT_EQ(e, "");
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  const int latest = sqlite::latest_schema_version();
  EXPECT_EQ(*db->query_int("PRAGMA user_version"), latest);
  EXPECT_EQ(count_rows(*db, "schema_migrations"), latest);
}

// A new database appears whole: a connection that finds the file finds its whole schema,
// never the empty file SQLite makes first. (The file a creation works in is not the one the
// others open, so a creation that fails can remove only its own.)
TEST(Migration, ANewDatabaseAppearsWithItsWholeSchema) {
  const int latest = sqlite::latest_schema_version();
  TempDir dir;
  int seen = 0;
  for (int round = 0; round < 20; ++round) {
    const std::string path = dir.file("bg" + std::to_string(round) + ".db");
    std::atomic<bool> done{false};
    std::vector<int64_t> versions;
    std::thread watcher([&] {
      while (!done.load()) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) continue;
        sqlite3* handle = nullptr;
        if (sqlite3_open_v2(path.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
          sqlite3_busy_timeout(handle, 5000);
          sqlite3_stmt* stmt = nullptr;
          if (sqlite3_prepare_v2(handle, "PRAGMA user_version", -1, &stmt, nullptr) == SQLITE_OK &&
              sqlite3_step(stmt) == SQLITE_ROW)
            versions.push_back(sqlite3_column_int64(stmt, 0));
          sqlite3_finalize(stmt);
        }
        sqlite3_close_v2(handle);
        break;
      }
    });
    auto store = open_store(path);
    done = true;
    watcher.join();
    ASSERT_TRUE(store.ok()) << store.error().message;
    for (const int64_t v : versions) EXPECT_EQ(v, latest) << "round " << round;
    seen += static_cast<int>(versions.size());
  }
  // Nothing is left beside the databases but their own -wal and -shm files.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string().find(".creating-"), std::string::npos)
        << entry.path();
  std::cout << "[ new files ] a watcher read the schema version of " << seen
            << " of 20 new databases as they appeared\n";
}

// What sqlite_master holds, as statements in the order they were made (SQLite's own tables
// aside), and the migrations recorded.
std::string schema_text(sqlite::Db& db) {
  std::string out;
  auto stmt = db.prepare(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
      "ESCAPE '\\' ORDER BY rowid");
  EXPECT_TRUE(stmt.ok());
  while (stmt.ok() && *stmt->step()) out += stmt->text(0) + ";\n";
  return out;
}

std::string migrations_recorded(sqlite::Db& db) {
  std::string out;
  auto stmt = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version");
  EXPECT_TRUE(stmt.ok());
  while (stmt.ok() && *stmt->step()) out += stmt->text(0) + " " + stmt->text(1) + "\n";
  return out;
}

// A new database is made from src/store/schema/sqlite_latest.sql in one step; one made at the
// first version and migrated one migration at a time must come out the same. When a migration
// is added or changed, this fails and writes the schema the file should hold.
TEST(Migration, ANewDatabaseMadeFromTheLatestSchemaEqualsOneMigratedStepByStep) {
  TempDir dir;
  const int latest = sqlite::latest_schema_version();
  auto stepped = raw_db(dir.file("stepped.db"));
  auto fresh = raw_db(dir.file("fresh.db"));
  ASSERT_TRUE(fresh && stepped);
  ASSERT_TRUE(sqlite::apply_migrations(*stepped, 1).ok());
  ASSERT_TRUE(sqlite::apply_migrations(*stepped, latest).ok());
  const std::string want = schema_text(*stepped);

  const Status made = sqlite::apply_migrations(*fresh, latest);
  const std::string got = made.ok() ? schema_text(*fresh) : made.error().message;
  if (got != want) {
    const auto expected =
        std::filesystem::temp_directory_path() / "benchguard-sqlite_latest.sql.expected";
    benchguard::testing::write_file(expected.string(), want);
    FAIL() << "src/store/schema/sqlite_latest.sql does not make the schema the migrations make ("
           << (made.ok() ? "it differs" : made.error().message)
           << "); the statements it should hold, under its comment, are in " << expected;
  }
  EXPECT_EQ(*fresh->query_int("PRAGMA user_version"), latest);
  EXPECT_EQ(migrations_recorded(*fresh), migrations_recorded(*stepped));
  EXPECT_EQ(count_rows(*fresh, "schema_migrations"), latest);
  EXPECT_TRUE(sqlite::check_schema(*fresh).ok());
}

// Up to a version short of the newest: only the migrations up to it, and the rest later.
TEST(Migration, ANewDatabaseMadeToAnOlderVersionIsMigratedOnLater) {
  TempDir dir;
  auto db = raw_db(dir.file("bg.db"));
  ASSERT_TRUE(db);
  ASSERT_TRUE(sqlite::apply_migrations(*db, 4).ok());
  EXPECT_EQ(*db->query_int("PRAGMA user_version"), 4);
  EXPECT_EQ(count_rows(*db, "schema_migrations"), 4);
  const int latest = sqlite::latest_schema_version();
  ASSERT_TRUE(sqlite::apply_migrations(*db, latest).ok());
  EXPECT_EQ(*db->query_int("PRAGMA user_version"), latest);
  EXPECT_EQ(count_rows(*db, "schema_migrations"), latest);
}

TEST(Migration, UnmigratedDatabaseReportsPendingAndRefusesData) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(path));
  OpenOptions no_migrate;
  no_migrate.migrate = false;
  auto store = open_or_die(path, no_migrate);
  ASSERT_TRUE(store);
  auto status = store->schema_status();
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(status->current, 1);
  ASSERT_EQ(status->applied.size(), 1u);
  ASSERT_FALSE(status->pending.empty());
  EXPECT_EQ(status->pending[0], (std::pair<int, std::string>{2, "history_indexes"}));
  auto load = store->load_run("latest");
  ASSERT_FALSE(load.ok());
  EXPECT_NE(load.error().message.find("db migrate"), std::string::npos) << load.error().message;
  EXPECT_FALSE(store->begin_run(sample_run("new", 1)).ok());
}

TEST(Migration, Version1DatabaseWithDataIsMigratedAndKeepsIt) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(path));
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  auto status = store->schema_status();
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->current, sqlite::latest_schema_version());
  EXPECT_TRUE(status->pending.empty());
  EXPECT_EQ(status->applied.size(), static_cast<size_t>(status->latest));

  auto data = store->load_run("0ld");
  ASSERT_TRUE(data.ok()) << data.error().message;
  EXPECT_EQ(data->run.hostname, "oldhost");
  EXPECT_TRUE(data->run.git_dirty);
  EXPECT_EQ(data->run.labels, (KeyValues{{"ci", "yes"}}));
  EXPECT_EQ(data->run.artifacts, (KeyValues{{"cpu", "x86"}}));
  ASSERT_EQ(data->variants.size(), 1u);
  EXPECT_EQ(data->variants[0].variant.benchmark, "sleep");
  EXPECT_EQ(data->variants[0].variant.command, (std::vector<std::string>{"sleep", "0"}));
  EXPECT_EQ(data->variants[0].variant.params, (KeyValues{{"n", "1"}}));
  ASSERT_EQ(data->variants[0].instances.size(), 1u);
  const InstanceRecord& in = data->variants[0].instances[0];
  EXPECT_EQ(in.instructions, 555);
  EXPECT_FALSE(in.cycles.has_value());
  EXPECT_TRUE(in.failure.empty());
  ASSERT_EQ(in.iterations.size(), 1u);
  EXPECT_TRUE(in.iterations[0].burn_in);
  EXPECT_EQ(in.iterations[0].failure, "slow");
  EXPECT_EQ(in.iterations[0].metric("wall_time"), 1.5e-8);

  // New data goes in beside the old.
  store_run(*store, "new00000-0000-4000-8000-000000000002", 3000, {"sleep"}, 1);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 2u);

  auto db = raw_db(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM sqlite_master WHERE name = 'runs_started_at'"), 1);
}

// 0003: instances learn the schedule their run recorded; metric values move to a keyed table.
TEST(Migration, InstancesTakeTheirRunsScheduleAndMetricValuesSurvive) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(path));
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("INSERT INTO artifacts(run_id, key, value) SELECT id, 'schedule', "
                         "'alternate' FROM runs")
                    .ok());
  }
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  auto data = store->load_run("0ld");
  ASSERT_TRUE(data.ok()) << data.error().message;
  const InstanceRecord& in = data->variants[0].instances[0];
  EXPECT_EQ(in.schedule, "alternate");
  ASSERT_EQ(in.iterations.size(), 1u);
  EXPECT_EQ(in.iterations[0].metric("wall_time"), 1.5e-8);

  auto db = raw_db(path);
  ASSERT_TRUE(db);
  // 0009: the value lives on as an array of one, the row tables are gone.
  EXPECT_EQ(count_rows(*db, "iteration_values"), 1);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('metric_values', "
                           "'iterations')"),
            0);
}

// 0004: the iteration row of an instance timed from outside goes; the iteration reads back.
TEST(Migration, OutsideTimedIterationRowsMoveIntoTheirInstances) {
  TempDir dir;
  const std::string path = dir.file("v3.db");
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(sqlite::apply_migrations(*db, 3).ok());
    ASSERT_TRUE(db->exec(R"sql(
INSERT INTO runs(id, uuid, started_at, status, suite) VALUES (1, 'v3run', 1000, 'complete', 's');
INSERT INTO benchmarks(id, name) VALUES (1, 'b');
INSERT INTO variants(id, run_id, benchmark_id, name) VALUES (1, 1, 1, 'default');
INSERT INTO instances(id, variant_id, idx, schedule_order, start_ns, end_ns, started_at,
                      exit_code, timed_out, failure, user_s, timed_outside)
  VALUES (1, 1, 0, 0, 100, 600, 5, 0, 0, NULL, 0.25, 1),
         (2, 1, 1, 1, 700, 900, 6, -1, 1, 'timed out after 1 s', 0.5, 1),
         (3, 1, 2, 2, 1000, 2000, 7, 0, 0, NULL, 0, 0);
INSERT INTO iterations(id, instance_id, idx, start_ns, end_ns, burn_in, timed_out, failure)
  VALUES (1, 1, 0, 100, 600, 0, 0, NULL),
         (2, 2, 0, 700, 900, 0, 1, 'timed out after 1 s'),
         (3, 3, 0, 1100, 1900, 0, 0, NULL);
INSERT INTO metrics(id, name, unit, direction) VALUES (1, 'wall_time', 's', 'lower');
INSERT INTO metric_values(iteration_id, metric_id, value) VALUES (3, 1, 8e-7);
)sql")
                    .ok());
  }
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  auto data = store->load_run("v3run");
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto& instances = data->variants.at(0).instances;
  ASSERT_EQ(instances.size(), 3u);
  ASSERT_EQ(instances[0].iterations.size(), 1u);
  EXPECT_EQ(instances[0].iterations[0].start_ns, 100);
  EXPECT_EQ(instances[0].iterations[0].end_ns, 600);
  EXPECT_DOUBLE_EQ(instances[0].iterations[0].metric("wall_time").value_or(0), 5e-7);
  EXPECT_EQ(instances[0].iterations[0].metric("user_time"), 0.25);
  ASSERT_EQ(instances[1].iterations.size(), 1u);
  EXPECT_TRUE(instances[1].iterations[0].timed_out);
  EXPECT_EQ(instances[1].iterations[0].failure, "timed out after 1 s");
  ASSERT_EQ(instances[2].iterations.size(), 1u);
  EXPECT_EQ(instances[2].iterations[0].metric("wall_time"), 8e-7);
  EXPECT_EQ(instances[2].iterations[0].start_ns, 1100);

  store.reset();
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(count_rows(*db, "iteration_blocks"), 1);  // the in-process instance's
}

}  // namespace
}  // namespace benchguard::store
