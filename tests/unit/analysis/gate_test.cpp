// run_gate (src/analysis/gate.cpp) on a stored history: against history it judges the newest
// commit from the runs' series cache entries, saving those it had to derive; against a commit
// or a branch it reads only the two runs it compares.
#include "analysis/gate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "analysis/series_cache.hpp"
#include "store/store.hpp"
#include "support/gate_replay.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"

namespace benchguard::analysis {
namespace {

using benchguard::testing::fixture_commit;
using benchguard::testing::TempDir;

// The fixture's bench/0000 is 10% slower from commit 24 of 40 on; the history stored here ends
// at that commit: 25 runs of 4 benchmarks, 3 instances of 2 iterations, stored out of order.
constexpr int kGateCommits = 40;
constexpr int kGateStored = 25;

std::string gate_history_db(const TempDir& dir) {
  std::string path = dir.file("h.db");
  std::vector<RunData> runs;
  runs.reserve(kGateStored);
  for (int k = 0; k < kGateStored; ++k)
    runs.push_back(
        benchguard::testing::history_run((k * 7) % kGateStored, kGateCommits, 4, 3, 2, false));
  auto store = store::open_store(path);
  EXPECT_TRUE(store.ok()) << store.error().message;
  auto ids = (*store)->add_runs(runs, {});
  EXPECT_TRUE(ids.ok()) << ids.error().message;
  return path;
}

std::vector<std::string> alerted(const GateReport& g) {
  std::vector<std::string> out;
  for (const auto& row : g.alerts)
    out.push_back(row.change.benchmark + " " + row.change.metric + " " + row.change.kind);
  std::sort(out.begin(), out.end());
  return out;
}

// Runs of the store without a series cache entry under the default burn-in.
int runs_without_entry(store::Store& store) {
  const std::string key = series_cache_key(BurnInPolicy{});
  auto runs = store.list_runs({.counts = false});
  EXPECT_TRUE(runs.ok());
  int missing = 0;
  for (const auto& r : *runs) {
    auto cached = store.load_cached_run(r.id, key, {.columns = true});
    EXPECT_TRUE(cached.ok()) << cached.error().message;
    if (!cached->cache) ++missing;
  }
  return missing;
}

TEST(Gate, AgainstHistoryFailsOnTheNewestCommitsRegressionAndKeepsTheEntriesItDerived) {
  TempDir dir;
  auto store = store::open_store(gate_history_db(dir));
  ASSERT_TRUE(store.ok()) << store.error().message;
  ASSERT_EQ(runs_without_entry(**store), kGateStored);  // stored by the library: no entries yet

  GateOptions options;
  options.history.metrics = {"wall_time"};
  auto g = run_gate(**store, options, 1);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->head, fixture_commit(kGateStored - 1));
  EXPECT_TRUE(g->failed());
  EXPECT_EQ(alerted(*g), std::vector<std::string>{"bench/0000 wall_time regression"});
  // Every run now has its entry: the next gate reads points, not instances, and judges the same.
  EXPECT_EQ(runs_without_entry(**store), 0);
  auto again = run_gate(**store, options, 2);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(alerted(*again), alerted(*g));
  EXPECT_EQ(again->head_checks, g->head_checks);
}

TEST(Gate, AgainstACommitComparesTheNewestRunWithThatCommitsRun) {
  TempDir dir;
  auto store = store::open_store(gate_history_db(dir));
  ASSERT_TRUE(store.ok()) << store.error().message;
  GateOptions options;
  options.history.metrics = {"wall_time"};
  // The commit before the slowdown: bench/0000 is slower at the newest run.
  options.against = "main~1";
  options.against_commit = fixture_commit(kGateStored - 2);
  auto g = run_gate(**store, options, 1);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->against, "main~1 (" + fixture_commit(kGateStored - 2).substr(0, 10) + ")");
  EXPECT_EQ(g->head, fixture_commit(kGateStored - 1));
  EXPECT_EQ(alerted(*g), std::vector<std::string>{"bench/0000 wall_time regression"});

  // A commit already slow: nothing moved.
  options.against = "main~2";
  options.against_commit = fixture_commit(kGateStored - 1);
  options.against_ancestors = {fixture_commit(kGateStored - 1), fixture_commit(kGateStored - 2),
                               fixture_commit(kGateStored - 3)};
  // The newest run's own commit is passed over for its newest measured ancestor.
  g = run_gate(**store, options, 1);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->against, "main~2 (" + fixture_commit(kGateStored - 2).substr(0, 10) + ")");
  EXPECT_EQ(alerted(*g), std::vector<std::string>{"bench/0000 wall_time regression"});
  ASSERT_FALSE(g->notes.empty());
  EXPECT_NE(g->notes.front().find("newest measured ancestor"), std::string::npos)
      << g->notes.front();
}

