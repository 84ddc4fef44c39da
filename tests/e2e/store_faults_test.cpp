// Every write point of the commands that write the SQLite store, failed on purpose (the way
// SQLite's own tests inject I/O errors): for N = 1, 2, 3 ... the Nth write, truncate or sync of
// a command fails (and, as a full disk does, every one after it), until the command completes
// without reaching N. After each failure: the command failed with one line naming the
// database and the cause, `db check` passes, everything stored before is still there, nothing
// half-written is visible as complete, and the same command then succeeds.
//
// The CLI runs in this process (cli::run) so that SQLite opens its files through the faulty
// VFS (support/fault_vfs.hpp). Each sweep prints its count of failure points.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"
#include "support/fault_vfs.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using testing::Fault;
using testing::FaultVfs;
using testing::TempDir;

using FaultOutcome = testing::CliResult;

FaultOutcome cli(const std::vector<std::string>& args) {
  return testing::run_cli_in_process(args);
}

// One number from the database, read with SQLite alone (no store opened, nothing replayed or
// migrated) in a copy of the file with its -wal and -journal: what the next writer finds, hot
// journal rolled back, without touching the file itself; -1 when the query fails.
int64_t count(const std::string& db, const std::string& sql) {
  TempDir copy;
  const std::string path = copy.file("copy.db");
  std::error_code ec;
  for (const std::string suffix : {"", "-wal", "-journal"})
    if (fs::exists(db + suffix, ec)) fs::copy_file(db + suffix, path + suffix, ec);
  sqlite3* h = nullptr;
  int64_t n = -1;
  if (sqlite3_open_v2(path.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return n;
}

// The lines of `err` that are not notes or warnings.
std::vector<std::string> fault_error_lines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.find("note:") == std::string::npos && line.find("warning:") == std::string::npos)
      lines.push_back(line);
  return lines;
}

enum class State { kBefore, kAfter, kEither };

// Whether `state` is the one after the command, `finished` telling it when it may be either.
bool is_after(State state, bool finished) {
  return state == State::kAfter || (state == State::kEither && finished);
}

struct Operation {
  std::string name;
  // Builds the state before the command in `dir` (the database at dir/bg.db).
  std::function<void(const TempDir& dir)> prepare;
  std::function<std::vector<std::string>(const TempDir& dir)> command;
  // What must hold, beside db check: the state before the command (it failed), after it (it
  // succeeded), or either one whole (it was killed: before its commit or after).
  std::function<void(const TempDir& dir, State state)> check;
};

struct SweepResult {
  long points = 0;    // write-side calls the command makes
  long failed = 0;    // failures that failed the command
  long absorbed = 0;  // failures after the data was committed, which the command survives
  std::string first_error;
};

// Sweeps N for one operation and fault.
SweepResult sweep(const Operation& op, Fault fault, bool persistent) {
  FaultVfs::install();
  SweepResult r;
  const long limit = 2000;
  for (long n = 1; n <= limit; ++n) {
    TempDir dir;
    op.prepare(dir);
    const std::string db = dir.file("bg.db");
    FaultVfs::arm(n, fault, persistent);
    const FaultOutcome o = cli(op.command(dir));
    const bool fired = FaultVfs::disarm();
    SCOPED_TRACE(op.name + ", write point " + std::to_string(n) + ": " + o.err);
    if (o.exit_code == 0) {
      // Succeeded: then whatever failed came after the commit (a checkpoint, a journal
      // truncated), and the result must be whole.
      op.check(dir, State::kAfter);
      const FaultOutcome check = cli({"db", "check", "--db", db});
      EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
      if (!fired) {
        r.points = n - 1;
        return r;
      }
      ++r.absorbed;
      continue;
    }
    EXPECT_TRUE(fired) << "the command failed without a fault";
    ++r.failed;
    const auto lines = fault_error_lines(o.err);
    EXPECT_EQ(lines.size(), 1u);
    if (!lines.empty()) {
      const std::string& line = lines.front();
      if (r.first_error.empty()) r.first_error = line;
      EXPECT_NE(line.find("bg.db"), std::string::npos) << "the error does not name the file";
      const bool cause = line.find("disk I/O error") != std::string::npos ||
                         line.find("database or disk is full") != std::string::npos;
      EXPECT_TRUE(cause) << "the error does not say the cause";
    }
    const FaultOutcome check = cli({"db", "check", "--db", db});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    op.check(dir, State::kBefore);
    const FaultOutcome again = cli(op.command(dir));
    EXPECT_EQ(again.exit_code, 0) << "the next command failed: " << again.err;
    if (::testing::Test::HasFailure()) return r;
  }
  ADD_FAILURE() << op.name << " still reached the fault after " << limit << " write points";
  return r;
}

