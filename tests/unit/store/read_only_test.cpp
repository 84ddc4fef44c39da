// Read-only opening: nothing is written or created beside the database, and what is read is
// the database as its writers left it, un-checkpointed WAL and killed writers' logs included.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;
using benchguard::testing::read_file;
using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

constexpr OpenOptions kReadOnly{.create = false, .migrate = true, .read_only = true};

// Every file of a directory: its size, a hash of its bytes and its modification time. The
// -shm file is left out where `with_shm` is false: reading a -wal file, SQLite takes its read
// marks in that shared memory (as another user who may not write it, it reads it read-only).
std::map<std::string, std::string> snapshot(const fs::path& dir, bool with_shm = true) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!with_shm && name.ends_with("-shm")) continue;
    struct stat st {};
    stat(e.path().c_str(), &st);
    const std::string bytes = read_file(e.path().string());
    out[name] = std::to_string(bytes.size()) + " bytes, hash " +
                std::to_string(std::hash<std::string>{}(bytes)) + ", mtime " +
                std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  }
  return out;
}

std::vector<std::string> names(const std::map<std::string, std::string>& files) {
  std::vector<std::string> out;
  for (const auto& [name, state] : files) out.push_back(name);
  return out;
}

// Runs `body` in a child process and waits for it; the body leaks what a killed writer would
// leave open.
template <class Body>
void in_child_then_die(Body body) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
}

TEST(ReadOnlyOpen, ReadsAndWritesNothing) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "10000000-0000-4000-8000-0000000000a1", 1000, {"x", "y"}, 3);
  }
  const auto before = snapshot(dir.path());
  ASSERT_EQ(names(before), std::vector<std::string>{"bg.db"});
  {
    auto store = open_or_die(path, kReadOnly);
    ASSERT_TRUE(store);
    auto runs = store->list_runs();
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].instances, 6);
    auto run = store->load_run("latest");
    ASSERT_TRUE(run.ok()) << run.error().message;
    expect_same(run->variants.at(1).instances.at(2), run_instance(2));
    auto status = store->schema_status();
    ASSERT_TRUE(status.ok());
    EXPECT_EQ(status->current, sqlite::latest_schema_version());
    // While it is open: no -wal, no -shm, no log.
    EXPECT_EQ(snapshot(dir.path()), before);
    // Writers refuse.
    auto begun = store->begin_run(sample_run("10000000-0000-4000-8000-0000000000a2", 2000));
    ASSERT_FALSE(begun.ok());
    EXPECT_NE(begun.error().message.find("read-only"), std::string::npos);
    EXPECT_FALSE(store->finish_run(1, 5, "complete").ok());
    EXPECT_FALSE(store->prune({"x", 0}).ok());
  }
  EXPECT_EQ(snapshot(dir.path()), before);
}

TEST(ReadOnlyOpen, AWriterKeepsWritingMeanwhile) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto writer = open_or_die(path);
  ASSERT_TRUE(writer);
  store_run(*writer, "10000000-0000-4000-8000-0000000000b1", 1000, {"x"}, 2);
  auto reader = open_or_die(path, kReadOnly);
  ASSERT_TRUE(reader);
  store_run(*writer, "10000000-0000-4000-8000-0000000000b2", 2000, {"x"}, 2);
  auto runs = reader->list_runs();
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  EXPECT_EQ(runs->size(), 2u);  // the second run is in the -wal file: read through it
  // A writer that closes while a reader reads leaves its -wal for the next writer.
  writer.reset();
  runs = reader->list_runs();
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  EXPECT_EQ(runs->size(), 2u);
  reader.reset();
  auto again = open_or_die(path, kReadOnly);
  ASSERT_TRUE(again);
  auto last = again->list_runs();
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->size(), 2u);
}

TEST(ReadOnlyOpen, ReadsCommitsLeftInTheWalByAKilledWriter) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(in_child_then_die([&] {
    auto store = open_store(path);
    if (!store.ok()) return 3;
    store_run(**store, "10000000-0000-4000-8000-0000000000c1", 1000, {"x"}, 4);
    (void)store->release();  // never closed: no checkpoint, -wal and -shm stay
    return 0;
  }));
  ASSERT_GT(fs::file_size(path + "-wal"), 0u);
  const auto before = snapshot(dir.path(), /*with_shm=*/false);
  auto store = open_or_die(path, kReadOnly);
  ASSERT_TRUE(store);
  auto run = store->load_run("latest");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->variants.at(0).instances.size(), 4u);
  EXPECT_EQ(run->run.status, "complete");
  store.reset();
  EXPECT_EQ(snapshot(dir.path(), false), before);
}

