// Input written to mislead: names that would drive a terminal, endless files. Each is one
// escaped line on standard error, exit code 2, and the database keeps what it held.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string seeded_db(const TempDir& dir) {
  const std::string db = dir.file("bg.db");
  const auto r = run_cli({"run", "--instances", "2", "--db", db, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

size_t runs_in(const std::string& db) {
  auto store = store::open_store(db);
  if (!store.ok()) return 0;
  auto runs = (*store)->list_runs();
  return runs.ok() ? runs->size() : 0;
}

// One line, and no control byte in it but its newline.
void expect_clean_line(const std::string& err) {
  EXPECT_EQ(testing::count_lines(err), 1) << err;
  const auto control = std::find_if(err.begin(), err.end() - 1, [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
  EXPECT_EQ(control, err.end() - 1) << "raw control byte in: " << err;
}

TEST(CliHostile, ALabelWithAnEscapeSequenceIsRefused) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  const auto r = run_cli({"run", "--label", "note=\x1b[2J\x1b]0;owned\x07", "--instances", "1",
                          "--db", db, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  expect_clean_line(r.err);
  EXPECT_NE(r.err.find("--label note value \"\\x1b[2J"), std::string::npos) << r.err;
  EXPECT_EQ(runs_in(db), 1u);
}

TEST(CliHostile, ABenchmarkNameWithANewlineIsRefused) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  const auto r = run_cli(
      {"run", "--name", "x\n| forged | row |", "--instances", "1", "--db", db, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  expect_clean_line(r.err);
  EXPECT_NE(r.err.find("benchmark name \"x\\x0a| forged | row |\""), std::string::npos) << r.err;
  EXPECT_EQ(runs_in(db), 1u);
}

TEST(CliHostile, ErrorsEchoingASuiteShowItsControlCharactersEscaped) {
  TempDir dir;
  // An unknown key holding an escape: the error quotes the key.
  write_file(dir.file("s.yml"),
             "benchmarks:\n  - name: x\n    \"comand\\e[31m\": [/bin/true]\n    command: [x]\n");
  const auto r = run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db")});
  EXPECT_EQ(r.exit_code, 2);
  expect_clean_line(r.err);
  EXPECT_NE(r.err.find("\\x1b[31m"), std::string::npos) << r.err;
}

TEST(CliHostile, ImportOfAnEndlessDeviceEndsAtOnce) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  const auto r = run_cli({"import", "/dev/zero", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  expect_clean_line(r.err);
  EXPECT_NE(r.err.find("/dev/zero:1: byte 0x00 at column 1 is not text"), std::string::npos)
      << r.err;
  EXPECT_EQ(runs_in(db), 1u);
}

// A database written before names were checked (or merged from one) may hold any bytes:
// every reading command still ends normally and sends no control byte to the terminal.
TEST(CliHostile, NamesStoredBeforeTheyWereCheckedAreShownSafely) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  {
    auto store = store::open_store(db);
    ASSERT_TRUE(store.ok()) << store.error().message;
    RunData run;
    run.run.uuid = "0123456789abcdef";
    run.run.status = "complete";
    run.run.started_at = 1700000000000000000;
    run.run.finished_at = run.run.started_at + 1;
    run.run.labels = {{"note", "\x1b]0;owned\x07"}};
    VariantData v;
    v.variant.benchmark = "bad\xff\x1b[2J";
    v.variant.name = "default";
    for (int i = 0; i < 3; ++i) {
      InstanceRecord inst;
      inst.index = i;
      inst.exit_code = 0;
      IterationRecord it;
      it.metrics = {{"wall_time", 0.01 + 0.001 * i}};
      inst.iterations.push_back(it);
      v.instances.push_back(inst);
    }
    run.variants.push_back(v);
    ASSERT_TRUE((*store)->add_runs({run}, {}).ok());
  }
  for (const std::vector<std::string>& cmd : {std::vector<std::string>{"runs"},
                                              {"show"},
                                              {"summary"},
                                              {"export", "--format", "json"},
                                              {"export", "--format", "csv"},
                                              {"summary", "--format", "md"}}) {
    std::vector<std::string> args = cmd;
    args.insert(args.end(), {"--db", db});
    const auto r = run_cli(args);
    SCOPED_TRACE(cmd.front() + (cmd.size() > 1 ? " " + cmd.back() : ""));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  }
}

// Runs `sql` on the SQLite file `db` as someone else's tool would.
void tamper_with(const std::string& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(handle);
  ASSERT_EQ(rc, SQLITE_OK) << message;
}

// Someone else's database given to a command (compare, db merge) may hold views and triggers,
// code that would run as benchguard reads it: a recursive view in place of run_labels made
// `runs` hang. Such a file is refused at once, naming what it holds.
TEST(CliHostile, ADatabaseWithAViewOrTriggerIsRefusedNamingIt) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  tamper_with(db,
              "DROP TABLE run_labels; CREATE VIEW run_labels AS WITH RECURSIVE n(i) AS "
              "(SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS id, 1 AS run_id, 'k' AS key, "
              "'v' AS value FROM n;");
  const std::string fresh = dir.file("fresh.db");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"runs", "--db", db},
                                               {"show", "--db", db},
                                               {"db", "merge", db, "--db", fresh}}) {
    SCOPED_TRACE(args.front());
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_cli(args);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("view 'run_labels'"), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
  EXPECT_EQ(runs_in(fresh), 0u);

  const std::string triggered = dir.file("t.db");
  ASSERT_EQ(run_cli({"run", "--instances", "2", "--db", triggered, "--", "/bin/true"}).exit_code,
            0);
  tamper_with(triggered,
              "CREATE TRIGGER spy AFTER INSERT ON runs BEGIN DELETE FROM run_labels; END;");
  const auto r = run_cli({"run", "--instances", "2", "--db", triggered, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("trigger 'spy'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
