// examples/github-actions.yml, run as written: its steps' commands in order, for a push to main,
// for pull requests and for the day-one run by hand, in a local git repository (no network; the
// `uses:` steps, checkout and cache, are what the repository and the database file already are
// here). The example cannot rot: a renamed flag or a changed exit code fails here.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::CliResult;
using testing::cost_suite;
using testing::git_commit_all;
using testing::git_init;
using testing::run_program;
using testing::sh;
using testing::TempDir;
using testing::write_file;

struct Step {
  std::string name;
  std::string run;
  std::string condition;  // the step's `if`
};

struct Workflow {
  std::vector<Step> steps;
  std::vector<std::pair<std::string, std::string>> env;
};

Workflow load_workflow() {
  const YAML::Node doc =
      YAML::LoadFile(std::string(BG_SOURCE_DIR) + "/examples/github-actions.yml");
  Workflow w;
  for (const auto& kv : doc["env"])
    w.env.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
  for (const auto& s : doc["jobs"]["benchmarks"]["steps"]) {
    if (!s["run"]) continue;  // `uses:` steps: checkout and cache
    w.steps.push_back({s["name"].as<std::string>(), s["run"].as<std::string>(),
                       s["if"] ? s["if"].as<std::string>() : ""});
  }
  return w;
}

// A step's `if` on the event: "github.event_name == 'push'" or "!= 'pull_request'".
bool runs_on(const Step& s, const std::string& event) {
  for (const std::string op : {"==", "!="}) {
    const std::string test = "github.event_name " + op + " '";
    const auto at = s.condition.find(test);
    if (at == std::string::npos) continue;
    const auto from = at + test.size();
    const std::string name = s.condition.substr(from, s.condition.find('\'', from) - from);
    return (event == name) == (op == "==");
  }
  return true;
}

// Runs the workflow's steps for `event` in `checkout`; the exit code of the first step that
// fails (0 when none), and that step's name and output.
struct Outcome {
  int exit_code = 0;
  std::string step, out;
};

