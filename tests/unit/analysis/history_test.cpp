// Tests for src/analysis/history.cpp and detection.cpp: series from runs, their order and
// points, and change points found, confirmed and reused incrementally.
#include "analysis/history.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/detection.hpp"
#include "stats/rng.hpp"

namespace benchguard::analysis {
namespace {

// A run of commit `commit` (committed at `commit_secs`) with one benchmark `b` of `instances`
// instances whose iterations all take about `seconds` (noise: +-`noise` relative, seeded).
RunData run_of(int64_t id, const std::string& commit, int64_t commit_secs, double seconds,
               int instances = 3, double noise = 0.0, uint32_t seed = 1) {
  RunData r;
  r.id = id;
  r.run.uuid = "uuid-" + std::to_string(id);
  r.run.status = "complete";
  r.run.started_at = id * 1'000'000'000;
  r.run.git_commit = commit;
  r.run.git_branch = "main";
  r.run.hostname = "h";
  r.run.artifacts = {{"cpu_model", "Xeon"}, {"cpu_count", "8"}, {"os", "Debian 12"}};
  if (commit_secs > 0) r.run.artifacts.emplace_back("git_commit_time", std::to_string(commit_secs));
  VariantData v;
  v.variant.benchmark = "b";
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  for (int i = 0; i < instances; ++i) {
    InstanceRecord inst;
    for (int k = 0; k < 5; ++k) {
      IterationRecord it;
      it.index = k;
      it.metrics = {{"wall_time", seconds * (1 + u(gen))}};
      inst.iterations.push_back(it);
    }
    v.instances.push_back(inst);
  }
  r.variants.push_back(v);
  return r;
}

HistoryOptions options() {
  HistoryOptions o;
  o.burn_in.mode = BurnInPolicy::Mode::kConfigured;
  return o;
}

TEST(AnalysisHistory, MachineClassFromLabelArtifactsOrHostname) {
  RunRecord r;
  r.hostname = "box";
  EXPECT_EQ(machine_class(r), "box");
  r.artifacts = {{"cpu_model", "Xeon"},
                 {"cpu_count", "8"},
                 {"mem_total_bytes", "17179869184"},
                 {"os", "Debian 12"}};
  EXPECT_EQ(machine_class(r), "Xeon, 8 CPUs, 16 GiB, Debian 12");
  r.labels = {{"machine", "ci-large"}};
  EXPECT_EQ(machine_class(r), "ci-large");
  EXPECT_EQ(machine_class(RunRecord{}), "unknown");
}

TEST(AnalysisHistory, CalibrationNullAndUnfinishedRunsAreNotHistory) {
  RunRecord r;
  r.status = "complete";
  EXPECT_TRUE(is_history_run(r));
  r.status = "imported";
  EXPECT_TRUE(is_history_run(r));
  for (const char* s : {"running", "interrupted", "failed"}) {
    r.status = s;
    EXPECT_FALSE(is_history_run(r)) << s;
  }
  r.status = "complete";
  r.labels = {{"calibration", "x"}};
  EXPECT_FALSE(is_history_run(r));
  r.labels = {{"null", "first"}};
  EXPECT_FALSE(is_history_run(r));
}

TEST(AnalysisHistory, PointsAreCommitsInCommitTimeOrderWithEveryRunOfACommit) {
  // Runs started in another order than their commits; commit "b" measured twice.
  std::vector<RunData> runs = {run_of(1, "c", 300, 3.0), run_of(2, "a", 100, 1.0),
                               run_of(3, "b", 200, 2.0), run_of(4, "b", 200, 2.0, 2)};
  RunData cal = run_of(5, "d", 400, 9.0);
  cal.run.labels = {{"calibration", "k"}};
  runs.push_back(cal);
  const History h = build_history(runs, options());
  ASSERT_EQ(h.series.size(), 1u);
  const auto& s = h.series[0];
  EXPECT_EQ(s.key(), "b||wall_time|Xeon, 8 CPUs, Debian 12");
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[0].commit, "a");
  EXPECT_EQ(s.points[1].commit, "b");
  EXPECT_EQ(s.points[2].commit, "c");
  EXPECT_EQ(std::vector<int64_t>(s.points[1].runs.begin(), s.points[1].runs.end()),
            (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(s.points[1].instances(), 5u);
  EXPECT_DOUBLE_EQ(s.points[1].centre, 2.0);
  EXPECT_EQ(s.points[1].time, 200'000'000'000);
  // Identical instances: an interval of zero width; one instance would give none.
  EXPECT_DOUBLE_EQ(s.points[0].interval.lower, 1.0);
  EXPECT_DOUBLE_EQ(s.points[0].interval.upper, 1.0);
}

TEST(AnalysisHistory, PointsShareTheirCommitsAndASeriesOutlivesItsHistory) {
  // Two benchmarks over the same two commits: one copy of each commit, branch and run uuid,
  // which every point of that commit refers to.
  std::vector<RunData> runs = {run_of(1, "a", 100, 1.0), run_of(2, "b", 200, 2.0)};
  for (auto& r : runs) {
    r.variants.push_back(r.variants.front());
    r.variants.back().variant.benchmark = "c";
  }
  HistorySeries kept;
  {
    const History h = build_history(runs, options());
    ASSERT_EQ(h.series.size(), 2u);
    const auto& first = h.series[0].points;
    const auto& second = h.series[1].points;
    ASSERT_EQ(first.size(), 2u);
    ASSERT_EQ(second.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(&first[i].commit.str(), &second[i].commit.str());
      EXPECT_EQ(&first[i].branch.str(), &second[i].branch.str());
      EXPECT_EQ(&first[i].run_uuids.front().str(), &second[i].run_uuids.front().str());
    }
    ASSERT_EQ(first[1].run_uuids.size(), 1u);
    EXPECT_EQ(first[1].run_uuids.front(), second[1].run_uuids.front());
    kept = h.series[1];
  }
  // The history is gone; its texts are not (AddressSanitizer would see a read of freed memory).
  ASSERT_EQ(kept.points.size(), 2u);
  EXPECT_EQ(kept.points[1].commit, "b");
  EXPECT_EQ(kept.points[1].branch, "main");
  EXPECT_EQ(kept.points[1].run_uuids.front().str(), "uuid-2");
  EXPECT_TRUE(SharedText().empty());
}

// A run under --measure instructions at the same commits as native runs: its wall time is the
// simulator's and stays out of the wall-time series; its instruction count is a series.
TEST(AnalysisHistory, RunsUnderValgrindGiveOnlyTheirInstructionCount) {
  std::vector<RunData> runs = {run_of(1, "a", 100, 1.0), run_of(2, "b", 200, 1.0)};
  for (const auto& [id, commit, secs] : {std::tuple{3, "a", 100}, std::tuple{4, "b", 200}}) {
    RunData sim = run_of(id, commit, secs, 50.0);  // 50x slower under Valgrind
    auto& v = sim.variants[0];
    v.variant.config_json = R"({"measure":["instructions"]})";
    for (auto& in : v.instances) {
      in.instructions = 1000000;
      for (auto& it : in.iterations) it.metrics.emplace_back("instructions", 1e6);
    }
    runs.push_back(sim);
  }
  for (const auto& asked : std::vector<std::vector<std::string>>{{}, {"all"}}) {
    auto o = options();
    o.metrics = asked;
    const History h = build_history(runs, o);
    std::map<std::string, const HistorySeries*> by_metric;
    for (const auto& s : h.series) by_metric[s.metric.name] = &s;
    ASSERT_TRUE(by_metric.contains("wall_time"));
    for (const auto& p : by_metric["wall_time"]->points)
      EXPECT_DOUBLE_EQ(p.centre, 1.0) << "simulated time mixed in at " << p.commit;
    ASSERT_TRUE(by_metric.contains("instructions")) << asked.size();
    EXPECT_EQ(by_metric["instructions"]->points.size(), 2u);
  }
}

TEST(AnalysisHistory, IntervalIsStudentTOverInstanceMeans) {
  RunData r = run_of(1, "a", 100, 1.0, 3);
  // Instance means 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.302652729749464.
  for (int i = 0; i < 3; ++i)
    for (auto& it : r.variants[0].instances[i].iterations) it.metrics[0].second = i + 1.0;
  const History h = build_history({r}, options());
  const auto& p = h.series.at(0).points.at(0);
  const double half = 4.302652729749464 / std::sqrt(3.0);
  EXPECT_NEAR(p.interval.lower, 2.0 - half, 1e-9);
  EXPECT_NEAR(p.interval.upper, 2.0 + half, 1e-9);
}

TEST(AnalysisHistory, GivenCommitsOrderPointsAndLeaveOthersOut) {
  std::vector<RunData> runs = {run_of(1, "x", 100, 1.0), run_of(2, "y", 300, 2.0),
                               run_of(3, "side", 200, 5.0)};
  HistoryOptions o = options();
  o.commits = {"y", "x"};  // the repository's order wins over commit times
  const History h = build_history(runs, o);
  ASSERT_EQ(h.series.at(0).points.size(), 2u);
  EXPECT_EQ(h.series[0].points[0].commit, "y");
  EXPECT_EQ(h.series[0].points[1].commit, "x");
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_NE(h.warnings[0].find("1 run(s)"), std::string::npos) << h.warnings[0];
}

TEST(AnalysisHistory, LastSinceAndMachineSelectPoints) {
  std::vector<RunData> runs;
  for (int k = 1; k <= 6; ++k) runs.push_back(run_of(k, "c" + std::to_string(k), 100 * k, 1.0));
  runs[5].run.labels = {{"machine", "other"}};
  HistoryOptions o = options();
  o.last = 2;
  History h = build_history(runs, o);
  ASSERT_EQ(h.series.size(), 2u);  // two machine classes
  const auto& main = h.series[0].machine == "other" ? h.series[1] : h.series[0];
  ASSERT_EQ(main.points.size(), 2u);
  EXPECT_EQ(main.points[1].commit, "c5");
  o = options();
  o.since = 300'000'000'000;
  o.machine = "other";
  h = build_history(runs, o);
  ASSERT_EQ(h.series.size(), 1u);
  ASSERT_EQ(h.series[0].points.size(), 1u);
  EXPECT_EQ(h.series[0].points[0].commit, "c6");
}

// 60 commits of 4 instances, +-1% noise, a 10% slowdown from commit 40 (index 39).
std::vector<RunData> stepped_runs(int commits = 60) {
  std::vector<RunData> runs;
  for (int k = 1; k <= commits; ++k)
    runs.push_back(run_of(k, "c" + std::to_string(k), 1000 + k, k >= 40 ? 1.1 : 1.0, 4, 0.01,
                          static_cast<uint32_t>(k)));
  return runs;
}

// The runs of stepped_runs() with each run's instances replaced by one summary record of
// wall_time (their mean, `count` measurements), as a stats-only import gives them.
std::vector<RunData> summarised(std::vector<RunData> runs, int64_t count) {
  for (auto& r : runs)
    for (auto& v : r.variants) {
      double sum = 0;
      int n = 0;
      for (const auto& in : v.instances)
        for (const auto& it : in.iterations) {
          sum += *it.metric("wall_time");
          ++n;
        }
      v.instances.clear();
      SummaryRecord s;
      s.metric = "wall_time";
      s.count = count;
      s.mean = sum / n;
      s.stddev = 0.01 * s.mean;
      v.summaries = {s};
    }
  return runs;
}

TEST(AnalysisHistory, SummaryRecordsArePointsMarkedAsSuch) {
  // Commit c1 has one run of instances and one run of a summary: the instances make the
  // point; c2 has two summaries (counts 10 and 30): a summary point, its centre weighted by
  // the counts, its interval over the two means; c3 one summary of unknown count.
  std::vector<RunData> runs{run_of(1, "c1", 100, 1.0), run_of(2, "c1", 100, 5.0),
                            run_of(3, "c2", 200, 2.0), run_of(4, "c2", 200, 4.0),
                            run_of(5, "c3", 300, 3.0)};
  runs[1] = summarised({runs[1]}, 7)[0];
  runs[2] = summarised({runs[2]}, 10)[0];
  runs[3] = summarised({runs[3]}, 30)[0];
  runs[4] = summarised({runs[4]}, 0)[0];
  const History h = build_history(runs, options());
  ASSERT_EQ(h.series.size(), 1u);
  const auto& p = h.series[0].points;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_FALSE(p[0].summary());
  EXPECT_EQ(p[0].instances(), 3u);
  EXPECT_DOUBLE_EQ(p[0].centre, 1.0);  // the summary beside instances does not count
  EXPECT_EQ(p[0].summaries.size(), 1u);

  EXPECT_TRUE(p[1].summary());
  EXPECT_EQ(p[1].instances(), 0u);
  EXPECT_EQ(p[1].summarised(), 40);
  EXPECT_DOUBLE_EQ(p[1].centre, (2.0 * 10 + 4.0 * 30) / 40);
  // Student t over the two means 2 and 4: 3 +- t(0.975, 1) * 1.
  EXPECT_NEAR(p[1].interval.lower, 3.0 - 12.7062047361747, 1e-9);
  EXPECT_NEAR(p[1].interval.upper, 3.0 + 12.7062047361747, 1e-9);

  EXPECT_TRUE(p[2].summary());
  EXPECT_EQ(p[2].summarised(), 0);  // not known
  EXPECT_DOUBLE_EQ(p[2].centre, 3.0);
  EXPECT_TRUE(std::isnan(p[2].interval.lower));  // one summary: no between-run spread
}

TEST(AnalysisDetection, AStepInSummaryPointsIsSuspectedNeverConfirmed) {
  // The step of stepped_runs(), seen through summaries only: found at the same commit, but
  // without instances on either side there is nothing to confirm it with.
  const History h = build_history(summarised(stepped_runs(), 15), options());
  ASSERT_EQ(h.series.size(), 1u);
  ASSERT_TRUE(h.series[0].points.front().summary());
  DetectOptions o;
  o.verdict.resamples = 2000;
  const Detection d = detect_history(h, o, {}, {}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].first_bad, "c40");
  EXPECT_EQ(d.changes[0].kind, "regression");
  EXPECT_EQ(d.changes[0].status, "suspected");
  EXPECT_NEAR(d.changes[0].change, 0.10, 0.01);
}

TEST(AnalysisDetection, StepIsAConfirmedRegressionWithItsCommitRange) {
  const History h = build_history(stepped_runs(), options());
  DetectOptions o;
  o.verdict.resamples = 2000;
  const Detection d = detect_history(h, o, {}, {}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  const auto& c = d.changes[0];
  EXPECT_EQ(c.last_good, "c39");
  EXPECT_EQ(c.first_bad, "c40");
  EXPECT_EQ(c.index, 39);
  EXPECT_EQ(c.kind, "regression");
  EXPECT_EQ(c.status, "confirmed");
  EXPECT_NEAR(c.change, 0.10, 0.01);
  EXPECT_LT(c.change_lower, c.change);
  EXPECT_GT(c.change_upper, c.change);
  EXPECT_EQ(c.id, change_id(h.series[0].key(), "c40"));
  EXPECT_EQ(c.id.size(), 10u);
  EXPECT_EQ(c.detected_at, 7);
  ASSERT_EQ(d.states.size(), 1u);
  EXPECT_EQ(d.states[0].points, 60);
  EXPECT_EQ(d.states[0].settings, detect_settings(o));
}

// A change found at the head and confirmed by measuring its commits again (the stored record
// says so) stays after newer points, where it is now, though the series around it is flat to
// a detector; one still only suspected, or whose commits no longer meet in the series, does
// not. Where the detector finds the same change, the kept record stands for it.
TEST(AnalysisDetection, AChangeConfirmedByMeasuringAgainStaysAfterNewerPoints) {
  const History flat = build_history(stepped_runs(30), options());  // the step is at c40
  ASSERT_EQ(flat.series.size(), 1u);
  const std::string key = flat.series[0].key();
  store::ChangeRecord head;
  head.id = change_id(key, "c20");
  head.series_key = key;
  head.benchmark = flat.series[0].benchmark;
  head.variant = flat.series[0].variant;
  head.metric = flat.series[0].metric.name;
  head.machine = flat.series[0].machine;
  head.method = "head";
  head.last_good = "c19";
  head.first_bad = "c20";
  head.index = 19;
  head.kind = "regression";
  head.status = "confirmed";
  head.change = 0.05;
  head.detected_at = 3;
  DetectOptions o;
  o.verdict.resamples = 2000;
  EXPECT_TRUE(detect_history(flat, o, {}, {}, 7).changes.empty());
  Detection d = detect_history(flat, o, {}, {head}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].id, head.id);
  EXPECT_EQ(d.changes[0].status, "confirmed");
  EXPECT_EQ(d.changes[0].index, 19);
  EXPECT_EQ(d.changes[0].detected_at, 3);
  EXPECT_DOUBLE_EQ(d.changes[0].change, 0.05);  // as it was found and measured
  // The newest point is checked against the 10 points since it; the newest 3 against the 19
  // before it and the 8 between. As flat as they all are, nothing says the newest commits went
  // back: the change, measured as a fact, is not undone by points that merely fail to show it.
  ASSERT_EQ(d.heads.size(), 1u);
  EXPECT_TRUE(d.heads[0].check.examined);
  EXPECT_EQ(d.heads[0].check.baseline_points, 10u);
  EXPECT_EQ(d.heads[0].kept_id, head.id);
  EXPECT_TRUE(d.heads[0].revert.examined) << d.heads[0].revert.why_not;
  EXPECT_EQ(d.heads[0].revert.old_points, 19u);
  EXPECT_EQ(d.heads[0].revert.after_points, 8u);
  EXPECT_EQ(d.heads[0].revert.newest_points, 3u);
  EXPECT_FALSE(d.heads[0].undoes_kept());
  // The same change, found at commit k instead.
  const auto at = [&](int k) {
    store::ChangeRecord moved = head;
    moved.id = change_id(key, "c" + std::to_string(k));
    moved.last_good = "c" + std::to_string(k - 1);
    moved.first_bad = "c" + std::to_string(k);
    return moved;
  };
  // Kept at c28, with only 2 points after it: the head check takes the points before it too.
  d = detect_history(flat, o, {}, {at(28)}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].index, 27);
  EXPECT_TRUE(d.heads[0].check.examined) << d.heads[0].check.why_not;
  EXPECT_GT(d.heads[0].check.baseline_points, 2u);

  store::ChangeRecord suspected = head;
  suspected.status = "suspected";
  EXPECT_TRUE(detect_history(flat, o, {}, {suspected}, 7).changes.empty());
  store::ChangeRecord elsewhere = head;
  elsewhere.last_good = "c18";  // the series no longer has c18 just before c20
  EXPECT_TRUE(detect_history(flat, o, {}, {elsewhere}, 7).changes.empty());

  const History stepped = build_history(stepped_runs(), options());
  d = detect_history(stepped, o, {}, {at(40)}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].id, at(40).id);
  EXPECT_EQ(d.changes[0].method, "head");
  EXPECT_EQ(d.changes[0].status, "confirmed");
  EXPECT_EQ(d.changes[0].index, 39);
}

// 200 commits about one level, each off by its own drift (normal, 1.5% sd, from `seed`), 3
// instances of 5 iterations with +-0.5% noise within a commit: no change at all.
std::vector<RunData> drifting_without_change(uint64_t seed) {
  stats::Rng rng(seed, 0);
  std::vector<RunData> runs;
  for (int k = 1; k <= 200; ++k)
    runs.push_back(run_of(k, "c" + std::to_string(k), 1000 + k, 1 + 0.015 * rng.normal(), 3, 0.005,
                          static_cast<uint32_t>(k)));
  return runs;
}

// What confirmed a change before: the instances of the points before it pooled against those
// after it, as if independent, under `compare`'s verdict rule.
bool pooled_instances_confirm(const HistorySeries& s, const store::ChangeRecord& c) {
  stats::Hierarchical a, b;
  for (auto i = c.segment_start; i < c.segment_end; ++i)
    for (std::size_t k = 0; k < s.points[static_cast<std::size_t>(i)].data.instances(); ++k)
      (i < c.index ? a : b).add_instance(s.points[static_cast<std::size_t>(i)].data.instance(k));
  stats::VerdictOptions v;
  v.resamples = 2000;
  v.direction = s.metric.direction;
  const auto verdict = stats::compare(a, b, v).verdict;
  return verdict == (c.kind == "regression" ? stats::Verdict::kSlower : stats::Verdict::kFaster);
}

// Drift between commits and no change: the detector still finds change points now and then
// (here two, among 200 commits of seed 189: one of the few of the first 400 seeds where it
// does). Their instances pooled before against after, as if independent, called both real:
// the instances of one commit share its drift. The commits as units do not.
TEST(AnalysisDetection, DriftBetweenCommitsWithoutAChangeIsNotConfirmed) {
  const History h = build_history(drifting_without_change(189), options());
  ASSERT_EQ(h.series.size(), 1u);
  DetectOptions o;
  o.verdict.resamples = 2000;
  const Detection d = detect_history(h, o, {}, {}, 7);
  std::size_t found = 0;
  for (const auto& c : d.changes) {
    if (c.method == "head") continue;
    ++found;
    EXPECT_TRUE(pooled_instances_confirm(h.series[0], c)) << c.index;
    EXPECT_EQ(c.status, "suspected") << c.index;
  }
  EXPECT_EQ(found, 2u);
}

// Commit-to-commit drift: each commit's level off by its own amount (a build's code layout, the
// machine's state that day), the same for the 10 commits of every cycle, mean 0.
constexpr double kDrift[] = {0.004,  -0.011, 0.008,  -0.002, 0.013,
                             -0.007, 0.001,  -0.012, 0.009,  -0.003};

// 30 commits c1..c30 about 1.0, then commits c31... at `levels` (each times its drift), 4
// instances of 5 iterations each, +-0.2% noise within a commit.
History drifting(const std::vector<double>& levels) {
  std::vector<RunData> runs;
  for (int k = 1; k <= 30 + static_cast<int>(levels.size()); ++k) {
    const double level = k <= 30 ? 1.0 : levels[static_cast<std::size_t>(k - 31)];
    runs.push_back(run_of(k, "c" + std::to_string(k), 1000 + k, level * (1 + kDrift[k % 10]), 4,
                          0.002, static_cast<uint32_t>(k)));
  }
  return build_history(runs, options());
}

// A 3% step at c31 found at the head and confirmed by measuring c30 and c31 again: the record
// the store keeps of it.
store::ChangeRecord kept_step(const HistorySeries& s) {
  store::ChangeRecord r;
  r.series_key = s.key();
  r.id = change_id(r.series_key, "c31");
  r.benchmark = s.benchmark;
  r.variant = s.variant;
  r.metric = s.metric.name;
  r.machine = s.machine;
  r.method = "head";
  r.last_good = "c30";
  r.first_bad = "c31";
  r.index = 30;
  r.kind = "regression";
  r.status = "confirmed";
  r.change = 0.03;
  return r;
}

// A lasting step: 9 commits at +3%, then one unremarkable commit, +1.2% of the old level: well
// inside where a new point of the commits before the step would lie (the old rule called that
// undone and passed the gate), but nothing says the step went away.
TEST(AnalysisDetection, ALastingStepIsNotUndoneByOneUnremarkableCommit) {
  std::vector<double> levels(9, 1.03);
  levels.push_back(1.012 / (1 + kDrift[40 % 10]));  // c40 measures at 1.012
  const History h = drifting(levels);
  ASSERT_EQ(h.series.size(), 1u);
  const auto& s = h.series[0];
  ASSERT_EQ(s.points.size(), 40u);
  // The old rule: the newest point against the 30 before the step, not suspected.
  std::vector<stats::PointMoments> before;
  for (std::size_t i = 0; i < 30; ++i) before.push_back(stats::point_moments(s.points[i].data));
  EXPECT_FALSE(stats::check_head(before, stats::point_moments(s.points[39].data)).suspected);

  DetectOptions o;
  o.verdict.resamples = 2000;
  Detection d = detect_history(h, o, {}, {kept_step(s)}, 7);
  ASSERT_EQ(d.heads.size(), 1u);
  EXPECT_EQ(d.heads[0].kept_id, kept_step(s).id);
  ASSERT_TRUE(d.heads[0].revert.examined) << d.heads[0].revert.why_not;
  EXPECT_FALSE(d.heads[0].undoes_kept());
  // Three such commits are not back either: their mean is 1.2% above the old level, more than
  // the 1% threshold.
  levels.push_back(1.012 / (1 + kDrift[41 % 10]));
  levels.push_back(1.012 / (1 + kDrift[42 % 10]));
  d = detect_history(drifting(levels), o, {}, {kept_step(s)}, 7);
  ASSERT_TRUE(d.heads[0].revert.examined);
  EXPECT_GT(d.heads[0].revert.from_old, 0.01);
  EXPECT_FALSE(d.heads[0].undoes_kept());
}

// The step reverted: after 9 commits at +3%, commits back at the old level. One or two commits
// back are not yet evidence; three are.
TEST(AnalysisDetection, ARealRevertIsUndoneOnceThreeCommitsShowIt) {
  std::vector<double> levels(9, 1.03);
  const store::ChangeRecord kept = kept_step(drifting(levels).series.at(0));
  DetectOptions o;
  o.verdict.resamples = 2000;
  for (int back = 1; back <= 2; ++back) {
    levels.push_back(1.0);
    const Detection d = detect_history(drifting(levels), o, {}, {kept}, 7);
    ASSERT_EQ(d.heads.size(), 1u);
    EXPECT_EQ(d.heads[0].kept_id, kept.id);
    EXPECT_FALSE(d.heads[0].undoes_kept()) << back;
  }
  levels.push_back(1.0);
  const Detection d = detect_history(drifting(levels), o, {}, {kept}, 7);
  EXPECT_EQ(d.heads[0].kept_id, kept.id);
  ASSERT_TRUE(d.heads[0].revert.examined) << d.heads[0].revert.why_not;
  EXPECT_EQ(d.heads[0].revert.old_points, 30u);
  EXPECT_EQ(d.heads[0].revert.after_points, 9u);
  EXPECT_LT(d.heads[0].revert.p_value, 0.01);
  EXPECT_TRUE(d.heads[0].undoes_kept());
}

// The step of kept_step, raised as an alarm by the gate (not measured again).
store::ChangeRecord alarm_step(const HistorySeries& s) {
  store::ChangeRecord r = kept_step(s);
  r.status = "alarm";
  r.change = 0.05;
  return r;
}

// The head change record of a detection, if any.
const store::ChangeRecord* head_change(const Detection& d) {
  for (const auto& c : d.changes)
    if (c.method == "head" && c.id == d.heads.at(0).change_id) return &c;
  return nullptr;
}

// The commits after an alarm at its level are part of it: no new change at each of them, and
// the alarm keeps its id and follows the points after it.
TEST(AnalysisDetection, CommitsAfterAnAlarmAtItsLevelArePartOfIt) {
  const History h = drifting({1.05, 1.05, 1.05});
  ASSERT_EQ(h.series.size(), 1u);
  DetectOptions o;
  o.verdict.resamples = 2000;
  // Not kept (no alarm stored): the newest commit is a change of its own against the 30 before.
  Detection d = detect_history(h, o, {}, {}, 7);
  ASSERT_NE(head_change(d), nullptr);
  EXPECT_EQ(head_change(d)->first_bad, "c33");
  const store::ChangeRecord alarm = alarm_step(h.series[0]);
  d = detect_history(h, o, {}, {alarm}, 7);
  ASSERT_EQ(d.heads.size(), 1u);
  EXPECT_TRUE(d.heads[0].check.suspected);
  EXPECT_EQ(d.heads[0].part_of, alarm.id);
  EXPECT_TRUE(d.heads[0].change_id.empty());
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].id, alarm.id);
  EXPECT_EQ(d.changes[0].status, "alarm");
  // Its size from the 30 points before it and the 3 since it.
  EXPECT_EQ(d.changes[0].segment_start, 0);
  EXPECT_EQ(d.changes[0].segment_end, 33);
  EXPECT_NEAR(d.changes[0].change, 0.05, 0.01);
  // Measured again and refuted: no longer kept, the newest commit is a change of its own.
  store::ChangeRecord refuted = alarm;
  refuted.status = "refuted";
  d = detect_history(h, o, {}, {refuted}, 7);
  EXPECT_TRUE(d.heads[0].part_of.empty());
  EXPECT_FALSE(d.heads[0].change_id.empty());
}

