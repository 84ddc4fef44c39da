// ab and bisect end to end: a git repository of 32 commits whose benchmark's work grows by 10%
// at commit 19 and whose build fails at commit 7. The benchmark reports, through the iteration
// protocol, the cost its build copied out of cost.txt, with +-1% noise seeded per commit and
// instance: timings that do not depend on how busy the machine is.
//
// History from day one, on repositories of their own: `run SUITE --commits RANGE --build CMD`
// measures past commits, each built in its worktree, into the history as if CI had run them
// then (the commit, its time, its author); interrupted, the same command goes on where it
// stopped; a commit that does not build is a failed run that history leaves out; the gate says
// how many points it lacks and the command that measures them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::cost_suite;
using testing::count_lines;
using testing::git_commit_all;
using testing::git_init;
using testing::run_cli;
using testing::run_program;
using testing::sh;
using testing::TempDir;
using testing::write_file;

// What builds a commit: refuses where a file `broken` exists, copies the cost otherwise.
const char* const kBisectBuild = "test ! -e broken && cp cost.txt built-cost.txt";

// Commits 0..31: cost 10 ms before 19, 11 ms from 19 on; commit 7 does not build. Returns the
// hashes, oldest first.
std::vector<std::string> make_repository(const std::string& repo) {
  sh("git init -q -b main " + repo + " && git -C " + repo +
     " config user.email t@example.com && git -C " + repo + " config user.name t");
  write_file(repo + "/suite.yml", testing::cost_suite("bisect", 4));
  write_file(repo + "/.gitignore", "built-cost.txt\n");
  std::vector<std::string> hashes;
  for (int k = 0; k < 32; ++k) {
    write_file(repo + "/cost.txt", std::string(k >= 19 ? "0.011" : "0.010") + "\n");
    write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
    if (k == 7) write_file(repo + "/broken", "\n");
    if (k == 8) std::filesystem::remove(repo + "/broken");
    // One commit a minute apart, so commit times order them too.
    const std::string date =
        "2026-01-01T00:" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ":00Z";
    sh("cd " + repo + " && git add -A && GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date +
       " git commit -q -m c" + std::to_string(k));
    const std::string head = repo + "/head.txt";
    sh("git -C " + repo + " rev-parse HEAD > " + head);
    std::string h = testing::read_file(head);
    std::filesystem::remove(head);
    hashes.push_back(h.substr(0, h.find('\n')));
  }
  return hashes;
}

