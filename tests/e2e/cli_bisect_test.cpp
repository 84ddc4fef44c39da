// ab and bisect end to end: a git repository of 32 commits whose benchmark's work grows by 10%
// at commit 19 and whose build fails at commit 7. The benchmark reports, through the iteration
// protocol, the cost its build copied out of cost.txt, with +-1% noise seeded per commit and
// instance: timings that do not depend on how busy the machine is.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::run_cli;
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

}  // namespace
}  // namespace benchguard
