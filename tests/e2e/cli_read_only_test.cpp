// Read-only commands on a read-only database file in a read-only directory, run as another
// user (root ignores file modes): they work, and nothing beside or in the database changes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "e2e/cli_child.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using testing::ChildLimits;
using testing::CliResult;
using testing::read_file;
using testing::run_cli;
using testing::run_cli_limited;
using testing::TempDir;

// Every file of a directory: size, a hash of its bytes and its modification time.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    struct stat st {};
    stat(e.path().c_str(), &st);
    const std::string bytes = read_file(e.path().string());
    out[e.path().filename().string()] = std::to_string(bytes.size()) + " bytes, hash " +
                                        std::to_string(std::hash<std::string>{}(bytes)) +
                                        ", mtime " + std::to_string(st.st_mtim.tv_sec) + "." +
                                        std::to_string(st.st_mtim.tv_nsec);
  }
  return out;
}

// A directory another user may enter, holding the database.
struct SharedDir {
  TempDir dir;
  fs::path db_dir;
  std::string db;
  SharedDir() : db_dir(dir.path() / "data"), db((db_dir / "bg.db").string()) {
    fs::create_directory(db_dir);
    fs::permissions(dir.path(), fs::perms(0755));
  }
  // The file 0444 (its companions too) and the directory 0555.
  void make_read_only() const {
    for (const auto& e : fs::directory_iterator(db_dir)) fs::permissions(e.path(), fs::perms(0444));
    fs::permissions(db_dir, fs::perms(0555));
  }
  ~SharedDir() { fs::permissions(db_dir, fs::perms(0755)); }
};

const std::vector<std::vector<std::string>> kReadOnlyCommands = {
    {"runs"},
    {"runs", "--format", "json"},
    {"show"},
    {"summary"},
    {"export", "--format", "csv"},
    {"compare", "side=a", "side=b"},
    {"plan", "latest", "-o", "-", "--experiments", "10", "--resamples", "100"},
    {"db", "status"},
    {"db", "check"},
};

int64_t read_only_stored_instances(const std::string& db) {
  auto s = store::open_store(db, {.create = false, .read_only = true});
  if (!s.ok()) return 0;
  auto runs = (*s)->list_runs();
  return runs.ok() && !runs->empty() ? runs->front().instances : 0;
}