TEST(CliBisect, NamesCommit19InAtMostSevenStepsSkippingTheBrokenBuild) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = make_repository(repo);
  ASSERT_EQ(c.size(), 32u);
  const std::vector<std::string> args = {"--format", "json",       "bisect", "suite.yml", "--db",
                                         db,         "--good",     c[0],     "--bad",     c[31],
                                         "--build",  kBisectBuild, "--seed", "5"};
  const CliResult r = run_cli(args, repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(benchguard::testing::schema_problem(r.out), "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j["first_bad"], c[19]);
  EXPECT_EQ(j["parent"], c[18]);
  int measured = 0;
  for (const auto& s : j["steps"]) {
    if (s["commit"] == c[7]) {
      EXPECT_TRUE(s["skipped"].get<bool>());
    }
    if (!s["skipped"].get<bool>()) ++measured;
  }
  EXPECT_GE(measured, 3);
  EXPECT_LE(measured, 7);
  EXPECT_EQ(j["final_check"]["verdict"], "slower");
  const double ratio = j["final_check"]["ratio"];
  EXPECT_NEAR(ratio, 1.10, 0.01);

  // A rerun measures nothing again: every step and the final check come from the store.
  const CliResult again = run_cli(args, repo);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const json k = json::parse(again.out);
  EXPECT_EQ(k["first_bad"], c[19]);
  for (const auto& s : k["steps"]) EXPECT_EQ(s["rounds_run"], 0) << s.dump();
  EXPECT_EQ(k["steps"].size(), j["steps"].size());

  // Endpoints that do not differ are an error, not a culprit.
  const CliResult flat = run_cli(
      {"bisect", "suite.yml", "--db", db, "--good", c[5], "--bad", c[9], "--build", kBisectBuild},
      repo);
  EXPECT_EQ(flat.exit_code, 2);
  EXPECT_NE(flat.err.find("do not differ"), std::string::npos) << flat.err;
  // Commit 7, the middle of 6..8, was tried first: its build failed and the search went on.
  EXPECT_TRUE(std::filesystem::exists(repo + "/.git/benchguard/builds/" + c[7] + ".failed"));
}

// A change point that history found between two measured commits gives bisect its range,
// benchmark and metric; the issue report then names the culprit bisect found, with what its
// final check measured.
TEST(CliBisect, TakesItsRangeFromAChangePoint) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = make_repository(repo);
  ASSERT_EQ(c.size(), 32u);
  // History at every fourth commit, measured in the working tree.
  for (int k = 0; k < 32; k += 4) {
    sh("cd " + repo + " && git checkout -q " + c[k] + " && cp cost.txt built-cost.txt");
    const CliResult r = run_cli({"-q", "run", "suite.yml", "--db", db}, repo);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  sh("cd " + repo + " && git checkout -q main");
  CliResult r = run_cli({"detect", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json changes = json::parse(r.out)["changes"];
  ASSERT_EQ(changes.size(), 1u) << r.out;
  EXPECT_EQ(changes[0]["last_good"], c[16]);
  EXPECT_EQ(changes[0]["first_bad"], c[20]);
  const std::string id = changes[0]["id"];
  // Before the bisect: four commits in the range, the culprit not known yet, bisect suggested.
  // (The issue asks the repository of the working directory for the range.)
  const std::string unknown = "**Culprit**: not known yet";
  CliResult issue = run_cli({"report", "--issue", id, "--db", db}, repo);
  ASSERT_EQ(issue.exit_code, 0) << issue.err;
  EXPECT_NE(issue.out.find(unknown), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("(4 commits in the range)"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("benchguard bisect SUITE.yml --change"), std::string::npos) << issue.out;
  r = run_cli({"--format", "json", "bisect", "suite.yml", "--db", db, "--change", id.substr(0, 8),
               "--build", kBisectBuild},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["good"], c[16]);
  EXPECT_EQ(j["bad"], c[20]);
  EXPECT_EQ(j["benchmark"], "work");
  EXPECT_EQ(j["metric"], "wall_time");
  EXPECT_EQ(j["first_bad"], c[19]);
  // After it: the culprit, what its final check measured against its parent, and no more
  // bisect to run.
  issue = run_cli({"report", "--issue", id, "--db", db}, repo);
  ASSERT_EQ(issue.exit_code, 0) << issue.err;
  EXPECT_NE(issue.out.find("**Culprit**: `" + c[19] + "`, found by `bisect`: against its parent +"),
            std::string::npos)
      << issue.out;
  EXPECT_NE(issue.out.find(" (confirmed), run `"), std::string::npos) << issue.out;
  EXPECT_EQ(issue.out.find("benchguard bisect SUITE.yml --change"), std::string::npos) << issue.out;
  // Outside the repository the range cannot be asked for: no culprit named.
  issue = run_cli({"report", "--issue", id, "--db", db}, dir.path().string());
  ASSERT_EQ(issue.exit_code, 0) << issue.err;
  EXPECT_NE(issue.out.find(unknown), std::string::npos) << issue.out;
  // An unknown change point is one line that says where to look.
  r = run_cli({"bisect", "suite.yml", "--db", db, "--change", "ffffffffffff"}, repo);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("benchguard detect"), std::string::npos) << r.err;
}

TEST(CliAb, TwoRefsAndTheirNullControl) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = make_repository(repo);
  ASSERT_EQ(c.size(), 32u);
  const CliResult r =
      run_cli({"--format", "json", "ab", "suite.yml", "--db", db, "--ref", c[10], "--ref", "main",
               "--build", kBisectBuild, "--null", "--schedule", "randomized", "--seed", "3"},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(benchguard::testing::schema_problem(r.out), "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j["a"]["commit"], c[10]);
  EXPECT_EQ(j["b"]["commit"], c[31]);
  const auto& row = j["comparison"]["metrics"][0]["rows"][0];
  EXPECT_EQ(row["verdict"], "slower");
  EXPECT_NEAR(row["ratio"].get<double>(), 1.10, 0.01);
  const auto& aa = j["null"]["comparison"]["metrics"][0]["rows"][0];
  EXPECT_EQ(aa["verdict"], "unchanged");
  EXPECT_NEAR(aa["ratio"].get<double>(), 1.0, 0.01);
  // Commits and worktrees are stored with the run.
  const CliResult shown = run_cli({"export", j["run"], "--format", "json", "--db", db});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find(c[10]), std::string::npos);
  EXPECT_NE(shown.out.find(kBisectBuild), std::string::npos);

  // A ref that does not build: one line naming it and its log, nothing run.
  const CliResult broken = run_cli(
      {"ab", "suite.yml", "--db", db, "--ref", c[7], "--ref", "main", "--build", kBisectBuild},
      repo);
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("the build of " + c[7] + " ("), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find(".log"), std::string::npos) << broken.err;
}

// The worktrees ab kept, listed with their builds and emptied; without a terminal ab says
// which commit it checks out and builds.
TEST(CliAb, ItsWorktreesAreListedAndCleared) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = make_repository(repo);
  // Every step a line at once: an interval of a millisecond.
  const CliResult broken = testing::run_program({BG_BINARY, "ab", "suite.yml", "--db", db, "--ref",
                                                 c[10], "--ref", c[7], "--build", kBisectBuild},
                                                {"BENCHGUARD_PROGRESS_INTERVAL=1ms", "CI"}, repo);
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("benchguard: ab: A = " + c[10] + " (" + c[10].substr(0, 12) +
                            "): checking out and building; 0:0"),
            std::string::npos)
      << broken.err;
  EXPECT_NE(broken.err.find("benchguard: ab: B = " + c[7]), std::string::npos) << broken.err;

  const CliResult listed = run_cli({"--format", "json", "worktrees", "list"}, repo);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(benchguard::testing::schema_problem(listed.out), "");
  const json j = json::parse(listed.out);
  ASSERT_EQ(j["worktrees"].size(), 2u);
  EXPECT_EQ(j["worktrees"][0]["commit"], c[7]);  // the most recently used first
  EXPECT_EQ(j["worktrees"][0]["build"], "failed");
  EXPECT_EQ(j["worktrees"][1]["build"], "ok");
  EXPECT_FALSE(j["worktrees"][1]["in_use"].get<bool>());
  EXPECT_GT(j["total_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(j["limit"]["worktrees"], 20);
  const CliResult text = run_cli({"worktrees", "list", "--repo", repo});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(c[7].substr(0, 12)), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2 worktree(s), "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("limit: 20 worktree(s)"), std::string::npos) << text.out;

  const CliResult cleared = run_cli({"worktrees", "clear"}, repo);
  ASSERT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_NE(cleared.out.find("removed 2 worktree(s)"), std::string::npos) << cleared.out;
  const CliResult empty = run_cli({"--format", "csv", "worktrees", "list"}, repo);
  EXPECT_EQ(empty.out, "commit,bytes,last_use,in_use,build,path\n");
  const CliResult bad = testing::run_program(
      {BG_BINARY, "ab", "suite.yml", "--db", db, "--ref", c[10], "--ref", c[11]},
      {"BENCHGUARD_WORKTREES=some"}, repo);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("BENCHGUARD_WORKTREES must be a count"), std::string::npos) << bad.err;
}

// ab --until-decided: the A/B run stops once the 10% slowdown is known, and the verdict is
// the look's that stopped it.
TEST(CliAb, UntilDecidedStopsOnceTheSlowdownIsKnown) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = make_repository(repo);
  const CliResult r =
      run_cli({"--format", "json", "ab", "suite.yml", "--db", db, "--ref", c[10], "--ref", "main",
               "--build", kBisectBuild, "--until-decided", "--max-instances", "12"},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(": slower after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("of at most 12 instances a side"), std::string::npos) << r.err;
  const json j = json::parse(r.out);
  const auto& row = j["comparison"]["metrics"][0]["rows"][0];
  EXPECT_EQ(row["verdict"], "slower");
  EXPECT_LT(row["instances_a"].get<int>(), 12) << r.err << row.dump();
  EXPECT_NE(row["warnings"].dump().find("sequential run"), std::string::npos) << row.dump();
}

// ---- run --commits: history from day one

const char* const kBackfillBuild = "cp cost.txt built-cost.txt";

// A repository with the cost suite and `n` commits of cost 10 ms (11 ms from `slow_from` on),
// none measured; commit k holds `broken` when k is in `broken`. Their hashes, oldest first.
std::vector<std::string> unmeasured_history(const std::string& repo, int n, int slow_from = 0,
                                            const std::vector<int>& broken = {}) {
  git_init(repo);
  write_file(repo + "/suite.yml", cost_suite("backfill", 3));
  write_file(repo + "/.gitignore", "built-cost.txt\n");
  std::vector<std::string> hashes;
  for (int k = 1; k <= n; ++k) {
    write_file(repo + "/cost.txt", slow_from > 0 && k >= slow_from ? "0.011\n" : "0.010\n");
    write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
    const bool is_broken = std::find(broken.begin(), broken.end(), k) != broken.end();
    std::filesystem::remove(repo + "/broken");
    if (is_broken) write_file(repo + "/broken", "\n");
    hashes.push_back(git_commit_all(repo, k));
  }
  return hashes;
}

// The commit time git_commit_all gives commit k, as history prints it.
std::string commit_time(int k) {
  return "2026-01-01T00:" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ":00.000Z";
}

// The points of the wall-time series of `work`: (commit, time) oldest first.
std::vector<std::pair<std::string, std::string>> wall_time_points(const std::string& db) {
  const CliResult r = run_cli({"--format", "json", "history", "--metric", "wall_time", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::pair<std::string, std::string>> out;
  const json history = json::parse(r.out);
  for (const auto& s : history["series"])
    if (s["benchmark"] == "work")
      for (const auto& p : s["points"]) out.emplace_back(p["commit"], p["time"]);
  return out;
}

TEST(CliBackfill, EightCommitsResumedAfterAnInterruptThenOneAlarmUnderOneIdUntilAcknowledged) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = unmeasured_history(repo, 8);
  // The build of the 4th commit stops benchguard (SIGTERM, as a CI timeout or Ctrl-C would) the
  // first time; it builds, and is cached, all the same.
  const std::string build =
      std::string(kBackfillBuild) + " && if [ \"$BENCHGUARD_COMMIT\" = " + c[3] + " ] && [ ! -e " +
      dir.file("stopped") + " ]; then touch " + dir.file("stopped") + "; kill -TERM $PPID; fi";
  const std::vector<std::string> backfill = {"run", "suite.yml", "--commits", "main",   "--db",
                                             db,    "--build",   build,       "--seed", "1"};
  const CliResult first = run_cli(backfill, repo);
  EXPECT_EQ(first.exit_code, 130) << first.err;
  EXPECT_NE(first.err.find("commit 1/8 " + c[0].substr(0, 10) + ": building"), std::string::npos)
      << first.err;
  EXPECT_NE(first.err.find("commit 3/8 " + c[2].substr(0, 10) + ": measured 3 instances in "),
            std::string::npos)
      << first.err;
  EXPECT_NE(first.err.find("interrupted at commit 4/8: 3 measured, 0 skipped, 0 failed"),
            std::string::npos)
      << first.err;
  EXPECT_EQ(wall_time_points(db).size(), 3u);

  // The same command with --skip-existing (the default) goes on from the 4th.
  std::vector<std::string> resume = backfill;
  resume.emplace_back("--skip-existing");
  const CliResult second = run_cli(resume, repo);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("commit 2/8 " + c[1].substr(0, 10) + ": skipped: run "),
            std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("8 commits: 5 measured, 3 skipped, 0 failed"), std::string::npos)
      << second.err;

  // Eight history runs, one per commit, each with its commit's hash, time, author and branch;
  // each run's own time is now.
  const auto points = wall_time_points(db);
  ASSERT_EQ(points.size(), 8u);
  for (int k = 1; k <= 8; ++k) {
    EXPECT_EQ(points[k - 1].first, c[k - 1]) << k;
    EXPECT_EQ(points[k - 1].second, commit_time(k)) << k;
  }
  {
    auto store = store::open_store(db);
    ASSERT_TRUE(store.ok());
    auto runs = (*store)->list_runs();
    ASSERT_TRUE(runs.ok());
    int complete = 0;
    for (const auto& r : *runs) {
      if (r.status != "complete") continue;
      ++complete;
      EXPECT_EQ(r.git_branch, "main");
      EXPECT_EQ(r.suite, "backfill");
      auto run = (*store)->load_run(r.uuid);
      ASSERT_TRUE(run.ok());
      const auto k = std::find(c.begin(), c.end(), r.git_commit) - c.begin() + 1;
      ASSERT_LE(k, 8) << r.git_commit;
      const std::string* time = find_value(run->run.artifacts, "git_commit_time");
      ASSERT_NE(time, nullptr);
      EXPECT_EQ(std::stoll(*time), 1767225600 + 60 * k);
      const std::string* author = find_value(run->run.artifacts, "git_author");
      ASSERT_NE(author, nullptr);
      EXPECT_EQ(*author, "t <t@example.com>");
      EXPECT_GT(r.started_at, (1767225600 + 3600) * 1'000'000'000LL);
    }
    EXPECT_EQ(complete, 8);
  }

  // The history is there on day one: a 9th commit 10% slower fails the gate at once.
  write_file(repo + "/cost.txt", "0.011\n");
  write_file(repo + "/seed.txt", "9000\n");
  const std::string slow = git_commit_all(repo, 9);
  sh("cd " + repo + " && " + kBackfillBuild);
  const CliResult measured = run_cli({"-q", "run", "suite.yml", "--db", db, "--seed", "1"}, repo);
  ASSERT_EQ(measured.exit_code, 0) << measured.err;
  const CliResult gate = run_cli({"--format", "json", "gate", "--db", db, "--repo", repo}, repo);
  EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
  const json alerts = json::parse(gate.out)["alerts"];
  ASSERT_EQ(alerts.size(), 1u) << gate.out;
  EXPECT_EQ(alerts[0]["first_bad"], slow);
  EXPECT_EQ(alerts[0]["last_good"], c[7]);
  const std::string id = alerts[0]["id"];

  // A copy of the history as it stands, for the team that acknowledges the change at once.
  const std::string acked = dir.file("acked.db");
  std::filesystem::copy_file(db, acked);
  // Commits 10 to 15 at the same slower level, each measured into `into` and gated: the ids
  // the gate fails on, or nothing when it passes.
  const auto same_level = [&](const std::string& into, int from, int to) {
    std::vector<std::vector<std::string>> failed_on;
    for (int k = from; k <= to; ++k) {
      write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
      write_file(repo + "/note.txt", std::to_string(k) + "\n");
      git_commit_all(repo, k);
      sh("cd " + repo + " && " + kBackfillBuild);
      const CliResult m = run_cli({"-q", "run", "suite.yml", "--db", into, "--seed", "1"}, repo);
      EXPECT_EQ(m.exit_code, 0) << m.err;
      const CliResult g = run_cli({"--format", "json", "gate", "--db", into, "--repo", repo}, repo);
      EXPECT_NE(g.exit_code, 2) << g.err;
      std::vector<std::string> ids;
      const json j = json::parse(g.out);
      for (const auto& a : j["alerts"]) ids.push_back(a["id"]);
      EXPECT_EQ(g.exit_code, ids.empty() ? 0 : 1) << k << g.out;
      failed_on.push_back(ids);
    }
    return failed_on;
  };
  // Left alone, it fails the 10th to the 15th under the one id it was raised with.
  const auto left_alone = same_level(db, 10, 15);
  for (std::size_t k = 0; k < left_alone.size(); ++k)
    EXPECT_EQ(left_alone[k], std::vector<std::string>{id}) << "commit " << k + 10;
  // Acknowledged at once, the 10th and 11th at the same level pass: no new change.
  sh("git -C " + repo + " reset -q --hard " + slow);
  const CliResult ack = run_cli({"ack", id, "--reason", "accepted: new level", "--db", acked});
  ASSERT_EQ(ack.exit_code, 0) << ack.err;
  const auto after_ack = same_level(acked, 10, 11);
  for (std::size_t k = 0; k < after_ack.size(); ++k)
    EXPECT_TRUE(after_ack[k].empty()) << "commit " << k + 10;
}

TEST(CliBackfill, AFailingBuildIsAFailedRunThatHistoryLeavesOut) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = unmeasured_history(repo, 5, 0, {3});
  const std::string build = std::string("test ! -e broken && ") + kBackfillBuild;
  const std::vector<std::string> backfill = {"run",  "suite.yml", "--commits", "main",
                                             "--db", db,          "--build",   build};
  const CliResult r = run_cli(backfill, repo);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("commit 3/5 " + c[2].substr(0, 10) + ": FAILED: the build failed (exit 1)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("5 commits: 4 measured, 0 skipped, 1 failed"), std::string::npos) << r.err;

  // The failed run is stored, at its commit, and history has the other four.
  const CliResult runs = run_cli({"--format", "json", "runs", "--db", db});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  int failed = 0;
  const json listed = json::parse(runs.out);
  for (const auto& run : listed["runs"])
    if (run["status"] == "failed") {
      ++failed;
      EXPECT_EQ(run["git_commit"], c[2]) << runs.out;
    }
  EXPECT_EQ(failed, 1) << runs.out;
  const auto points = wall_time_points(db);
  ASSERT_EQ(points.size(), 4u);
  for (const auto& [commit, time] : points) EXPECT_NE(commit, c[2]);

  // Again: the measured commits are skipped, the broken one fails again (its build is cached).
  const CliResult again = run_cli(backfill, repo);
  EXPECT_EQ(again.exit_code, 1) << again.err;
  EXPECT_NE(again.err.find("the build failed before (the same command)"), std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find("5 commits: 0 measured, 4 skipped, 1 failed"), std::string::npos)
      << again.err;
}

TEST(CliBackfill, ThinnedRangesAndAFileOfHashes) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = unmeasured_history(repo, 8);
  // --every 3 keeps the 2nd, 5th and 8th; --last 2 the newest two of those. -q: the summary
  // line alone.
  CliResult r = run_cli({"-q", "run", "suite.yml", "--commits", "main", "--every", "3", "--last",
                         "2", "--db", db, "--build", kBackfillBuild},
                        repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "benchguard: 2 commits: 2 measured, 0 skipped, 0 failed\n");
  // A range A..B: after A up to B (the 5th and 6th; the 5th measured already).
  r = run_cli({"-q", "run", "suite.yml", "--commits", c[3] + ".." + c[5], "--db", db, "--build",
               kBackfillBuild},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "benchguard: 2 commits: 1 measured, 1 skipped, 0 failed\n");
  // A file of hashes, with a comment, an abbreviated hash and `git log --oneline` lines.
  const std::string list = dir.file("commits.txt");
  write_file(list, "# day one\n" + c[0] + "\n" + c[2].substr(0, 8) + " c3\n\n" + c[4] + "\n");
  r = run_cli({"-q", "run", "suite.yml", "--commits", list, "--db", db, "--build", kBackfillBuild},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "benchguard: 3 commits: 2 measured, 1 skipped, 0 failed\n");
  std::vector<std::string> commits;
  for (const auto& [commit, time] : wall_time_points(db)) commits.push_back(commit);
  EXPECT_EQ(commits, (std::vector<std::string>{c[0], c[2], c[4], c[5], c[7]}));
  // --remeasure measures a commit that has a run again: its point pools both.
  r = run_cli({"-q", "run", "suite.yml", "--commits", c[6] + ".." + c[7], "--remeasure", "--db", db,
               "--build", kBackfillBuild},
              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "benchguard: 1 commit: 1 measured, 0 skipped, 0 failed\n");
}

TEST(CliBackfill, BadInputIsOneLineExit2) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  unmeasured_history(repo, 3);
  // A suite whose program the build makes: without --build there is nothing to run.
  write_file(repo + "/built.yml",
             "name: built\ninstances: 2\nbenchmarks:\n  - name: prog\n    command: [./prog]\n");
  write_file(repo + "/prog.in", "#!/bin/sh\nexit 0\n");
  sh("cd " + repo + " && git add -A && git commit -q -m prog");
  const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const CliResult r = run_cli(args, repo);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  };
  refused({"run", "suite.yml", "--commits", "nope..main", "--db", db, "--build", kBackfillBuild},
          "'nope..main' is no range of commits");
  refused({"run", "suite.yml", "--commits", "main..main", "--db", db}, "holds no commit");
  refused({"run", "missing.yml", "--commits", "main", "--db", db}, "missing.yml");
  refused({"run", "suite.yml", "--every", "2", "--db", db}, "--commits");
  refused({"run", "--commits", "main", "--db", db, "--", "true"}, "a suite file");
  EXPECT_FALSE(std::filesystem::exists(db)) << "input refused before measuring creates no database";
  // Found at the commit, after the line that says what is measured (-q: the error alone).
  refused({"-q", "run", "built.yml", "--commits", "HEAD~1..HEAD", "--db", db},
          "give --build CMD that builds the benchmarks");
  // With the build, the same suite runs.
  const CliResult built = run_cli({"-q", "run", "built.yml", "--commits", "HEAD~1..HEAD", "--db",
                                   db, "--build", "cp prog.in prog && chmod +x prog"},
                                  repo);
  EXPECT_EQ(built.exit_code, 0) << built.err;
}

