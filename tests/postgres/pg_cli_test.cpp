// The CLI on a PostgreSQL database: run a suite into it, then runs, show, summary, compare,
// export, db status and db merge of a SQLite file, as with a file (BENCHGUARD_DB too).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "tests/postgres/pg_test_support.hpp"

namespace benchguard::store::testing {
namespace {

using benchguard::testing::helper;
using benchguard::testing::run_cli;
using benchguard::testing::TempDir;
using benchguard::testing::write_file;

class PgCliTest : public PgTest {};

std::string suite(const std::string& client) {
  return "name: pg-e2e\n"
         "instances: 3\n"
         "benchmarks:\n"
         "  - name: inproc\n"
         "    command: [" +
         client +
         ", \"5\"]\n"
         "    iterations: 4\n"
         "    burn_in: 1\n"
         "  - name: outside\n"
         "    command: [/bin/true]\n";
}

TEST_F(PgCliTest, RunThenReadEverythingBack) {
  TempDir dir;
  write_file(dir.file("s.yml"), suite(helper("client_bench")));
  const auto r = run_cli({"run", dir.file("s.yml"), "--label", "side=a", "--db", url()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("stored run"), std::string::npos) << r.err;
  const auto r2 = run_cli({"run", dir.file("s.yml"), "--label", "side=b", "--db", url()});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;

  const auto runs = run_cli({"runs", "--db", url()});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_NE(runs.out.find("complete"), std::string::npos) << runs.out;
  EXPECT_NE(runs.out.find("pg-e2e"), std::string::npos) << runs.out;

  const auto show = run_cli({"show", "--db", url(), "--format", "json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("inproc"), std::string::npos);

  const auto summary = run_cli({"summary", "--db", url()});
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("outside"), std::string::npos) << summary.out;

  // The two labelled runs.
  const auto compare = run_cli({"compare", "side=a", "side=b", "--db", url()});
  EXPECT_EQ(compare.exit_code, 0) << compare.err << compare.out;
  EXPECT_NE(compare.out.find("inproc"), std::string::npos) << compare.out;

  const auto exported = run_cli({"export", "--db", url(), "--format", "csv"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_GT(benchguard::testing::count_lines(exported.out), 15);

  const auto status = run_cli({"db", "status", "--db", url()});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("applied  0009 initial"), std::string::npos) << status.out;

  // A per-job SQLite file merged in, twice: the second time adds nothing.
  ASSERT_EQ(
      run_cli({"run", "--instances", "2", "--db", dir.file("job.db"), "--", "/bin/true"}).exit_code,
      0);
  const auto merged = run_cli({"db", "merge", dir.file("job.db"), "--db", url()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.out.find("1 run(s) added (2 instances)"), std::string::npos) << merged.out;
  const auto again = run_cli({"db", "merge", dir.file("job.db"), "--db", url()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("0 run(s) added"), std::string::npos) << again.out;

  // BENCHGUARD_DB selects it too.
  setenv("BENCHGUARD_DB", url().c_str(), 1);
  const auto by_env = run_cli({"runs"});
  unsetenv("BENCHGUARD_DB");
  ASSERT_EQ(by_env.exit_code, 0) << by_env.err;
  EXPECT_EQ(benchguard::testing::count_lines(by_env.out), 4) << by_env.out;  // header + 3 runs

  const auto check = run_cli({"db", "check", "--db", url()});
  EXPECT_EQ(check.exit_code, 0) << check.err << check.out;
  EXPECT_NE(check.out.find(": ok: "), std::string::npos) << check.out;
}

// `kill -9` of `benchguard run` mid-run: every instance that had finished is there, whole,
// the run reads as interrupted, and the database takes new runs.
TEST_F(PgCliTest, KillNineLosesAtMostTheInstanceInFlight) {
  ASSERT_EQ(run_cli({"db", "migrate", "--db", url()}).exit_code, 0);
  const auto stored = [&]() -> int64_t {
    auto conn = postgres::Conn::connect(url());
    if (!conn.ok()) return -1;
    auto n = (*conn)->query_int("SELECT COUNT(*) FROM instances");
    return n.ok() ? *n : -1;
  };
  // Short instances (the batched path) and longer ones.
  for (const char* sleep : {"0", "0.02"}) {
    SCOPED_TRACE(sleep);
    const int64_t before = stored();
    const int pid = benchguard::testing::start_cli(
        {"run", "--instances", "100000", "--db", url(), "--", "/bin/sleep", sleep});
    ASSERT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (stored() < before + 10 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    const int64_t after_kill = stored();
    ASSERT_GE(after_kill, before + 10);

    std::string seen;
    for (int attempt = 0; attempt < 100 && seen != "interrupted"; ++attempt) {
      auto reader = open_store(url(), {.read_only = true});
      ASSERT_TRUE(reader.ok()) << reader.error().message;
      auto run = (*reader)->load_run("latest");
      ASSERT_TRUE(run.ok()) << run.error().message;
      seen = run->run.status;
      if (seen != "interrupted") {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      // A statement the server had received before the kill may still have committed; once
      // the writer's session has ended (its lock free: interrupted) nothing changes.
      const int64_t final_count = stored();
      EXPECT_LE(final_count - after_kill, 1);
      ASSERT_EQ(run->variants.size(), 1u);
      EXPECT_EQ(static_cast<int64_t>(run->variants[0].instances.size()), final_count - before);
      for (size_t k = 0; k < run->variants[0].instances.size(); ++k) {
        const auto& in = run->variants[0].instances[k];
        EXPECT_EQ(in.index, static_cast<int>(k));  // no gaps
        ASSERT_EQ(in.iterations.size(), 1u);
        EXPECT_TRUE(in.ok()) << in.failure;
      }
    }
    EXPECT_EQ(seen, "interrupted");
  }
  const auto runs = run_cli({"runs", "--db", url()});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_NE(runs.out.find("interrupted"), std::string::npos) << runs.out;
  EXPECT_EQ(run_cli({"run", "--instances", "1", "--db", url(), "--", "/bin/true"}).exit_code, 0);
}

// The server ends the writer's session mid-run, as a restart or an administrator's
// pg_terminate_backend does: `run` stops with one clear line and a non-zero exit instead of
// hanging or carrying on, and the run reads as interrupted with every instance it finished.
TEST_F(PgCliTest, SessionEndedMidRunGivesOneLineAndAnInterruptedRun) {
  ASSERT_EQ(run_cli({"db", "migrate", "--db", url()}).exit_code, 0);
  auto running = std::async(std::launch::async, [&] {
    return run_cli({"run", "--instances", "100000", "--db", url(), "--", "/bin/sleep", "0.02"});
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (pg_count(url(), "SELECT COUNT(*) FROM instances") < 10 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_GE(pg_count(url(), "SELECT COUNT(*) FROM instances"), 10);
  ASSERT_EQ(pg_count(url(),
                     "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND pid <> pg_backend_pid()) AS t"),
            1);
  ASSERT_EQ(running.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "run went on after its connection ended";
  const auto r = running.get();
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(benchguard::testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("server closed the connection unexpectedly This probably"),
            std::string::npos)
      << r.err;

  auto reader = open_store(url(), {.read_only = true});
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto run = (*reader)->load_run("latest");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->run.status, "interrupted");
  ASSERT_EQ(run->variants.size(), 1u);
  const auto& instances = run->variants[0].instances;
  EXPECT_EQ(static_cast<int64_t>(instances.size()),
            pg_count(url(), "SELECT COUNT(*) FROM instances"));
  for (size_t k = 0; k < instances.size(); ++k) EXPECT_EQ(instances[k].index, static_cast<int>(k));
}

// The server itself restarted mid-run (pg_server.sh restart: a fast shutdown ends every
// session, then it starts again): the same as above, and the database takes new runs after.
// Its own ctest entry (postgres.restart), which no other test of the server runs beside.
TEST_F(PgCliTest, ServerRestartedMidRunGivesOneLineAndAnInterruptedRun) {
  const char* dir = std::getenv("BENCHGUARD_TEST_PG_DIR");
  if (dir == nullptr)
    GTEST_SKIP() << "BENCHGUARD_TEST_PG_DIR is not set (ctest -R postgres.restart)";
  ASSERT_EQ(run_cli({"db", "migrate", "--db", url()}).exit_code, 0);
  auto running = std::async(std::launch::async, [&] {
    return run_cli({"run", "--instances", "100000", "--db", url(), "--", "/bin/sleep", "0.02"});
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (pg_count(url(), "SELECT COUNT(*) FROM instances") < 10 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_GE(pg_count(url(), "SELECT COUNT(*) FROM instances"), 10);
  const auto restarted = benchguard::testing::run_program(
      {"/bin/bash", std::string(BG_SOURCE_DIR) + "/tests/postgres/pg_server.sh", "restart", dir},
      {});
  ASSERT_EQ(restarted.exit_code, 0) << restarted.out << restarted.err;
  ASSERT_EQ(running.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "run went on after the server restarted";
  const auto r = running.get();
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(benchguard::testing::count_lines(r.err), 1) << r.err;

  auto reader = open_store(url(), {.read_only = true});
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto run = (*reader)->load_run("latest");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->run.status, "interrupted");
  ASSERT_EQ(run->variants.size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(run->variants[0].instances.size()),
            pg_count(url(), "SELECT COUNT(*) FROM instances"));
  const auto next = run_cli({"run", "--instances", "2", "--db", url(), "--", "/bin/true"});
  EXPECT_EQ(next.exit_code, 0) << next.err;
  const auto runs = run_cli({"runs", "--db", url()});
  EXPECT_NE(runs.out.find("interrupted"), std::string::npos) << runs.out;
  EXPECT_NE(runs.out.find("complete"), std::string::npos) << runs.out;
}

// A password in the URL is never printed: not in what commands say about the database, not in
// their errors.
TEST_F(PgCliTest, APasswordInTheUrlIsNeverPrinted) {
  if (pg_count(url(), "SELECT COUNT(*) FROM pg_roles WHERE rolname = 'bg_pw'") != 1)
    GTEST_SKIP() << "no role bg_pw: the server was not started by tests/postgres/pg_server.sh";
  ASSERT_TRUE(raw()->exec("ALTER DATABASE " + db_ + " OWNER TO bg_pw").ok());
  const std::string secret = "bg-pw-s3cret";
  const std::string server = pg_server_url();
  const std::string host =
      server.substr(server.find("host="), server.find('&') - server.find("host="));
  const std::string with_password = "postgresql://bg_pw:" + secret + "@/" + db_ + "?" + host;
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--instances", "2", "--db", with_password, "--", "/bin/true"},
      {"runs", "--db", with_password},
      {"db", "status", "--db", with_password},
      {"db", "check", "--db", with_password},
      {"db", "check", "--db", with_password, "--format", "json"},
      {"compare", "side=a", "side=b", "--db", with_password},  // fails: no such labels
      {"show", "--db", with_password},
      {"summary", "--db", with_password},
      {"export", "--format", "json", "--db", with_password},
      {"history", "--db", with_password},
      {"detect", "--db", with_password},
      {"runs", "--db", "postgresql://bg_pw:wr0ng-" + secret + "@/" + db_ + "?" + host}};
  bool masked = false;
  auto check = [&](const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    SCOPED_TRACE(args[0] + " " + args[1]);
    EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(secret), std::string::npos) << r.err;
    masked = masked || (r.out + r.err).find("bg_pw:***@") != std::string::npos;
    return r;
  };
  for (const auto& args : commands) check(args);
  EXPECT_TRUE(masked);

  // The cluster commands: submit refuses to keep the password in a job folder; status and
  // collect of a job whose tasks ran by hand show the location masked, and no file of the job
  // folder holds the password.
  TempDir dir;
  write_file(dir.file("s.yml"),
             "instances: 2\nbenchmarks:\n  - name: t\n    command: [/bin/true]\n");
  const auto refused = check({"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--job-dir",
                              dir.file("refused"), "--db", with_password});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("holds a password"), std::string::npos) << refused.err;
  const auto sub = run_cli({"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--tasks", "1",
                            "--job-dir", dir.file("job"), "--db", dir.file("tasks.db")});
  ASSERT_EQ(sub.exit_code, 0) << sub.err;
  ASSERT_EQ(run_cli({"task", dir.file("job"), "--task", "0"}).exit_code, 0);
  EXPECT_EQ(check({"status", dir.file("job"), "--db", with_password}).exit_code, 0);
  masked = false;
  const auto collected = check({"collect", dir.file("job"), "--db", with_password});
  EXPECT_EQ(collected.exit_code, 0) << collected.err;
  EXPECT_TRUE(masked) << collected.err;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (!entry.is_regular_file()) continue;
    EXPECT_EQ(benchguard::testing::read_file(entry.path().string()).find(secret), std::string::npos)
        << entry.path();
  }
}

// A password holding '?' and '#', which libpq reads up to the '@' before any '/': it
// connects, and is masked in every output, in the stored command line and on the dashboard;
// submit refuses to keep it; an sslpassword parameter is masked as well.
TEST_F(PgCliTest, APasswordWithQuestionMarkAndHashIsMaskedAsLibpqReadsIt) {
  if (pg_count(url(), "SELECT COUNT(*) FROM pg_roles WHERE rolname = 'bg_qh'") != 1)
    GTEST_SKIP() << "no role bg_qh: the server was not started by tests/postgres/pg_server.sh";
  ASSERT_TRUE(raw()->exec("ALTER DATABASE " + db_ + " OWNER TO bg_qh").ok());
  const std::string secret = "pa?ss#w0rd";
  const std::string server = pg_server_url();
  const std::string host =
      server.substr(server.find("host="), server.find('&') - server.find("host="));
  const std::string with_password = "postgresql://bg_qh:" + secret + "@/" + db_ + "?" + host;
  const std::string ssl = with_password + "&sslpassword=ssl-k3y-s3cret";
  TempDir dir;
  auto check = [&](const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    SCOPED_TRACE(args[0] + " " + args[1]);
    for (const std::string& s : {secret, std::string("ss#w0rd"), std::string("ssl-k3y-s3cret")}) {
      EXPECT_EQ(r.out.find(s), std::string::npos) << r.out;
      EXPECT_EQ(r.err.find(s), std::string::npos) << r.err;
    }
    return r;
  };
  const auto ran = check({"run", "--instances", "2", "--db", with_password, "--", "/bin/true"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.err.find("bg_qh:***@"), std::string::npos) << ran.err;  // "stored run ... in"
  ASSERT_EQ(check({"run", "--instances", "2", "--db=" + ssl, "--", "/bin/true"}).exit_code, 0);
  const auto exported = check({"export", "--format", "json", "--db", with_password});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("bg_qh:***@"), std::string::npos) << exported.out;
  EXPECT_NE(exported.out.find("sslpassword=***"), std::string::npos) << exported.out;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"runs", "--db", with_password},
           {"show", "--db", ssl},
           {"db", "status", "--db", with_password},
           {"report", "--html", dir.file("site"), "--db", with_password}}) {
    EXPECT_EQ(check(args).exit_code, 0);
  }
  const auto wrong = check({"runs", "--db", "postgresql://bg_qh:x?ss#w0rd@/" + db_ + "?" + host});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("bg_qh:***@"), std::string::npos) << wrong.err;
  // The stored command lines hold the mask, never the secret.
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs WHERE command_line LIKE '%bg_qh:***@%'"), 2);
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs WHERE command_line LIKE '%w0rd%' OR command_line "
                  "LIKE '%k3y%'"),
            0);
  // A URL libpq cannot read is refused, its secret unshown.
  const auto unreadable =
      check({"runs", "--db", "postgresql://bg_qh:ss#w0rd%zz@/" + db_ + "?" + host});
  EXPECT_EQ(unreadable.exit_code, 2);
  EXPECT_NE(unreadable.err.find("libpq cannot read"), std::string::npos) << unreadable.err;

  write_file(dir.file("s.yml"),
             "instances: 2\nbenchmarks:\n  - name: t\n    command: [/bin/true]\n");
  for (const std::string& db : {with_password, ssl}) {
    const auto refused = check({"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--job-dir",
                                dir.file("refused"), "--db", db});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("holds a password"), std::string::npos) << refused.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("refused")));
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (!entry.is_regular_file()) continue;
    const std::string text = benchguard::testing::read_file(entry.path().string());
    EXPECT_EQ(text.find("ss#w0rd"), std::string::npos) << entry.path();
    EXPECT_EQ(text.find("k3y-s3cret"), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace benchguard::store::testing