// The same sweep with the process killed (SIGKILL) just before its Nth write-side call: the
// command runs in bg_fault_cli (support/fault_cli.cpp), whose SQLite files go through the
// VFS; the checks after it run here. Returns the number of points.
long kill_sweep(const Operation& op) {
  const long limit = 2000;
  for (long n = 1; n <= limit; ++n) {
    TempDir dir;
    op.prepare(dir);
    const std::string db = dir.file("bg.db");
    std::vector<std::string> argv{testing::helper("fault_cli")};
    for (const auto& a : op.command(dir)) argv.push_back(a);
    const auto r = testing::run_program(argv, {"BG_FAULT_KILL_AT=" + std::to_string(n)});
    SCOPED_TRACE(op.name + ", killed before write point " + std::to_string(n) + ": " + r.err);
    if (r.exit_code == 0) {
      op.check(dir, State::kAfter);
      return n - 1;
    }
    EXPECT_EQ(r.exit_code, 128 + SIGKILL) << "it failed without being killed";
    const FaultOutcome check = cli({"db", "check", "--db", db});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    op.check(dir, State::kEither);
    const FaultOutcome again = cli(op.command(dir));
    EXPECT_EQ(again.exit_code, 0) << "the next command failed: " << again.err;
    if (::testing::Test::HasFailure()) return -n;
  }
  ADD_FAILURE() << op.name << " still reached the kill after " << limit << " write points";
  return -limit;
}

void report(const std::string& name, const SweepResult& r) {
  std::printf(
      "fault sweep: %-12s %3ld write points: %3ld failed the command cleanly, %ld came after "
      "the commit\n",
      name.c_str(), r.points, r.failed, r.absorbed);
  std::printf("  first error: %s\n", r.first_error.c_str());
  EXPECT_GT(r.failed, 0);
}