// A further step while the alarm settles is a change of its own.
TEST(AnalysisDetection, AStepBeyondASettlingAlarmIsANewChange) {
  const History h = drifting({1.05, 1.05, 1.15});
  DetectOptions o;
  o.verdict.resamples = 2000;
  const store::ChangeRecord alarm = alarm_step(h.series.at(0));
  const Detection d = detect_history(h, o, {}, {alarm}, 7);
  EXPECT_TRUE(d.heads.at(0).part_of.empty());
  ASSERT_NE(head_change(d), nullptr);
  EXPECT_EQ(head_change(d)->first_bad, "c33");
  EXPECT_EQ(head_change(d)->kind, "regression");
}

// An acknowledged change found at the head is a change point: the commits after it at its
// level are part of it, and from 5 points on the baseline starts at it. Unacknowledged (and
// never an alarm), it is not kept.
TEST(AnalysisDetection, AnAcknowledgedHeadChangeIsAChangePoint) {
  DetectOptions o;
  o.verdict.resamples = 2000;
  const History settling = drifting({1.05, 1.05});
  store::ChangeRecord suspected = alarm_step(settling.series.at(0));
  suspected.status = "suspected";
  const std::vector<store::AckRecord> acks = {{suspected.id, "accepted: new level", 5}};
  Detection d = detect_history(settling, o, {}, {suspected}, 7, acks);
  EXPECT_EQ(d.heads.at(0).part_of, suspected.id);
  EXPECT_TRUE(d.heads[0].change_id.empty());
  d = detect_history(settling, o, {}, {suspected}, 7);
  EXPECT_TRUE(d.heads.at(0).part_of.empty());
  EXPECT_FALSE(d.heads[0].change_id.empty());

  const History after = drifting({1.05, 1.05, 1.05, 1.05, 1.05, 1.05});
  d = detect_history(after, o, {}, {suspected}, 7, acks);
  EXPECT_TRUE(d.heads.at(0).check.examined);
  EXPECT_EQ(d.heads[0].check.baseline_points, 5u);
  EXPECT_FALSE(d.heads[0].check.suspected);
}

