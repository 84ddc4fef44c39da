// `kill -9` of benchguard in the middle of a run: the database opens and holds every
// instance that had finished.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;

// A count read with SQLite alone: no store is opened, so no instance log is replayed.
int64_t sqlite_count(const std::string& db, const char* sql) {
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(h);
    return -1;
  }
  sqlite3_busy_timeout(h, 5000);
  sqlite3_stmt* st = nullptr;
  int64_t n = -1;
  if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

size_t stored_instances(const std::string& db) {
  store::OpenOptions o;
  o.create = false;
  auto s = store::open_store(db, o);
  if (!s.ok()) return 0;
  auto run = (*s)->load_run("latest");
  if (!run.ok()) return 0;
  size_t n = 0;
  for (const auto& v : run->variants) n += v.instances.size();
  return n;
}

TEST(CliKill, KillNineLosesAtMostTheInstanceInFlight) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  // Far more instances than can end before the kill, however slow or busy the machine: the
  // test waits for the first ten, not for a time.
  const int pid =
      testing::start_cli({"run", "--instances", "5000", "--db", db, "--", "/bin/sleep", "0.02"});
  ASSERT_GT(pid, 0);

  // Wait until some instances are stored (counted with SQLite alone, read-only, so that the
  // waiting never contends with the writer), then kill without warning.
  int status = 0;
  bool ended = false;
  while (sqlite_count(db, "SELECT COUNT(*) FROM instances") < 10) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      ended = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_FALSE(ended) << "the run ended before ten instances were stored";
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  const size_t stored = stored_instances(db);
  EXPECT_GE(stored, 10u);
  EXPECT_LT(stored, 5000u);
  // Every stored instance is whole: one iteration with its metrics.
  store::OpenOptions o;
  o.create = false;
  auto s = store::open_store(db, o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto run = (*s)->load_run("latest");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->run.status, "interrupted");  // never finished: its writer is gone
  for (const auto& inst : run->variants[0].instances) {
    ASSERT_EQ(inst.iterations.size(), 1u);
    EXPECT_TRUE(inst.ok());
    EXPECT_GT(*inst.iterations[0].metric("wall_time"), 0.015);
  }
  // And the CLI still reads it and can add to it.
  EXPECT_EQ(run_cli({"show", "--db", db}).exit_code, 0);
  EXPECT_EQ(run_cli({"run", "--instances", "1", "--db", db, "--", "/bin/true"}).exit_code, 0);
}

TEST(CliKill, KillNineDuringShortInstancesLosesNoneThatFinished) {
  // Instances under 10 ms are logged beside the database and committed in batches: what the
  // log held when benchguard died is committed by the next open.
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const int pid =
      testing::start_cli({"run", "--instances", "1000000", "--db", db, "--", "/bin/true"});
  ASSERT_GT(pid, 0);
  auto committed = [&] { return sqlite_count(db, "SELECT COUNT(*) FROM instances"); };
  // Waits for the first 50, not for a time: a million instances do not end first.
  while (committed() < 50) {
    int early = 0;
    ASSERT_NE(waitpid(pid, &early, WNOHANG), pid) << "the run ended before 50 instances";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(130));  // inside a batch, most likely
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  const int64_t before = committed();
  ASSERT_GE(before, 50);

  const size_t stored = stored_instances(db);  // opens the store: replays the log
  EXPECT_GE(static_cast<int64_t>(stored), before);
  EXPECT_EQ(sqlite_count(db, "SELECT COUNT(*) FROM instances"), static_cast<int64_t>(stored));
  // No gaps: instance k is stored only if every instance before it is.
  EXPECT_EQ(sqlite_count(db, "SELECT MAX(idx) + 1 FROM instances"), static_cast<int64_t>(stored));
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".pending-"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace benchguard