// Too little history: the gate's note says how many of the 5 earlier points the head check
// needs the series have, and the backfill that measures them; --min-history makes it exit 2.
// The command it names, run as printed, gives the history it asked for.
TEST(CliBackfill, TheGateNamesTheBackfillThatGivesItItsHistory) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto c = unmeasured_history(repo, 8);
  for (int k = 6; k <= 8; ++k) {  // the newest three measured, as CI would have
    sh("cd " + repo + " && git checkout -q " + c[k - 1] + " && " + kBackfillBuild);
    const CliResult r = run_cli({"-q", "run", "suite.yml", "--db", db, "--seed", "1"}, repo);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  sh("cd " + repo + " && git checkout -q main");

  CliResult r = run_cli({"--format", "json", "gate", "--db", db, "--repo", repo}, repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string placeholder =
      "work: 2 of the 5 earlier points the head check needs; seed them with benchguard run SUITE "
      "--commits HEAD~1 --last 5 --build CMD";
  EXPECT_NE(r.out.find(placeholder), std::string::npos) << r.out;
  r = run_cli(
      {"gate", "--db", db, "--repo", repo, "--suite", "suite.yml", "--build", kBackfillBuild},
      repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string note =
      "note: work: 2 of the 5 earlier points the head check needs; seed them with benchguard run "
      "suite.yml --commits HEAD~1 --last 5 --build 'cp cost.txt built-cost.txt'";
  EXPECT_NE(r.out.find(note + "\n"), std::string::npos) << r.out;

  r = run_cli({"gate", "--db", db, "--repo", repo, "--min-history", "5"}, repo);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("work: 2 earlier point(s) at the newest commit"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("fewer than --min-history 5; seed them with benchguard run SUITE --commits "
                       "HEAD~1 --last 5 --build CMD"),
            std::string::npos)
      << r.err;

  // The command as the note prints it: HEAD~5 to HEAD~1, the two measured skipped.
  const std::string bin = BG_BINARY;
  const std::string command = note.substr(note.find("benchguard run ") + 11);
  const CliResult seeded =
      run_program({"/bin/sh", "-c", bin + " " + command + " --db " + db}, {}, repo);
  ASSERT_EQ(seeded.exit_code, 0) << seeded.err;
  EXPECT_NE(seeded.err.find("5 commits: 3 measured, 2 skipped, 0 failed"), std::string::npos)
      << seeded.err;
  r = run_cli({"gate", "--db", db, "--repo", repo, "--min-history", "5"}, repo);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("earlier points the head check needs"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace benchguard