// An alarm the newest commits undo closes itself, and is no longer kept.
TEST(AnalysisDetection, AnAlarmTheNewestCommitsUndoClosesItself) {
  std::vector<double> levels(9, 1.03);
  levels.insert(levels.end(), 3, 1.0);
  const History h = drifting(levels);
  DetectOptions o;
  o.verdict.resamples = 2000;
  const store::ChangeRecord alarm = alarm_step(h.series.at(0));
  Detection d = detect_history(h, o, {}, {alarm}, 7);
  EXPECT_EQ(d.heads.at(0).kept_id, alarm.id);
  EXPECT_TRUE(d.heads[0].undoes_kept());
  const auto closed = std::find_if(d.changes.begin(), d.changes.end(),
                                   [&](const auto& c) { return c.id == alarm.id; });
  ASSERT_NE(closed, d.changes.end());
  EXPECT_EQ(closed->status, "undone");
  d = detect_history(h, o, d.states, d.changes, 8);
  EXPECT_TRUE(d.heads.at(0).kept_id.empty());
  // The detector sees the 9 commits' step now, at the same commit: its change, suspected (the
  // history does not confirm it), stands for that commit under the same id, and fails nothing.
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].id, alarm.id);
  EXPECT_NE(d.changes[0].method, "head");
  EXPECT_EQ(d.changes[0].status, "suspected");
}