Outcome run_workflow(const Workflow& w, const std::string& event, const std::string& checkout,
                     const std::string& db, const std::string& summary) {
  const std::string bin = std::filesystem::path(BG_BINARY).parent_path().string();
  std::vector<std::string> env = {"PATH=" + bin + ":" + std::getenv("PATH"),
                                  "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_BASE_REF=main",
                                  "GITHUB_PATH=" + summary + ".path", "CI=true"};
  for (const auto& [k, v] : w.env)
    env.push_back(k + "=" +
                  (v.find("${{") != std::string::npos ? (k == "BENCHGUARD_DB" ? db : "") : v));
  Outcome o;
  for (const auto& s : w.steps) {
    if (!runs_on(s, event)) continue;
    if (s.name == "Install benchguard") {
      // Not run (no network): it must build the CLI alone, with only the CLI's packages.
      EXPECT_NE(s.run.find("make -C ~/benchguard cli"), std::string::npos) << s.run;
      continue;
    }
    const CliResult r = run_program(
        {"/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.run}, env, checkout);
    if (std::getenv("BG_WORKFLOW_TRACE") != nullptr)
      std::fprintf(stderr, "[%s] %s: exit %d\n%s%s\n", event.c_str(), s.name.c_str(), r.exit_code,
                   r.out.c_str(), r.err.c_str());
    if (r.exit_code != 0) return {r.exit_code, s.name, r.out + r.err};
  }
  return o;
}

// Commit `k` with cost `cost` on the checked-out branch of `repo`.
void commit(const std::string& repo, int k, const std::string& cost) {
  write_file(repo + "/cost.txt", cost + "\n");
  write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
  git_commit_all(repo, k);
}

// A repository with the workflow's suite and `make bench`, nothing committed yet.
void workflow_repository(const std::string& repo) {
  git_init(repo);
  std::filesystem::create_directories(repo + "/bench");
  write_file(repo + "/bench/suite.yml", cost_suite("workflow", 3, ".."));
  // `make bench` builds the benchmark: here it copies the cost the commit holds.
  write_file(repo + "/Makefile", ".PHONY: bench\nbench:\n\tcp cost.txt built-cost.txt\n");
  write_file(repo + "/.gitignore", "built-cost.txt\nbg.db\n");
}

TEST(CliWorkflow, TheGitHubActionsExampleGatesPushesAndPullRequests) {
  const Workflow w = load_workflow();
  ASSERT_GE(w.steps.size(), 4u);
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const std::string summary = dir.file("summary.md");
  workflow_repository(repo);

  // Pushes to main: eight equal commits pass, the ninth, 10% slower, fails at the gate.
  for (int k = 1; k <= 8; ++k) {
    commit(repo, k, "0.010");
    const Outcome o = run_workflow(w, "push", repo, db, summary);
    ASSERT_EQ(o.exit_code, 0) << "push " << k << ", step '" << o.step << "': " << o.out;
  }
  commit(repo, 9, "0.011");
  const Outcome slow = run_workflow(w, "push", repo, db, summary);
  EXPECT_EQ(slow.exit_code, 1) << slow.step << ": " << slow.out;
  EXPECT_EQ(slow.step, "Gate the commit on its history");
  EXPECT_NE(slow.out.find("gate: **failed**"), std::string::npos) << slow.out;
  EXPECT_NE(testing::read_file(summary).find("**failed**"), std::string::npos);

  // Pull requests, from a clone whose origin is the repository: one that slows the benchmark
  // down fails its A/B step; one that does not passes. Nothing measured on main is needed.
  const std::string pr = dir.file("pr");
  sh("git clone -q " + repo + " " + pr + " && git -C " + pr +
     " config user.email t@example.com && git -C " + pr + " config user.name t");
  sh("git -C " + pr + " checkout -q -b slower");
  commit(pr, 10, "0.0121");
  const Outcome pr_slow = run_workflow(w, "pull_request", pr, dir.file("pr.db"), summary);
  EXPECT_EQ(pr_slow.exit_code, 1) << pr_slow.step << ": " << pr_slow.out;
  EXPECT_EQ(pr_slow.step, "A/B against the base branch");
  EXPECT_NE(pr_slow.out.find("**slower**"), std::string::npos) << pr_slow.out;
  sh("git -C " + pr + " checkout -q -b same origin/main");
  commit(pr, 11, "0.011");
  const Outcome pr_same = run_workflow(w, "pull_request", pr, dir.file("pr2.db"), summary);
  EXPECT_EQ(pr_same.exit_code, 0) << pr_same.step << ": " << pr_same.out;
}

// Day one: eight commits nobody measured. The workflow run by hand seeds the history with
// them; the next push is judged by the head check at once, and a slower one fails the gate.
TEST(CliWorkflow, TheDayOneRunSeedsTheHistoryTheNextPushIsJudgedBy) {
  const Workflow w = load_workflow();
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const std::string summary = dir.file("summary.md");
  workflow_repository(repo);
  for (int k = 1; k <= 8; ++k) commit(repo, k, "0.010");
  const Outcome seeded = run_workflow(w, "workflow_dispatch", repo, db, summary);
  ASSERT_EQ(seeded.exit_code, 0) << seeded.step << ": " << seeded.out;
  const CliResult history =
      testing::run_cli({"--format", "json", "history", "--machine", "github-ubuntu-latest",
                        "--metric", "wall_time", "--db", db},
                       repo);
  ASSERT_EQ(history.exit_code, 0) << history.err;
  const auto series = nlohmann::json::parse(history.out)["series"];
  ASSERT_EQ(series.size(), 1u) << history.out;
  EXPECT_EQ(series[0]["points"].size(), 8u) << history.out;

  commit(repo, 9, "0.010");
  const Outcome same = run_workflow(w, "push", repo, db, summary);
  EXPECT_EQ(same.exit_code, 0) << same.step << ": " << same.out;
  commit(repo, 10, "0.011");
  const Outcome slow = run_workflow(w, "push", repo, db, summary);
  EXPECT_EQ(slow.exit_code, 1) << slow.step << ": " << slow.out;
  EXPECT_EQ(slow.step, "Gate the commit on its history");
}

}  // namespace
}  // namespace benchguard