TEST(Gate, AgainstABranchWithoutRunsOrANameNoRunHasIsAnError) {
  TempDir dir;
  auto store = store::open_store(gate_history_db(dir));
  ASSERT_TRUE(store.ok()) << store.error().message;
  GateOptions options;
  options.against = "release";
  auto g = run_gate(**store, options, 1);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("no finished run of commit or branch 'release'"),
            std::string::npos)
      << g.error().message;

  // A benchmark no run has: the gate does not pass on a name that matched nothing.
  options.against = "main";
  options.history.benchmarks = {"bench/9999"};
  g = run_gate(**store, options, 1);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("bench/9999"), std::string::npos) << g.error().message;
}

// What a confirmation measured, as the gate's notes and `confirm` say it: the change with its
// interval and the instances a side; nothing when the run measured no change.
TEST(Gate, AConfirmationSaysWhatItMeasured) {
  Confirmation c{"confirmed", "684c4c1a-4217"};
  EXPECT_EQ(measured_text(c), "");
  c.change = 0.10279;
  EXPECT_EQ(measured_text(c), "+10.3%");
  c.lower = 0.011322;
  c.upper = 0.20254;
  c.instances = 8;
  EXPECT_EQ(measured_text(c), "+10.3% [+1.1%, +20.3%], 8 instances a side");
  c.change = -0.004;
  c.lower = -0.021;
  c.upper = std::numeric_limits<double>::infinity();
  c.instances = 1;
  EXPECT_EQ(measured_text(c), "-0.4%, 1 instance a side");
}

TEST(Gate, AnEmptyStoreHasNothingToGate) {
  TempDir dir;
  auto store = store::open_store(dir.file("empty.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  for (const std::string against : {"history", "main"}) {
    GateOptions options;
    options.against = against;
    auto g = run_gate(**store, options, 1);
    ASSERT_FALSE(g.ok()) << against;
    EXPECT_NE(g.error().message.find("no finished runs"), std::string::npos) << g.error().message;
  }
}

// 300 commits with a 5% regression at commit 100 and a 4% one at 200, 1% drift between
// commits, replayed one commit at a time (tests/support/gate_replay.hpp).
benchguard::testing::ReplayOptions replay_options(bool acknowledge) {
  benchguard::testing::ReplayOptions o;
  o.steps = {{100, 1.05}, {200, 1.04}};
  o.seed = 7;
  o.acknowledge = acknowledge;
  return o;
}

// Left alone, each regression is one alarm under one id, and the gate fails at every commit
// from that alarm to the end: nothing forgets it.
TEST(Gate, OverAProjectsLifeAnUnacknowledgedRegressionIsOneAlarmThatStaysOpen) {
  TempDir dir;
  auto store = store::open_store(dir.file("replay.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  const auto o = replay_options(false);
  const auto r = benchguard::testing::replay(**store, o);
  EXPECT_EQ(r.errors, 0);
  const auto t = benchguard::testing::tally(o, r);
  EXPECT_EQ(t.alarms_per_step, (std::vector<int>{1, 1}));
  EXPECT_EQ(t.passes_while_regressed, 0);
  // The 100th commit fails under the id of the change that starts there, as do the last.
  ASSERT_EQ(r.failed.size(), 300u);
  std::string first;
  for (const auto& [id, at] : r.first_bad)
    if (at >= 99 && at <= 105) first = id;
  ASSERT_FALSE(first.empty());
  for (int k = r.first_failed.at(first); k < 300; ++k) {
    const auto& ids = r.alarms[static_cast<std::size_t>(k)];
    EXPECT_NE(std::find(ids.begin(), ids.end(), first), ids.end()) << "commit " << k;
  }
  // The A/A stretches: about the head check's 1% a commit, each closed by the commits after it.
  EXPECT_LE(t.false_alarms, 8) << t.quiet_commits << " quiet commits";
}

// Each alarm acknowledged at once: the commits after it at the same level pass, and no alarm
// repeats an acknowledged change.
TEST(Gate, OverAProjectsLifeAnAcknowledgedChangeIsNeverAlarmedAgain) {
  TempDir dir;
  auto store = store::open_store(dir.file("replay.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  const auto o = replay_options(true);
  const auto r = benchguard::testing::replay(**store, o);
  EXPECT_EQ(r.errors, 0);
  const auto t = benchguard::testing::tally(o, r);
  EXPECT_EQ(t.alarms_per_step, (std::vector<int>{1, 1}));
  EXPECT_EQ(t.repeats, 0);
  EXPECT_LE(t.false_alarms, 8) << t.quiet_commits << " quiet commits";
  for (const auto& [id, at] : r.first_bad) {
    const int failed_at = r.first_failed.at(id);
    for (int k = failed_at + 1; k < 300; ++k)
      for (const auto& other : r.alarms[static_cast<std::size_t>(k)])
        EXPECT_NE(other, id) << "commit " << k;
  }
}

}  // namespace
}  // namespace benchguard::analysis