// An older alarm, a newer one kept after it, is judged by the commits between the two: at the
// old level, they do not support it, and it closes.
TEST(AnalysisDetection, AnOlderAlarmTheCommitsAfterItDoNotSupportCloses) {
  const History h = drifting(std::vector<double>(20, 1.0));
  DetectOptions o;
  o.verdict.resamples = 2000;
  const store::ChangeRecord older = alarm_step(h.series.at(0));
  store::ChangeRecord newer = older;
  newer.id = change_id(newer.series_key, "c41");
  newer.last_good = "c40";
  newer.first_bad = "c41";
  newer.index = 40;
  const Detection d = detect_history(h, o, {}, {older, newer}, 7);
  // Each judged by the commits up to the next change point: the older by c32..c40 (the newer
  // still open then), the newer by c42..c50; both at the old level.
  ASSERT_EQ(d.heads.at(0).closed.size(), 2u);
  EXPECT_EQ(d.heads[0].closed[0].id, older.id);
  EXPECT_EQ(d.heads[0].closed[0].support.newest_points, 9u);
  EXPECT_EQ(d.heads[0].closed[1].id, newer.id);
  EXPECT_EQ(d.heads[0].closed[1].support.newest_points, 9u);
  for (const auto& c : d.changes) {
    if (c.id == older.id) {
      EXPECT_EQ(c.status, "undone");
    }
  }
  // Ten commits after it at +5%: they support it, and it stays open (the newer, whose commits
  // since lie below the level before it, closes).
  std::vector<double> stepped(20, 1.0);
  std::fill(stepped.begin(), stepped.begin() + 10, 1.05);
  const Detection kept = detect_history(drifting(stepped), o, {}, {older, newer}, 7);
  ASSERT_EQ(kept.heads.at(0).closed.size(), 1u);
  EXPECT_EQ(kept.heads[0].closed[0].id, newer.id);
  for (const auto& c : kept.changes) {
    if (c.id == older.id) {
      EXPECT_EQ(c.status, "alarm");
    }
  }
}

