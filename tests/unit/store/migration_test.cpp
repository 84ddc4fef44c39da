// Schema versions: the embedded migrations, a new database, and a version-1 database with
// data written the way benchguard 1 wrote it.
#include <gtest/gtest.h>

#include <cmath>

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
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM sqlite_master WHERE name = 'metric_values' "
                           "AND sql LIKE '%WITHOUT ROWID%'"),
            1);
}

}  // namespace
}  // namespace benchguard::store
