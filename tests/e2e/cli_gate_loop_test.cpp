// The loop a team lives in, end to end on a real git repository: 12 equal commits, a 13th 10%
// slower. The gate judges the 13th at once (the head check), confirms it by measuring both
// commits again in worktrees, fails naming it; `ack` makes it pass; a bisect made afterwards
// changes neither history nor what `compare HEAD~1 HEAD` reads. A typo never passes.
// The benchmark reports, through the iteration protocol, the cost its build copied out of
// cost.txt with +-1% noise seeded per commit and instance: timings that do not depend on how
// busy the machine is.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "analysis/sequential.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::cost_suite;
using testing::git_commit_all;
using testing::git_init;
using testing::run_cli;
using testing::sh;
using testing::TempDir;
using testing::write_file;

const char* const kBuild = "cp cost.txt built-cost.txt";

// Commit k (1-based): cost 10 ms, `slow` (11 ms) from `slow_from` on; measured into `db` after
// each.
std::vector<std::string> commit_and_measure(const std::string& repo, const std::string& db,
                                            int from, int to, int slow_from,
                                            const std::string& slow = "0.011") {
  std::vector<std::string> hashes;
  for (int k = from; k <= to; ++k) {
    write_file(repo + "/cost.txt", (k >= slow_from ? slow : std::string("0.010")) + "\n");
    write_file(repo + "/seed.txt", std::to_string(1000 * k) + "\n");
    hashes.push_back(git_commit_all(repo, k));
    sh("cd " + repo + " && " + kBuild);
    const CliResult r = run_cli({"-q", "run", "suite.yml", "--db", db, "--seed", "1"}, repo);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return hashes;
}

// A repository with the cost suite and 12 equal commits, each measured into `db`: their hashes.
std::vector<std::string> equal_history(const std::string& repo, const std::string& db) {
  git_init(repo);
  write_file(repo + "/suite.yml", cost_suite("loop", 3));
  write_file(repo + "/.gitignore", "built-cost.txt\nhead.txt\n");
  return commit_and_measure(repo, db, 1, 12, 13);
}

// The gate against history that measures each suspected regression again, in JSON.
std::vector<std::string> confirming_gate(const std::string& db, const std::string& repo) {
  return {"--format",  "json",    "gate",      "--db",    db,     "--repo",           repo,
          "--confirm", "--suite", "suite.yml", "--build", kBuild, "--bootstrap-seed", "3"};
}

TEST(CliGateLoop, TheRegressingCommitFailsConfirmedAndAnAckPassesIt) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  const auto equal = equal_history(repo, db);
  ASSERT_EQ(equal.size(), 12u);
  const std::vector<std::string> gate = confirming_gate(db, repo);
  const CliResult quiet = run_cli(gate, repo);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;

  // The 13th commit, 10% slower: the gate fails at once and names it.
  const auto slow = commit_and_measure(repo, db, 13, 13, 13);
  const CliResult failed = run_cli(gate, repo);
  ASSERT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  const json j = json::parse(failed.out);
  ASSERT_EQ(j["alerts"].size(), 1u) << failed.out;
  const json& alert = j["alerts"][0];
  EXPECT_EQ(alert["benchmark"], "work");
  EXPECT_EQ(alert["metric"], "wall_time");
  EXPECT_EQ(alert["first_bad"], slow[0]);
  EXPECT_EQ(alert["last_good"], equal.back());
  EXPECT_EQ(alert["status"], "confirmed");
  EXPECT_NEAR(alert["change"].get<double>(), 0.10, 0.02);
  const std::string id = alert["id"];
  EXPECT_NE(failed.err.find("measuring"), std::string::npos) << failed.err;
  // Its note says what measuring again found, beside the size the change was found with.
  std::string note;
  for (const auto& n : j["notes"])
    if (n.get<std::string>().starts_with(id + " (work): confirmed by measuring")) note = n;
  EXPECT_NE(note.find("again: +"), std::string::npos) << failed.out;
  EXPECT_NE(note.find(" instances a side (run "), std::string::npos) << note;

  // The confirmation run is stored, labelled, and not measured twice.
  const CliResult again = run_cli(gate, repo);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err.find("measuring"), std::string::npos) << again.err;
  // It was sequential: it stopped at the look that saw the slowdown, before its budget.
  {
    auto store = store::open_store(db);
    ASSERT_TRUE(store.ok());
    auto runs = (*store)->list_runs();
    ASSERT_TRUE(runs.ok());
    std::string uuid;
    for (const auto& r : *runs)
      if (const auto* label = find_value(r.labels, "confirm"); label && *label == id) uuid = r.uuid;
    ASSERT_FALSE(uuid.empty()) << "no run labelled confirm=" << id;
    auto confirmation = (*store)->load_run(uuid);
    ASSERT_TRUE(confirmation.ok()) << confirmation.error().message;
    auto record = analysis::read_sequential_record(confirmation->run);
    ASSERT_TRUE(record.ok() && record->has_value());
    const auto* o = (*record)->find("work");
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->look.decision, stats::SequentialDecision::kSlower);
    EXPECT_LT(o->look.instances_a, o->max_instances);

    // `confirm` reads that run back rather than measuring again, and says what it measured:
    // about the 10% of the 13th commit, within its interval, and how many instances a side.
    const CliResult confirm = run_cli({"--format", "json", "confirm", id, "suite.yml", "--db", db,
                                       "--repo", repo, "--build", kBuild},
                                      repo);
    ASSERT_EQ(confirm.exit_code, 0) << confirm.err;
    EXPECT_EQ(benchguard::testing::schema_problem(confirm.out), "");
    EXPECT_EQ(confirm.err.find("measuring"), std::string::npos) << confirm.err;
    const json c = json::parse(confirm.out)["confirmation"];
    EXPECT_EQ(c["run"], uuid);
    EXPECT_EQ(c["verdict"], "confirmed");
    EXPECT_NEAR(c["change"].get<double>(), 0.10, 0.02) << confirm.out;
    EXPECT_LT(c["change_interval"][0].get<double>(), c["change"].get<double>());
    EXPECT_GT(c["change_interval"][1].get<double>(), c["change"].get<double>());
    EXPECT_GT(c["change_interval"][0].get<double>(), 0.0);  // what made it confirmed
    EXPECT_EQ(c["instances"], o->look.instances_a) << confirm.out;
  }

  // The report a team pastes into an issue: size, commits, the culprit (the range is one
  // commit), the confirmation run, how to reproduce.
  const CliResult issue = run_cli({"report", "--issue", id, "--db", db}, repo);
  ASSERT_EQ(issue.exit_code, 0) << issue.err;
  EXPECT_NE(issue.out.find("### Performance regression: work"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("**Culprit**: `" + slow[0] + "`"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("**Measured again**: +"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find(" a side (confirmed), run `"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("status **confirmed**"), std::string::npos) << issue.out;
  EXPECT_NE(issue.out.find("benchguard ab SUITE.yml --ref " + equal.back() + " --ref " + slow[0]),
            std::string::npos)
      << issue.out;

  // Acknowledged: the gate passes.
  const CliResult ack = run_cli({"ack", id, "--reason", "accepted", "--db", db}, repo);
  ASSERT_EQ(ack.exit_code, 0) << ack.err;
  const CliResult passed = run_cli(gate, repo);
  EXPECT_EQ(passed.exit_code, 0) << passed.out << passed.err;

  // A bisect made now adds probe runs at the checkout's commit: history and what HEAD~1 HEAD
  // names are unchanged.
  const auto history = [&] {
    return run_cli({"--format", "json", "history", "--db", db, "--repo", repo}, repo).out;
  };
  const auto compare = [&] {
    return run_cli({"--format", "json", "compare", "HEAD~1", "HEAD", "--db", db}, repo).out;
  };
  const std::string history_before = history(), compare_before = compare();
  const CliResult bisect = run_cli({"bisect", "suite.yml", "--db", db, "--good", equal[6], "--bad",
                                    slow[0], "--build", kBuild, "--seed", "5"},
                                   repo);
  ASSERT_EQ(bisect.exit_code, 0) << bisect.err;
  EXPECT_EQ(history(), history_before);
  const json cb = json::parse(compare_before), ca = json::parse(compare());
  EXPECT_EQ(ca["metrics"][0]["rows"][0]["ratio"], cb["metrics"][0]["rows"][0]["ratio"]);
  EXPECT_NEAR(ca["metrics"][0]["rows"][0]["ratio"].get<double>(), 1.10, 0.02);
}

// A regression confirmed by measuring its commits again stays open when newer commits land:
// the head check moves on to each new commit, and the step may be too small for a detector to
// see over the few points after it, but the gate keeps failing on it, with and without
// --confirm, and `detect` lists it. One or two commits as fast as before do not undo it (a
// commit in the noise is no evidence); three do, and the gate passes, saying so; a commit that
// brings it back fails on it again, until it is acknowledged.
TEST(CliGateLoop, AConfirmedRegressionKeepsFailingAfterNewerCommitsUntilUndoneOrAcknowledged) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  equal_history(repo, db);
  const std::vector<std::string> confirming = confirming_gate(db, repo);
  const std::vector<std::string> plain = {"--format", "json", "gate", "--db", db, "--repo", repo};
  const auto slow = commit_and_measure(repo, db, 13, 13, 13);
  const CliResult found = run_cli(confirming, repo);
  ASSERT_EQ(found.exit_code, 1) << found.out << found.err;
  const json first = json::parse(found.out);
  ASSERT_EQ(first["alerts"].size(), 1u) << found.out;
  const std::string id = first["alerts"][0]["id"];
  EXPECT_EQ(first["alerts"][0]["status"], "confirmed");

  // Two more commits, as slow: the regression at the 13th is still there.
  for (int k = 14; k <= 15; ++k) {
    commit_and_measure(repo, db, k, k, 13);
    for (const auto* args : {&confirming, &plain}) {
      const CliResult gate = run_cli(*args, repo);
      ASSERT_EQ(gate.exit_code, 1) << "commit " << k << ": " << gate.out << gate.err;
      // Measuring again refutes the head check's doubt about the newest commit (it is as
      // slow as the one before it); without that, the head check may fail it as well.
      const json j = json::parse(gate.out);
      const auto kept = std::find_if(j["alerts"].begin(), j["alerts"].end(),
                                     [&](const json& a) { return a["id"] == id; });
      ASSERT_NE(kept, j["alerts"].end()) << gate.out;
      if (args == &confirming) {
        EXPECT_EQ(j["alerts"].size(), 1u) << gate.out;
      }
      EXPECT_EQ((*kept)["first_bad"], slow[0]);
      EXPECT_EQ((*kept)["status"], "confirmed");
    }
    const CliResult detect = run_cli({"--format", "json", "detect", "--db", db}, repo);
    ASSERT_EQ(detect.exit_code, 0) << detect.err;
    EXPECT_NE(detect.out.find(id), std::string::npos) << detect.out;
  }

  // The 16th and 17th commits are as fast as the 12th: not yet undone.
  for (int k = 16; k <= 17; ++k) {
    commit_and_measure(repo, db, k, k, 99);
    for (const auto* args : {&confirming, &plain}) {
      const CliResult gate = run_cli(*args, repo);
      ASSERT_EQ(gate.exit_code, 1) << "commit " << k << ": " << gate.out << gate.err;
      const json alerts = json::parse(gate.out)["alerts"];
      EXPECT_TRUE(std::any_of(alerts.begin(), alerts.end(), [&](const json& a) {
        return a["id"] == id;
      })) << gate.out;
    }
  }
  // The 18th too: three commits back at the old level, clearly off the slow ones: undone.
  commit_and_measure(repo, db, 18, 18, 99);
  for (const auto* args : {&confirming, &plain}) {
    const CliResult gate = run_cli(*args, repo);
    ASSERT_EQ(gate.exit_code, 0) << gate.out << gate.err;
    const json j = json::parse(gate.out);
    EXPECT_TRUE(j["alerts"].empty()) << gate.out;
    std::string note;
    for (const auto& n : j["notes"])
      if (n.get<std::string>().starts_with(id)) note = n;
    EXPECT_NE(note.find("the newest 3 commits measure as before it"), std::string::npos)
        << gate.out;
  }
  // The 19th is slow again: the same regression, failing again.
  commit_and_measure(repo, db, 19, 19, 19);
  for (const auto* args : {&confirming, &plain}) {
    const CliResult gate = run_cli(*args, repo);
    ASSERT_EQ(gate.exit_code, 1) << gate.out << gate.err;
    const json alerts = json::parse(gate.out)["alerts"];
    EXPECT_TRUE(std::any_of(alerts.begin(), alerts.end(), [&](const json& a) {
      return a["id"] == id;
    })) << gate.out;
  }

  const CliResult ack = run_cli({"ack", id, "--reason", "accepted", "--db", db}, repo);
  ASSERT_EQ(ack.exit_code, 0) << ack.err;
  for (const auto* args : {&confirming, &plain}) {
    const CliResult gate = run_cli(*args, repo);
    EXPECT_EQ(gate.exit_code, 0) << gate.out << gate.err;
  }
  // A further slowdown at the 20th commit (to 20 ms) is judged at once, against the commits
  // since the acknowledged one (which moved between 10 and 11 ms: the 16th to 18th undid
  // it), and confirmed by measuring the 19th and the 20th.
  const auto slower = commit_and_measure(repo, db, 20, 20, 20, "0.020");
  const CliResult gate = run_cli(confirming, repo);
  ASSERT_EQ(gate.exit_code, 1) << gate.out << gate.err;
  const json j = json::parse(gate.out);
  ASSERT_EQ(j["alerts"].size(), 1u) << gate.out;
  EXPECT_EQ(j["alerts"][0]["first_bad"], slower[0]);
  EXPECT_EQ(j["alerts"][0]["status"], "confirmed");
}

TEST(CliGateLoop, WhatMatchesNothingIsAnErrorThatSaysWhatExists) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  git_init(repo);
  write_file(repo + "/suite.yml", cost_suite("loop", 3));
  write_file(repo + "/.gitignore", "built-cost.txt\nhead.txt\n");
  // Only a probe run (an A/A run of `run --null`): no history, and the gate does not pass.
  write_file(repo + "/cost.txt", "0.010\n");
  write_file(repo + "/seed.txt", "1\n");
  sh("cd " + repo + " && " + kBuild);
  ASSERT_EQ(run_cli({"-q", "run", "suite.yml", "--null", "--db", db}, repo).exit_code, 0);
  const CliResult empty = run_cli({"gate", "--db", db}, repo);
  EXPECT_EQ(empty.exit_code, 2) << empty.out;
  EXPECT_NE(empty.err.find("no finished runs"), std::string::npos) << empty.err;
  commit_and_measure(repo, db, 1, 7, 99);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"gate", "wrok"}, "no benchmark 'wrok' in the history of"},
      {{"gate", "wrok"}, "(did you mean 'work'?); benchmarks: work"},
      {{"gate", "--metric", "wall_tme"}, "no metric 'wall_tme'"},
      {{"gate", "--metric", "wall_tme"}, "did you mean 'wall_time'?"},
      {{"gate", "--machine", "nosuch"}, "no machine class 'nosuch'"},
      {{"detect", "nosuchbench"}, "no benchmark 'nosuchbench'"},
      {{"history", "--metric", "nosuch"}, "metrics: "},
      {{"gate", "--against", "main", "nosuchbench"}, "no benchmark 'nosuchbench'"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--db", db});
    const CliResult r = run_cli(args, repo);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.args[1] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
}