TEST(ReadOnlyOpen, ReadsWhatAKilledWritersLogHoldsWithoutCommittingIt) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(in_child_then_die([&] {
    auto store = open_store(path);
    if (!store.ok()) return 3;
    auto run = (*store)->begin_run(sample_run("10000000-0000-4000-8000-0000000000d1", 1000));
    if (!run.ok()) return 4;
    auto variant = (*store)->add_variant(*run, sample_variant("x", "default"));
    if (!variant.ok()) return 5;
    for (int i = 0; i < 5; ++i)
      if (!(*store)->add_instance_batched(*variant, sample_instance(i, 1)).ok()) return 6;
    (void)store->release();  // never closed: nothing flushed, the log holds all five
    return 0;
  }));
  const auto before = snapshot(dir.path(), /*with_shm=*/false);
  {
    auto store = open_or_die(path, kReadOnly);
    ASSERT_TRUE(store);
    auto runs = store->list_runs();
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].instances, 5);
    EXPECT_EQ((*runs)[0].status, "interrupted");
    auto run = store->load_run("latest");
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_EQ(run->variants.at(0).instances.size(), 5u);
    for (int i = 0; i < 5; ++i) expect_same(run->variants[0].instances[i], sample_instance(i, 1));
    EXPECT_EQ(run->run.status, "interrupted");
    EXPECT_EQ(run->run.finished_at, sample_instance(4, 1).started_at + 123'456'789);
  }
  EXPECT_EQ(snapshot(dir.path(), false), before);  // the log stays for the next read-write open
  auto raw = raw_db(path);
  ASSERT_TRUE(raw);
  EXPECT_EQ(count_rows(*raw, "instances"), 0);
}

TEST(ReadOnlyOpen, OlderSchemasAreReadWithoutMigratingTheFile) {
  TempDir dir;
  const std::string v1 = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(v1));
  const std::string before = read_file(v1);
  {
    // Through a migrated temporary copy.
    auto store = open_or_die(v1, kReadOnly);
    ASSERT_TRUE(store);
    auto run = store->load_run("latest");
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(run->run.uuid, "0ld00000-0000-4000-8000-000000000001");
    EXPECT_EQ(run->variants.at(0).instances.size(), 1u);
  }
  EXPECT_EQ(read_file(v1), before);
  {
    // The file itself, as `db status` sees it: reads say what to run.
    auto store = open_or_die(v1, OpenOptions{.create = false, .migrate = false, .read_only = true});
    ASSERT_TRUE(store);
    auto status = store->schema_status();
    ASSERT_TRUE(status.ok());
    EXPECT_EQ(status->current, 1);
    auto runs = store->list_runs();
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("run `benchguard db migrate --db " + v1 + "`"),
              std::string::npos)
        << runs.error().message;
  }
  // At version 4 (before the run writers and checksums) the readers need no copy.
  const std::string v4 = dir.file("v4.db");
  {
    auto db = raw_db(v4);
    ASSERT_TRUE(db);
    ASSERT_TRUE(sqlite::apply_migrations(*db, 1).ok());
    ASSERT_TRUE(db->exec(kVersion1Data).ok());
    ASSERT_TRUE(sqlite::apply_migrations(*db, sqlite::kOldestReadableVersion).ok());
  }
  const std::string v4_before = read_file(v4);
  auto store = open_or_die(v4, OpenOptions{.create = false, .migrate = false, .read_only = true});
  ASSERT_TRUE(store);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].status, "complete");
  store.reset();
  EXPECT_EQ(read_file(v4), v4_before);
}

TEST(ReadOnlyOpen, RefusedFilesStayRefused) {
  TempDir dir;
  benchguard::testing::write_file(dir.file("notes.txt"), "not a database\n");
  auto a = open_store(dir.file("notes.txt"), kReadOnly);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("not a SQLite database"), std::string::npos);
  auto b = open_store(dir.file("absent.db"), kReadOnly);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, dir.file("absent.db") + ": no such database file");
  EXPECT_FALSE(fs::exists(dir.file("absent.db")));
}

}  // namespace
}  // namespace benchguard::store