// A detector's change a commit away from an alarm of the same kind is that alarm: one id.
TEST(AnalysisDetection, ADetectorsChangeNearAnAlarmIsThatAlarm) {
  const History h = build_history(stepped_runs(), options());  // the step is at c40
  DetectOptions o;
  o.verdict.resamples = 2000;
  Detection d = detect_history(h, o, {}, {}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].first_bad, "c40");
  store::ChangeRecord alarm = d.changes[0];
  alarm.id = change_id(alarm.series_key, "c41");
  alarm.method = "head";
  alarm.last_good = "c40";
  alarm.first_bad = "c41";
  alarm.status = "alarm";
  d = detect_history(h, o, {}, {alarm}, 7);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].id, alarm.id);
  EXPECT_EQ(d.changes[0].index, 40);
}

TEST(AnalysisDetection, FasterThroughputIsAnImprovementAndLowerThroughputARegression) {
  auto runs = stepped_runs();
  for (auto& r : runs)
    for (auto& inst : r.variants[0].instances)
      for (auto& it : inst.iterations) it.metrics[0].first = "throughput";
  HistoryOptions ho = options();
  ho.metrics = {"throughput"};
  const History h = build_history(runs, ho);
  ASSERT_EQ(h.series.at(0).metric.direction, Direction::kHigherIsBetter);
  DetectOptions o;
  o.verdict.resamples = 2000;
  const Detection d = detect_history(h, o, {}, {}, 1);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].kind, "improvement");
  EXPECT_EQ(d.changes[0].status, "confirmed");
}