// gate --require: the channels that must pass. A 10% slower commit fails a gate that
// requires wall time; one that requires only another channel reports the wall-time
// regression and passes; a required channel nobody measured fails the gate, never passes it by
// default.
TEST(CliGateLoop, RequiredChannelsDecideAndTheReportSaysWhichMoved) {
  TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("bg.db");
  git_init(repo);
  // The cost suite's benchmark, reporting a second metric, `bytes`, that does not move.
  write_file(repo + "/suite.yml", cost_suite("channels", 4, "", "bytes"));
  write_file(repo + "/.gitignore", "built-cost.txt\nhead.txt\n");
  const auto hashes = commit_and_measure(repo, db, 1, 2, 2);
  ASSERT_EQ(hashes.size(), 2u);
  const auto gate = [&](const std::string& require) {
    return run_cli({"--format", "json", "gate", "--db", db, "--repo", repo, "--against", hashes[0],
                    "--require", require},
                   repo);
  };
  const auto channel = [](const json& j, const std::string& metric) {
    for (const auto& c : j["channels"])
      if (c["metric"] == metric) return c;
    return json();
  };

  const CliResult wall = gate("wall_time");
  ASSERT_EQ(wall.exit_code, 1) << wall.out << wall.err;
  json j = json::parse(wall.out);
  ASSERT_EQ(j["alerts"].size(), 1u) << wall.out;
  EXPECT_EQ(j["alerts"][0]["metric"], "wall_time");
  json c = channel(j, "wall_time");
  EXPECT_EQ(c["required"], true) << wall.out;
  EXPECT_EQ(c["regressions"], 1) << wall.out;
  EXPECT_EQ(c["benchmarks"], 1) << wall.out;

  const CliResult bytes = gate("bytes");
  EXPECT_EQ(bytes.exit_code, 0) << bytes.out << bytes.err;
  j = json::parse(bytes.out);
  EXPECT_TRUE(j["alerts"].empty()) << bytes.out;
  c = channel(j, "wall_time");
  EXPECT_EQ(c["required"], false) << bytes.out;
  EXPECT_EQ(c["regressions"], 1) << "the report says what moved: " << bytes.out;
  c = channel(j, "bytes");
  EXPECT_EQ(c["required"], true) << bytes.out;
  EXPECT_EQ(c["regressions"], 0) << bytes.out;
  EXPECT_EQ(c["benchmarks"], 1) << bytes.out;
  bool said = false;
  for (const auto& n : j["notes"])
    said = said || n.get<std::string>().find("not a required channel") != std::string::npos;
  EXPECT_TRUE(said) << bytes.out;

  // Nothing measured instructions: the gate fails and says so, in the table too.
  const CliResult missing = gate("instructions,wall_time");
  EXPECT_EQ(missing.exit_code, 1) << missing.out;
  j = json::parse(missing.out);
  c = channel(j, "instructions");
  ASSERT_FALSE(c.is_null()) << missing.out;
  EXPECT_EQ(c["missing"], json::array({"work"})) << missing.out;
  const CliResult table = run_cli(
      {"gate", "--db", db, "--repo", repo, "--against", hashes[0], "--require", "instructions"},
      repo);
  EXPECT_EQ(table.exit_code, 1) << table.out;
  EXPECT_NE(table.out.find("channel instructions (required): 0 benchmark(s), unchanged; NO "
                           "RESULT at the newest run for work"),
            std::string::npos)
      << table.out;
  // The suite can hold the requirement: gate --suite takes it where --require is not given,
  // and the command line's wins.
  write_file(repo + "/gated.yml",
             cost_suite("channels", 4, "", "bytes") + "gate:\n  require: [instructions]\n");
  const CliResult from_suite = run_cli(
      {"gate", "--db", db, "--repo", repo, "--against", hashes[0], "--suite", "gated.yml"}, repo);
  EXPECT_EQ(from_suite.exit_code, 1) << from_suite.out << from_suite.err;
  EXPECT_NE(from_suite.out.find("channel instructions (required)"), std::string::npos)
      << from_suite.out;
  EXPECT_NE(from_suite.out.find("NO RESULT at the newest run for work"), std::string::npos)
      << from_suite.out;
  const CliResult over = run_cli({"gate", "--db", db, "--repo", repo, "--against", hashes[0],
                                  "--suite", "gated.yml", "--require", "bytes"},
                                 repo);
  EXPECT_EQ(over.exit_code, 0) << over.out << over.err;
  EXPECT_EQ(over.out.find("channel instructions (required)"), std::string::npos) << over.out;
  write_file(repo + "/bad.yml", cost_suite("channels", 4, "", "bytes") + "gate: {require: 3}\n");
  const CliResult bad = run_cli(
      {"gate", "--db", db, "--repo", repo, "--against", hashes[0], "--suite", "bad.yml"}, repo);
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("bad.yml:"), std::string::npos) << bad.err;
  EXPECT_EQ(testing::count_lines(bad.err), 1) << bad.err;

  // Against history too: two points are too few for a verdict, not for a missing channel.
  const CliResult history =
      run_cli({"gate", "--db", db, "--repo", repo, "--require", "instructions"}, repo);
  EXPECT_EQ(history.exit_code, 1) << history.out << history.err;
  EXPECT_NE(history.out.find("NO RESULT"), std::string::npos) << history.out;
}

TEST(CliGateLoop, AnImportedOtavaFileIsAnalysedInEveryColumn) {
  // Otava's CSV: one column per metric, summary points only. detect and history follow every
  // metric of the file by default; --metric narrows.
  TempDir dir;
  const std::string db = dir.file("o.db");
  const std::string csv = std::string(BG_SOURCE_DIR) + "/tests/data/ingest/otava-sample.csv";
  ASSERT_EQ(run_cli({"import", csv, "--db", db}).exit_code, 0);
  const CliResult d = run_cli({"--format", "json", "detect", "--db", db});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::set<std::string> metrics;
  const json changes = json::parse(d.out)["changes"];
  for (const auto& c : changes) metrics.insert(c["metric"].get<std::string>());
  EXPECT_EQ(metrics, (std::set<std::string>{"latency_ms", "throughput"})) << d.out;
  const CliResult h =
      run_cli({"--format", "json", "history", "--db", db, "--metric", "throughput"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const json history = json::parse(h.out);
  ASSERT_FALSE(history["series"].empty());
  for (const auto& s : history["series"]) EXPECT_EQ(s["metric"], "throughput");
}

}  // namespace
}  // namespace benchguard