// Runs `run -- /bin/true` many times over and kills it once it stored `at_least` instances:
// its commits stay in the -wal file, their index in -shm, the instances since in its log.
void kill_a_run(const std::string& db, int64_t at_least) {
  const int pid =
      testing::start_cli({"run", "--instances", "1000000", "--db", db, "--", "/bin/true"});
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (read_only_stored_instances(db) < at_least && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // inside a batch, most likely
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
}

void store_two_runs(const std::string& db) {
  for (const char* side : {"side=a", "side=b"}) {
    const auto r =
        run_cli({"run", "-q", "--label", side, "--instances", "6", "--db", db, "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
}

CliResult as(bool nobody, std::vector<std::string> args, const std::string& db) {
  args.insert(args.begin(), {"--db", db});  // before any `-- CMD`
  return run_cli_limited(args, ChildLimits{.as_nobody = nobody});
}

void expect_commands_work_and_write_nothing(const SharedDir& shared, bool nobody) {
  const auto before = snapshot(shared.db_dir);
  for (const auto& command : kReadOnlyCommands) {
    const auto r = as(nobody, command, shared.db);
    std::string joined;
    for (const auto& a : command) joined += a + " ";
    EXPECT_EQ(r.exit_code, 0) << joined << "\n" << r.err;
    EXPECT_EQ(r.err.find("read-only"), std::string::npos) << joined << r.err;
  }
  EXPECT_EQ(snapshot(shared.db_dir), before);
}

TEST(CliReadOnly, CommandsThatReadWorkOnAReadOnlyDatabaseAndWriteNothing) {
  SharedDir shared;
  ASSERT_NO_FATAL_FAILURE(store_two_runs(shared.db));
  shared.make_read_only();
  // Root may write anyway: nothing may be written all the same.
  ASSERT_NO_FATAL_FAILURE(expect_commands_work_and_write_nothing(shared, /*nobody=*/false));
  if (!testing::can_drop_privileges()) GTEST_SKIP() << "not root: cannot run as another user";
  ASSERT_NO_FATAL_FAILURE(expect_commands_work_and_write_nothing(shared, /*nobody=*/true));
  const auto runs = as(true, {"runs"}, shared.db);
  EXPECT_NE(runs.out.find("side=a"), std::string::npos) << runs.out;
  // A command that writes says why it cannot, in one line.
  const auto run = as(true, {"run", "--instances", "1", "--", "/bin/true"}, shared.db);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(testing::count_lines(run.err), 1) << run.err;
  EXPECT_NE(run.err.find(shared.db), std::string::npos) << run.err;
}

TEST(CliReadOnly, AKilledWritersWalAndLogAreReadAsAnotherUser) {
  if (!testing::can_drop_privileges()) GTEST_SKIP() << "not root: cannot run as another user";
  SharedDir shared;
  ASSERT_NO_FATAL_FAILURE(kill_a_run(shared.db, 50));
  // Commits in the -wal file, their index in -shm, and the instances logged since the last.
  ASSERT_TRUE(fs::exists(shared.db + "-wal"));
  ASSERT_TRUE(fs::exists(shared.db + "-shm"));
  const int64_t expected = read_only_stored_instances(shared.db);
  ASSERT_GE(expected, 50);
  shared.make_read_only();
  const auto before = snapshot(shared.db_dir);
  const auto runs = as(true, {"runs", "--format", "json"}, shared.db);
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_NE(runs.out.find("\"status\": \"interrupted\""), std::string::npos) << runs.out;
  EXPECT_NE(runs.out.find("\"instances\": " + std::to_string(expected)), std::string::npos)
      << runs.out;
  const auto check = as(true, {"db", "check"}, shared.db);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_EQ(snapshot(shared.db_dir), before);
}

TEST(CliReadOnly, AWalThatCannotBeReadHereSaysWhatToDo) {
  if (!testing::can_drop_privileges()) GTEST_SKIP() << "not root: cannot run as another user";
  SharedDir shared;
  ASSERT_NO_FATAL_FAILURE(store_two_runs(shared.db));
  ASSERT_NO_FATAL_FAILURE(kill_a_run(shared.db, 50));
  ASSERT_GT(fs::file_size(shared.db + "-wal"), 0u);
  // Without its -shm file, the -wal can only be read where one can be made.
  fs::remove(shared.db + "-shm");
  shared.make_read_only();
  const auto before = snapshot(shared.db_dir);
  const auto r = as(true, {"runs"}, shared.db);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(shared.db + ": cannot read the database"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("benchguard db migrate --db " + shared.db), std::string::npos) << r.err;
  EXPECT_EQ(snapshot(shared.db_dir), before);
}

TEST(CliReadOnly, DbCheckExitCodes) {
  SharedDir shared;
  ASSERT_NO_FATAL_FAILURE(store_two_runs(shared.db));
  const auto clean = run_cli({"db", "check", "--db", shared.db});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find(shared.db + ": ok"), std::string::npos) << clean.out;
  {
    // A measurement changed behind benchguard's back.
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(shared.db.c_str(), &h), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(h, "UPDATE instances SET user_s = user_s + 1e-9 WHERE id = 3", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(h);
  }
  const auto damaged = run_cli({"db", "check", "--db", shared.db});
  EXPECT_EQ(damaged.exit_code, 1);
  EXPECT_NE(damaged.out.find("instances row 3: checksum mismatch"), std::string::npos)
      << damaged.out;
  EXPECT_NE(damaged.out.find(shared.db + ": 1 problem(s) found"), std::string::npos) << damaged.out;
  testing::write_file(shared.dir.file("garbage.db"), std::string(4096, 'x'));
  const auto garbage = run_cli({"db", "check", "--db", shared.dir.file("garbage.db")});
  EXPECT_EQ(garbage.exit_code, 2);
  EXPECT_EQ(testing::count_lines(garbage.err), 1) << garbage.err;
}

}  // namespace
}  // namespace benchguard