// A database holding one complete run of 2 instances of /bin/true.
void seed_run(const TempDir& dir) {
  const FaultOutcome o = cli({"run", "--db", dir.file("bg.db"), "--instances", "2", "--no-counters",
                              "--name", "seed", "--", "/bin/true"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
}

const char* const kComplete = "SELECT COUNT(*) FROM runs WHERE status = 'complete'";
const char* const kSeedInstances =
    "SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id JOIN benchmarks b "
    "ON b.id = v.benchmark_id WHERE b.name = 'seed'";

Operation run_op() {
  return {"run", seed_run,
          [](const TempDir& dir) {
            return std::vector<std::string>{
                "run",  "--db", dir.file("bg.db"), "--instances", "3", "--no-counters", "--name",
                "work", "--",   "/bin/true"};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            EXPECT_EQ(count(db, kSeedInstances), 2);
            // A failed run is not complete; a complete one holds all its instances.
            const bool after = is_after(state, count(db, kComplete) == 2);
            EXPECT_EQ(count(db, kComplete), after ? 2 : 1);
            const int64_t work = count(
                db,
                "SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id JOIN "
                "benchmarks b ON b.id = v.benchmark_id JOIN runs r ON r.id = v.run_id WHERE "
                "b.name = 'work' AND r.status = 'complete'");
            EXPECT_TRUE(work == 0 || work == 3) << work << " instances in a complete run";
          }};
}

// A complete run of `instances` instances of /bin/true, benchmark `name`, into `db`.
void store_run(const std::string& db, const std::string& name, int instances) {
  const FaultOutcome o = cli({"run", "--db", db, "--instances", std::to_string(instances),
                              "--no-counters", "--name", name, "--", "/bin/true"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
}

std::string instances_of(const std::string& benchmark) {
  return "SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id JOIN "
         "benchmarks b ON b.id = v.benchmark_id WHERE b.name = '" +
         benchmark + "'";
}

// The seed run untouched, and the command's one new run there whole (its `instances` of
// `benchmark`) or not at all.
void expect_seed_and_new_run(const std::string& db, State state, const std::string& benchmark,
                             int64_t instances) {
  EXPECT_EQ(count(db, kSeedInstances), 2);
  const int64_t runs = count(db, "SELECT COUNT(*) FROM runs");
  const bool after = is_after(state, runs == 2);
  EXPECT_EQ(runs, after ? 2 : 1);
  EXPECT_EQ(count(db, instances_of(benchmark)), after ? instances : 0);
}

Operation import_op() {
  return {"import", seed_run,
          [](const TempDir& dir) {
            return std::vector<std::string>{
                "import", "--db", dir.file("bg.db"),
                std::string(BG_SOURCE_DIR) + "/tests/data/ingest/hyperfine-two.json"};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            EXPECT_EQ(count(db, kSeedInstances), 2);
            // The imported run is all there or absent.
            const int64_t runs = count(db, "SELECT COUNT(*) FROM runs");
            EXPECT_EQ(runs, is_after(state, runs == 2) ? 2 : 1);
          }};
}

Operation merge_op() {
  return {"merge",
          [](const TempDir& dir) {
            seed_run(dir);
            store_run(dir.file("other.db"), "other", 3);
          },
          [](const TempDir& dir) {
            return std::vector<std::string>{"db", "merge", "--db", dir.file("bg.db"),
                                            dir.file("other.db")};
          },
          [](const TempDir& dir, State state) {
            expect_seed_and_new_run(dir.file("bg.db"), state, "other", 3);
            EXPECT_EQ(count(dir.file("other.db"), instances_of("other")), 3);
          }};
}

Operation prune_op() {
  return {"prune",
          [](const TempDir& dir) {
            seed_run(dir);
            store_run(dir.file("bg.db"), "keep", 2);
          },
          [](const TempDir& dir) {
            return std::vector<std::string>{"db",          "prune", "--db", dir.file("bg.db"),
                                            "--benchmark", "seed"};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            // All of the benchmark's data or none of it; the other benchmark untouched.
            const int64_t seed = count(db, kSeedInstances);
            EXPECT_EQ(seed, is_after(state, seed == 0) ? 0 : 2);
            EXPECT_EQ(count(db, instances_of("keep")), 2);
          }};
}

// `db migrate` of the version-1 database's data at schema version `from` (1 .. latest - 1).
Operation migrate_op(int from = 1) {
  return {"migrate",
          [from](const TempDir& dir) {
            store::testing::make_version1_database(dir.file("bg.db"));
            if (from == 1) return;
            auto db = store::testing::raw_db(dir.file("bg.db"));
            ASSERT_TRUE(db);
            auto migrated = store::sqlite::apply_migrations(*db, from);
            ASSERT_TRUE(migrated.ok()) << migrated.error().message;
          },
          [](const TempDir& dir) {
            return std::vector<std::string>{"db", "migrate", "--db", dir.file("bg.db")};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            const int64_t version = count(db, "PRAGMA user_version");
            if (state == State::kAfter) {
              EXPECT_EQ(version, count(db, "SELECT MAX(version) FROM schema_migrations"));
            }
            EXPECT_GE(version, 1);
            // The version-1 run and its instance, at whatever version the file stopped.
            EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs WHERE status = 'complete'"), 1);
            EXPECT_EQ(count(db, "SELECT COUNT(*) FROM instances"), 1);
          }};
}

// A history of 20 commits of 2 benchmarks, benchmark 0 10% slower from commit 12 on
// (support/history_fixture.hpp), made once per process and copied to `db`; `detected`: with
// the change points `detect` found stored.
void copy_history(const std::string& db, bool detected) {
  static const std::string made = [] {
    static TempDir keep;
    const std::string path = keep.file("history.db");
    {
      auto store = store::open_store(path);
      EXPECT_TRUE(store.ok()) << store.error().message;
      std::vector<RunData> runs;
      for (int k = 0; k < 20; ++k) runs.push_back(testing::history_run(k, 20, 2, 4, 5, false));
      auto ids = (*store)->add_runs(runs, {});
      EXPECT_TRUE(ids.ok()) << ids.error().message;
    }
    const std::string with = keep.file("detected.db");
    fs::copy_file(path, with);
    const FaultOutcome o = cli({"detect", "--metric", "wall_time", "--db", with});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return path;
  }();
  const fs::path from = fs::path(made).parent_path() / (detected ? "detected.db" : "history.db");
  fs::copy_file(from, db);
}

const char* const kChanges = "SELECT COUNT(*) FROM change_points";

Operation detect_op() {
  return {"detect", [](const TempDir& dir) { copy_history(dir.file("bg.db"), false); },
          [](const TempDir& dir) {
            return std::vector<std::string>{"detect", "--metric", "wall_time", "--db",
                                            dir.file("bg.db")};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            EXPECT_EQ(count(db, "SELECT COUNT(*) FROM runs"), 20);
            // The stored results are all there or none: each series examined has its row.
            const int64_t series = count(db, "SELECT COUNT(*) FROM history_series");
            const bool after = is_after(state, series > 0);
            EXPECT_EQ(series > 0, after);
            EXPECT_EQ(count(db, kChanges) > 0, after);
          }};
}

Operation ack_op() {
  return {"ack", [](const TempDir& dir) { copy_history(dir.file("bg.db"), true); },
          [](const TempDir& dir) {
            const std::string db = dir.file("bg.db");
            sqlite3* h = nullptr;
            std::string id;
            if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
              sqlite3_stmt* st = nullptr;
              if (sqlite3_prepare_v2(h, "SELECT change_id FROM change_points LIMIT 1", -1, &st,
                                     nullptr) == SQLITE_OK &&
                  sqlite3_step(st) == SQLITE_ROW)
                id = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
              sqlite3_finalize(st);
            }
            sqlite3_close(h);
            return std::vector<std::string>{"ack", id, "--reason", "expected", "--db", db};
          },
          [](const TempDir& dir, State state) {
            const std::string db = dir.file("bg.db");
            EXPECT_GT(count(db, kChanges), 0);
            const int64_t acks = count(db, "SELECT COUNT(*) FROM change_acks");
            EXPECT_EQ(acks, is_after(state, acks == 1) ? 1 : 0);
          }};
}

// A job of 3 tasks on 4 instances of /bin/true (`submit --dry-run`, each task run here),
// made once per process and copied to dir/job: `collect` joins it into one run.
std::string made_job() {
  static const std::string made = [] {
    static TempDir keep;
    testing::write_file(keep.file("s.yml"),
                        "name: faults\ninstances: 4\nbenchmarks:\n"
                        "  - name: collected\n    command: [/bin/true]\n");
    const FaultOutcome s = cli({"submit", keep.file("s.yml"), "--slurm", "--dry-run", "--tasks",
                                "3", "--seed", "5", "--job-dir", keep.file("job")});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    for (int t = 0; t < 3; ++t) {
      const FaultOutcome o = cli({"task", keep.file("job"), "--task", std::to_string(t)});
      EXPECT_EQ(o.exit_code, 0) << o.err;
    }
    return keep.file("job");
  }();
  return made;
}

Operation collect_op() {
  return {"collect",
          [](const TempDir& dir) {
            fs::copy(made_job(), dir.file("job"), fs::copy_options::recursive);
            seed_run(dir);
          },
          [](const TempDir& dir) {
            return std::vector<std::string>{"--db", dir.file("bg.db"), "collect", dir.file("job")};
          },
          [](const TempDir& dir, State state) {
            expect_seed_and_new_run(dir.file("bg.db"), state, "collected", 4);
          }};
}

TEST(StoreFaults, EveryWriteOfARunFailsCleanly) {
  report("run", sweep(run_op(), Fault::kIoError, /*persistent=*/false));
}

TEST(StoreFaults, ADiskThatStaysFullFailsARunCleanly) {
  report("run/full", sweep(run_op(), Fault::kDiskFull, /*persistent=*/true));
}

// Files in dir whose name holds ".creating-": what a creation of a database worked in.
int creation_leftovers(const TempDir& dir) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    if (entry.path().filename().string().find(".creating-") != std::string::npos) ++n;
  return n;
}

// The first run into a database that does not exist yet: a failure at any write point of
// making it leaves no database file (nor the file it was made in), a kill leaves none or a
// whole one, and the next run makes it.
TEST(StoreFaults, EveryWriteOfANewDatabaseFailsCleanly) {
  FaultVfs::install();
  const auto command = [](const TempDir& dir) {
    return std::vector<std::string>{"run", "--db",          dir.file("bg.db"), "--instances",
                                    "2",   "--no-counters", "--name",          "first",
                                    "--",  "/bin/true"};
  };
  const int latest = store::sqlite::latest_schema_version();
  long points = 0, no_file = 0;
  for (long n = 1; n <= 2000 && points == 0; ++n) {
    TempDir dir;
    const std::string db = dir.file("bg.db");
    FaultVfs::arm(n, Fault::kIoError, /*persistent=*/false);
    const FaultOutcome o = cli(command(dir));
    const bool fired = FaultVfs::disarm();
    SCOPED_TRACE("write point " + std::to_string(n) + ": " + o.err);
    if (!fired) {
      ASSERT_EQ(o.exit_code, 0);
      points = n - 1;
    }
    if (o.exit_code == 0) {
      EXPECT_EQ(count(db, "PRAGMA user_version"), latest);
      EXPECT_EQ(count(db, instances_of("first")), 2);
    } else if (!fs::exists(db)) {
      ++no_file;
      const auto lines = fault_error_lines(o.err);
      ASSERT_EQ(lines.size(), 1u);
      EXPECT_NE(lines.front().find("bg.db"), std::string::npos);
    } else {
      // Made, and the run failed after: the database is whole and holds no complete run.
      EXPECT_EQ(count(db, "PRAGMA user_version"), latest);
      EXPECT_EQ(count(db, kComplete), 0);
    }
    EXPECT_EQ(creation_leftovers(dir), 0);
    const FaultOutcome again = cli(command(dir));
    EXPECT_EQ(again.exit_code, 0) << "the next run failed: " << again.err;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(points, 0);
  // Killed at each write point of making the database and a few after it (the run's own
  // writes into a database that exists are run_op's kill sweep).
  long killed = 0;
  int absent = 0, leftovers = 0, whole = 0;
  for (long n = 1; n <= points && whole < 3; ++n) {
    TempDir dir;
    const std::string db = dir.file("bg.db");
    std::vector<std::string> argv{testing::helper("fault_cli")};
    for (const auto& a : command(dir)) argv.push_back(a);
    const auto r = testing::run_program(argv, {"BG_FAULT_KILL_AT=" + std::to_string(n)});
    SCOPED_TRACE("killed before write point " + std::to_string(n) + ": " + r.err);
    if (r.exit_code == 0) break;
    EXPECT_EQ(r.exit_code, 128 + SIGKILL);
    ++killed;
    if (fs::exists(db)) {
      ++whole;
      EXPECT_EQ(count(db, "PRAGMA user_version"), latest);
      const FaultOutcome check = cli({"db", "check", "--db", db});
      EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    } else {
      ++absent;
    }
    leftovers += creation_leftovers(dir);
    const FaultOutcome again = cli(command(dir));
    EXPECT_EQ(again.exit_code, 0) << "the next run failed: " << again.err;
    // The next creation removes what a killed one left.
    EXPECT_EQ(creation_leftovers(dir), 0);
    if (::testing::Test::HasFailure()) return;
  }
  std::printf(
      "fault sweep: new database %ld write points failed cleanly (%ld left no database); killed "
      "at the first %ld: %d left no database, the rest a whole one; %d files a creation worked "
      "in were left, and removed by the next\n",
      points, no_file, killed, absent, leftovers);
}

}  // namespace
}  // namespace benchguard

namespace benchguard {
namespace {

TEST(StoreFaults, EveryWriteOfAnImportFailsCleanly) {
  report("import", sweep(import_op(), Fault::kIoError, /*persistent=*/false));
}

TEST(StoreFaults, EveryWriteOfAMergeFailsCleanly) {
  report("merge", sweep(merge_op(), Fault::kIoError, /*persistent=*/false));
}

TEST(StoreFaults, EveryWriteOfAPruneFailsCleanly) {
  report("prune", sweep(prune_op(), Fault::kIoError, /*persistent=*/false));
}

TEST(StoreFaults, EveryWriteOfAMigrationFromVersion1FailsCleanly) {
  report("migrate", sweep(migrate_op(), Fault::kIoError, /*persistent=*/false));
}

// Every older version, in three tests so that none runs long (each new migration adds a sweep
// and write points to every older one's).
void migration_sweeps(int from, int to) {
  for (; from < std::min(to, store::sqlite::latest_schema_version()); ++from)
    report("migrate/v" + std::to_string(from),
           sweep(migrate_op(from), Fault::kIoError, /*persistent=*/false));
}

TEST(StoreFaults, EveryWriteOfAMigrationFromVersions2To5FailsCleanly) {
  migration_sweeps(2, 6);
}

TEST(StoreFaults, EveryWriteOfAMigrationFromVersions6To9FailsCleanly) {
  migration_sweeps(6, 10);
}

TEST(StoreFaults, EveryWriteOfAMigrationFromVersion10OnFailsCleanly) {
  migration_sweeps(10, 1000);
}

TEST(StoreFaults, EveryWriteOfACollectFailsCleanly) {
  report("collect", sweep(collect_op(), Fault::kIoError, /*persistent=*/false));
  report("collect/full", sweep(collect_op(), Fault::kDiskFull, /*persistent=*/true));
}

TEST(StoreFaults, EveryWriteOfDetectAndAckFailsCleanly) {
  report("detect", sweep(detect_op(), Fault::kIoError, /*persistent=*/false));
  report("ack", sweep(ack_op(), Fault::kIoError, /*persistent=*/false));
  report("detect/full", sweep(detect_op(), Fault::kDiskFull, /*persistent=*/true));
  report("ack/full", sweep(ack_op(), Fault::kDiskFull, /*persistent=*/true));
}

TEST(StoreFaults, ADiskThatStaysFullFailsEveryWriterCleanly) {
  report("import/full", sweep(import_op(), Fault::kDiskFull, /*persistent=*/true));
  report("merge/full", sweep(merge_op(), Fault::kDiskFull, /*persistent=*/true));
  report("prune/full", sweep(prune_op(), Fault::kDiskFull, /*persistent=*/true));
  report("migrate/full", sweep(migrate_op(), Fault::kDiskFull, /*persistent=*/true));
}

// Each command killed at each of its write points; one test per few commands, so that none
// runs long (under ASan a kill sweep takes a second or more a point).
void kill_sweeps(const std::vector<Operation>& ops) {
  for (const auto& op : ops) {
    const long points = kill_sweep(op);
    std::printf("kill sweep: %-8s killed at each of %ld write points, each survived\n",
                op.name.c_str(), points);
    EXPECT_GT(points, 0);
  }
}

TEST(StoreFaults, AKillAtEveryWritePointOfRunOrImportLosesNothingStored) {
  kill_sweeps({run_op(), import_op()});
}

TEST(StoreFaults, AKillAtEveryWritePointOfMergeOrPruneLosesNothingStored) {
  kill_sweeps({merge_op(), prune_op()});
}

TEST(StoreFaults, AKillAtEveryWritePointOfAMigrationLosesNothingStored) {
  kill_sweeps({migrate_op()});
}

TEST(StoreFaults, AKillAtEveryWritePointOfDetectAckOrCollectLosesNothingStored) {
  kill_sweeps({detect_op(), ack_op(), collect_op()});
}

}  // namespace
}  // namespace benchguard