TEST(AnalysisDetection, ChangeBelowTheVerdictThresholdIsSuspectedOnly) {
  // A 0.5% step in 0.01% noise: a clear change point, yet below the 1% that `compare` calls
  // slower, so the instances do not confirm it.
  std::vector<RunData> runs;
  for (int k = 1; k <= 60; ++k)
    runs.push_back(run_of(k, "c" + std::to_string(k), 1000 + k, k >= 40 ? 1.005 : 1.0, 4, 0.0001,
                          static_cast<uint32_t>(k)));
  const History h = build_history(runs, options());
  DetectOptions o;
  o.verdict.resamples = 2000;
  const Detection d = detect_history(h, o, {}, {}, 1);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].first_bad, "c40");
  EXPECT_EQ(d.changes[0].kind, "regression");
  EXPECT_EQ(d.changes[0].status, "suspected");
}

TEST(AnalysisDetection, AppendedPointsReuseTheStoredResultAndEqualAFullDetection) {
  // Long enough for the change at index 39 to lie before what 20 new points can affect
  // (reexamine_from(200) is about 200 - 3 x 50).
  const auto runs = stepped_runs(220);
  DetectOptions o;
  o.verdict.resamples = 2000;
  std::vector<RunData> first(runs.begin(), runs.begin() + 200);
  ASSERT_GT(stats::reexamine_from(200, stats::EDivisiveOptions{}), 39u);
  const Detection before = detect_history(build_history(first, options()), o, {}, {}, 1);
  const History all = build_history(runs, options());
  const Detection incremental = detect_history(all, o, before.states, before.changes, 2);
  const Detection full = detect_history(all, o, {}, {}, 2);
  EXPECT_EQ(incremental.reused, 1u);
  EXPECT_EQ(full.reused, 0u);
  ASSERT_EQ(incremental.changes.size(), full.changes.size());
  for (size_t i = 0; i < full.changes.size(); ++i) {
    EXPECT_EQ(incremental.changes[i].id, full.changes[i].id);
    EXPECT_EQ(incremental.changes[i].index, full.changes[i].index);
    EXPECT_EQ(incremental.changes[i].p_value, full.changes[i].p_value);
    // A change found before keeps the time it was first found.
    EXPECT_EQ(incremental.changes[i].detected_at, 1);
    EXPECT_EQ(full.changes[i].detected_at, 2);
  }
  // A changed past (another value at an old commit) is examined afresh.
  auto changed = runs;
  changed[5].variants[0].instances[0].iterations[0].metrics[0].second = 5.0;
  const Detection again =
      detect_history(build_history(changed, options()), o, before.states, before.changes, 3);
  EXPECT_EQ(again.reused, 0u);
  // So are other settings.
  DetectOptions other = o;
  other.method = stats::ChangeMethod::kThreshold;
  EXPECT_EQ(detect_history(all, other, before.states, before.changes, 3).reused, 0u);
}

TEST(AnalysisDetection, SettingsNameMethodAndOptions) {
  DetectOptions o;
  EXPECT_EQ(detect_settings(o), "method=e-divisive;p=0.001;window=50;min_magnitude=0");
  o.method = stats::ChangeMethod::kEDivisivePermutation;
  EXPECT_EQ(detect_settings(o),
            "method=permutation;p=0.05;window=50;min_magnitude=0;permutations=100;seed=0");
  o.method = stats::ChangeMethod::kThreshold;
  o.absolute_floor = 0.5;
  EXPECT_EQ(detect_settings(o), "method=threshold;baseline=10;sigmas=3;floor=0.5;run=3");
}

TEST(AnalysisDetection, ChangeIdsAreStableAndDistinct) {
  EXPECT_EQ(change_id("b||wall_time|m", "c40"), change_id("b||wall_time|m", "c40"));
  EXPECT_NE(change_id("b||wall_time|m", "c40"), change_id("b||wall_time|m", "c41"));
  EXPECT_NE(change_id("b||wall_time|m", "c40"), change_id("b||cpu_time|m", "c40"));
}

}  // namespace
}  // namespace benchguard::analysis
