// History over commits end to end: a git repository of 40 commits with a 10% slowdown at commit
// 25 and a single slow commit at 10; a small suite run at each; `detect` finds the slowdown,
// confirmed, and nothing at the spike; `gate` fails until the change is acknowledged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// Runs a shell command; the test fails when it does.
void sh(const std::string& command) {
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

// A suite whose benchmark reports, through the iteration protocol, a time of cost.txt seconds
// with +-1% uniform noise drawn from a seed per commit and instance: timings that do not
// depend on how busy the machine is.
const char* const kSuite = R"SUITE(name: history
instances: 4
benchmarks:
  - name: work
    shell: true
    iterations: 5
    command: >-
      awk -v c="$(cat cost.txt)" -v s="$(cat seed.txt)$BENCHGUARD_INSTANCE"
      -v n="$BENCHGUARD_ITERATIONS" 'BEGIN { srand(s); for (i = 0; i < n; i++)
      printf "{\"metrics\": {\"wall_time\": %.9f}}\n", c * (1 + 0.02 * (rand() - 0.5)) }'
      >> "$BENCHGUARD_RESULTS"
)SUITE";

// The repository: commit k (1..40) costs 10 ms before 25, 11 ms from 25 on, 15 ms at 10 alone.
// Runs the suite at every commit into `db`; returns the commits, oldest first (empty when
// setting up failed).
std::vector<std::string> build_history(const TempDir& dir, const std::string& db) {
  const std::string repo = dir.file("repo");
  sh("git init -q -b main " + repo + " && git -C " + repo +
     " config user.email t@example.com && git -C " + repo + " config user.name t");
  write_file(repo + "/suite.yml", kSuite);
  for (int k = 1; k <= 40; ++k) {
    const double cost = k == 10 ? 0.015 : k >= 25 ? 0.011 : 0.010;
    write_file(repo + "/cost.txt", std::to_string(cost) + "\n");
    write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
    // One commit a minute apart, so commit times order them too.
    const std::string date =
        "2026-01-01T00:" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ":00Z";
    sh("cd " + repo + " && git add -A && GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date +
       " git commit -q -m c" + std::to_string(k));
    const CliResult r = run_cli({"-q", "run", "suite.yml", "--db", db}, repo);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string list = dir.file("commits.txt");
  sh("git -C " + repo + " log --first-parent --reverse --format=%H > " + list);
  std::vector<std::string> hashes;
  std::string text = testing::read_file(list);
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    hashes.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return hashes;
}

TEST(CliHistory, SlowdownAtCommit25IsOneConfirmedRegressionAndTheSpikeIsNot) {
  TempDir dir;
  const std::string db = dir.file("h.db");
  const auto commits = build_history(dir, db);
  ASSERT_EQ(commits.size(), 40u);

  // history: one series, 40 points in commit order, 4 instances each.
  CliResult r = run_cli({"history", "--metric", "wall_time", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json h = json::parse(r.out);
  ASSERT_EQ(h["series"].size(), 1u) << r.out;
  const auto& points = h["series"][0]["points"];
  ASSERT_EQ(points.size(), 40u);
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(points[i]["commit"], commits[i]) << i;
    EXPECT_EQ(points[i]["instances"], 4) << i;
  }
  EXPECT_NEAR(points[0]["centre"].get<double>(), 0.010, 0.0002);
  EXPECT_NEAR(points[9]["centre"].get<double>(), 0.015, 0.0003);
  EXPECT_NEAR(points[39]["centre"].get<double>(), 0.011, 0.0002);

  // The same order from the repository's first-parent history.
  r = run_cli({"history", "--metric", "wall_time", "--db", db, "--format", "json", "--repo",
               dir.file("repo"), "--last", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto last = json::parse(r.out)["series"][0]["points"];
  ASSERT_EQ(last.size(), 3u);
  EXPECT_EQ(last[2]["commit"], commits[39]);

  // detect: one change point, (24, 25], confirmed; nothing at commit 10.
  r = run_cli({"detect", "--metric", "wall_time", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json changes = json::parse(r.out)["changes"];
  ASSERT_EQ(changes.size(), 1u) << r.out;
  EXPECT_EQ(changes[0]["last_good"], commits[23]);
  EXPECT_EQ(changes[0]["first_bad"], commits[24]);
  EXPECT_EQ(changes[0]["kind"], "regression");
  EXPECT_EQ(changes[0]["status"], "confirmed");
  EXPECT_NEAR(changes[0]["change"].get<double>(), 0.10, 0.01);
  const std::string id = changes[0]["id"];

  // The table says it in words.
  r = run_cli({"detect", "--metric", "wall_time", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("regression"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("confirmed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(commits[23].substr(0, 10) + ".." + commits[24].substr(0, 10)),
            std::string::npos)
      << r.out;

  // gate: fails with the regression, in Markdown for a pull request.
  r = run_cli({"gate", "--metric", "wall_time", "--db", db, "--format", "md"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("**failed**"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(id), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<details>"), std::string::npos) << r.out;

  // ack, given a unique prefix of the id as git takes one: the gate passes; acknowledging twice
  // is harmless; detect hides it unless --all.
  r = run_cli({"ack", id.substr(0, 4), "--reason", "accepted: new feature", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, id + ": acknowledged\n");
  r = run_cli({"ack", id, "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("already acknowledged"), std::string::npos) << r.out;
  r = run_cli({"gate", "--metric", "wall_time", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_cli({"detect", "--metric", "wall_time", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["changes"].size(), 0u) << r.out;
  r = run_cli({"detect", "--metric", "wall_time", "--all", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  changes = json::parse(r.out)["changes"];
  ASSERT_EQ(changes.size(), 1u) << r.out;
  EXPECT_EQ(changes[0]["acknowledged"]["reason"], "accepted: new feature");

  // unack, by prefix too: failing again.
  r = run_cli({"unack", id.substr(0, 6), "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, id + ": acknowledgement removed\n");
  r = run_cli({"gate", "--metric", "wall_time", "--db", db});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;

  // Against one commit: the newest run (11 ms) against commit 24's (10 ms) is slower; against
  // commit 30's (11 ms) it is not.
  const std::string repo = dir.file("repo");
  r = run_cli({"gate", "--metric", "wall_time", "--db", db, "--repo", repo, "--against",
               commits[23], "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json against = json::parse(r.out);
  ASSERT_EQ(against["alerts"].size(), 1u) << r.out;
  EXPECT_EQ(against["alerts"][0]["last_good"], commits[23]);
  EXPECT_EQ(against["alerts"][0]["first_bad"], commits[39]);
  EXPECT_NEAR(against["alerts"][0]["change"].get<double>(), 0.10, 0.01);
  r = run_cli(
      {"gate", "--metric", "wall_time", "--db", db, "--repo", repo, "--against", commits[29]});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_cli({"gate", "--metric", "wall_time", "--db", db, "--against", "no-such-branch"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("nothing to gate against"), std::string::npos) << r.err;

  // Unknown ids are a one-line error, exit 2.
  r = run_cli({"ack", "0000000000", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  r = run_cli({"unack", "0000000000", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace benchguard
