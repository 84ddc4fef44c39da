// Opening files that are not usable benchguard databases: refused with one line naming the
// path, and the file left exactly as it was.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <set>

#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;
using benchguard::testing::read_file;
using benchguard::testing::TempDir;
using benchguard::testing::write_file;
using namespace benchguard::store::testing;

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// Opens `path`, expects a refusal containing `fragment`, and checks that neither the file
// nor its directory changed.
void expect_refused_untouched(const TempDir& dir, const std::string& path,
                              const std::string& fragment) {
  const std::string before = read_file(path);
  const auto files_before = listing(dir.path());
  auto store = open_store(path);
  ASSERT_FALSE(store.ok());
  const std::string& message = store.error().message;
  EXPECT_EQ(store.error().code, ExitCode::kInput);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(listing(dir.path()), files_before);
}

TEST(SqliteOpen, NewDatabaseUsesWalAndForeignKeys) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  auto mode = db->prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.ok());
  ASSERT_TRUE(*mode->step());
  EXPECT_EQ(mode->text(0), "wal");
  // The schema declares its foreign keys: a dangling variant must be impossible.
  ASSERT_TRUE(db->exec("PRAGMA foreign_keys = ON").ok());
  EXPECT_FALSE(
      db->exec("INSERT INTO variants(run_id, benchmark_id, name) VALUES(99, 99, 'x')").ok());
}

TEST(SqliteOpen, GarbageFileRefusedAndUnchanged) {
  TempDir dir;
  std::mt19937 rng(7);
  std::string garbage(8192, '\0');
  for (auto& c : garbage) c = static_cast<char>(rng());
  write_file(dir.file("random.db"), garbage);
  expect_refused_untouched(dir, dir.file("random.db"), "not a SQLite database");

  write_file(dir.file("notes.txt"), "these are my notes, not a database\n");
  expect_refused_untouched(dir, dir.file("notes.txt"), "not a SQLite database");
}

TEST(SqliteOpen, ForeignSqliteDatabaseRefusedAndUnchanged) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES('keep me')").ok());
  }
  expect_refused_untouched(dir, path, "not benchguard's (tables: notes)");

  // Another program's use of user_version does not make it a benchguard database.
  const std::string versioned = dir.file("versioned.db");
  {
    auto db = raw_db(versioned);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("PRAGMA user_version = 1").ok());
  }
  expect_refused_untouched(dir, versioned, "not benchguard's");
}

TEST(SqliteOpen, NewerSchemaRefusedAndUnchanged) {
  TempDir dir;
  const int newer = sqlite::latest_schema_version() + 1;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "uuid-1", 1, {"x"}, 2);
  }
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("PRAGMA user_version = " + std::to_string(newer)).ok());
  }
  const std::string expected = path + ": database schema version " + std::to_string(newer) +
                               " is newer than this " + "benchguard understands (" +
                               std::to_string(sqlite::latest_schema_version()) +
                               "); upgrade benchguard";
  expect_refused_untouched(dir, path, expected);
  OpenOptions no_migrate;
  no_migrate.migrate = false;
  EXPECT_FALSE(open_store(path, no_migrate).ok());
}

TEST(SqliteOpen, UnusableLocationsGiveOneLineErrors) {
  TempDir dir;
  const std::string missing_parent = dir.file("no/such/dir/bg.db");
  auto a = open_store(missing_parent);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, missing_parent + ": cannot create the database: directory '" +
                                   dir.file("no/such/dir") + "' does not exist");
  EXPECT_FALSE(fs::exists(dir.file("no")));

  auto b = open_store(dir.path().string());
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("is a directory"), std::string::npos) << b.error().message;
  EXPECT_EQ(b.error().code, ExitCode::kInput);

  write_file(dir.file("file"), "x");
  auto c = open_store(dir.file("file/bg.db"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("is not a directory"), std::string::npos);

  OpenOptions no_create;
  no_create.create = false;
  auto d = open_store(dir.file("absent.db"), no_create);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, dir.file("absent.db") + ": no such database file");
  EXPECT_FALSE(fs::exists(dir.file("absent.db")));

  for (const auto* r : {&a, &b, &c, &d})
    EXPECT_EQ(r->error().message.find('\n'), std::string::npos);

  // A directory nobody, root included, may create files in.
  if (fs::is_directory("/proc/self")) {
    auto e = open_store("/proc/self/bg.db");
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().message.rfind("/proc/self/bg.db: cannot create the database: ", 0), 0u)
        << e.error().message;
    EXPECT_EQ(e.error().message.find('\n'), std::string::npos);
  }
}

TEST(SqliteOpen, UnwritableDirectoryGivesOneLineError) {
  if (geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  TempDir dir;
  fs::create_directory(dir.file("ro"));
  ASSERT_EQ(chmod(dir.file("ro").c_str(), 0555), 0);
  auto store = open_store(dir.file("ro/bg.db"));
  chmod(dir.file("ro").c_str(), 0755);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find(dir.file("ro/bg.db")), std::string::npos);
  EXPECT_EQ(store.error().message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace benchguard::store
