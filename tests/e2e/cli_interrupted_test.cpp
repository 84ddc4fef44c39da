// A run whose benchguard was killed, or whose disk filled up, does not stay `running`: the
// next `runs` shows it `interrupted` with the instances that finished.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "e2e/cli_child.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using testing::ChildLimits;
using testing::run_cli;
using testing::run_cli_limited;
using testing::TempDir;

// What the database file holds, read with SQLite alone (nothing replayed or marked).
std::string sqlite_text(const std::string& db, const char* sql) {
  sqlite3* h = nullptr;
  std::string out;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(h, 5000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return out;
}

// The runs `benchguard runs --format json` lists, newest first.
nlohmann::json listed_runs(const std::string& db) {
  const auto r = run_cli({"runs", "--format", "json", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_object() && j["runs"].is_array() ? j["runs"] : nlohmann::json::array();
}

int64_t instances_read(const std::string& db) {
  auto s = store::open_store(db, {.create = false, .read_only = true});
  if (!s.ok()) return 0;
  auto runs = (*s)->list_runs();
  return runs.ok() && !runs->empty() ? runs->front().instances : 0;
}

// Starts `run ARGS` and kills it with SIGKILL once `at_least` instances are stored.
void kill_run_after(const std::string& db, const std::vector<std::string>& command,
                    int64_t at_least) {
  std::vector<std::string> args = {"run", "--db", db};
  args.insert(args.end(), command.begin(), command.end());
  const int pid = testing::start_cli(args);
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (instances_read(db) < at_least && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
}

TEST(CliInterrupted, AKilledRunIsShownInterruptedWithItsFinishedInstances) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(
      kill_run_after(db, {"--instances", "300", "--", "/bin/sleep", "0.02"}, /*at_least=*/10));
  EXPECT_EQ(sqlite_text(db, "SELECT status FROM runs"), "running");  // as the kill left it

  // `runs` only reads, and shows it interrupted.
  const auto runs = listed_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["status"], "interrupted");
  const int64_t kept = runs[0]["instances"].get<int64_t>();
  EXPECT_GE(kept, 10);
  EXPECT_LT(kept, 300);
  EXPECT_EQ(sqlite_text(db, "SELECT status FROM runs"), "running");
  const auto show = run_cli({"show", "--db", db});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("(interrupted)"), std::string::npos) << show.out;

  // The next command that writes marks it, ended at its last instance.
  ASSERT_EQ(run_cli({"run", "-q", "--instances", "1", "--db", db, "--", "/bin/true"}).exit_code, 0);
  EXPECT_EQ(sqlite_text(db, "SELECT status FROM runs WHERE id = 1"), "interrupted");
  EXPECT_EQ(sqlite_text(db, "SELECT finished_at >= started_at FROM runs WHERE id = 1"), "1");
  EXPECT_EQ(sqlite_text(db,
                        "SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = "
                        "i.variant_id WHERE v.run_id = 1"),
            std::to_string(kept));
  const auto check = run_cli({"db", "check", "--db", db});
  EXPECT_EQ(check.exit_code, 0) << check.out;
}

TEST(CliInterrupted, AKilledRunOfShortInstancesKeepsWhatItsLogHeld) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(
      kill_run_after(db, {"--instances", "1000000", "--", "/bin/true"}, /*at_least=*/50));
  const auto runs = listed_runs(db);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["status"], "interrupted");
  const int64_t shown = runs[0]["instances"].get<int64_t>();
  // Reading committed nothing; the next write commits the log, as many as were shown.
  ASSERT_EQ(run_cli({"db", "migrate", "--db", db}).exit_code, 0);
  EXPECT_EQ(sqlite_text(db, "SELECT COUNT(*) FROM instances"), std::to_string(shown));
  EXPECT_EQ(sqlite_text(db, "SELECT status FROM runs"), "interrupted");
}

// A file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) fails writes as a full disk does.
void expect_disk_full_marks_the_run(const std::vector<std::string>& command) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_EQ(run_cli({"run", "-q", "--instances", "3", "--db", db, "--", "/bin/true"}).exit_code, 0);
  const auto size = fs::file_size(db);
  std::vector<std::string> args = {"run", "-q", "--db", db};
  args.insert(args.end(), command.begin(), command.end());
  const auto r = run_cli_limited(args, ChildLimits{.file_size_limit = size + 200 * 1024});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("benchguard: " + db + ": disk full: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("marked interrupted"), std::string::npos) << r.err;

  const auto runs = listed_runs(db);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["status"], "interrupted");
  EXPECT_GT(runs[0]["instances"].get<int64_t>(), 5);
  EXPECT_EQ(runs[1]["status"], "complete");  // earlier runs intact
  EXPECT_EQ(runs[1]["instances"], 3);
  const auto check = run_cli({"db", "check", "--db", db});
  EXPECT_EQ(check.exit_code, 0) << check.out;
}

TEST(CliInterrupted, AFullDiskGivesOneLineAndMarksTheRun) {
  // Instances committed one by one, and instances logged then committed in batches.
  ASSERT_NO_FATAL_FAILURE(
      expect_disk_full_marks_the_run({"--instances", "100000", "--", "/bin/sleep", "0.011"}));
  ASSERT_NO_FATAL_FAILURE(
      expect_disk_full_marks_the_run({"--instances", "1000000", "--", "/bin/true"}));
}

}  // namespace
}  // namespace benchguard
