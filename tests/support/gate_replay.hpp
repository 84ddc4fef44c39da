// A history with known truth replayed one commit at a time through the gate, as CI meets it:
// each commit's run stored, then `gate` against history; every alarm acknowledged at once, or
// none. Shared by tests/unit/analysis/gate_test.cpp and bench/gate_replay_bench.cpp.
//
// Model (bench/head_check_bench.cpp's): one benchmark, 3 instances a commit of 5 iterations;
// every iteration 1% noise around its instance, every instance 1% around its commit's
// measured level, and that level off by `drift` (relative sd) from the true one, independently
// from commit to commit.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/gate.hpp"
#include "core/model.hpp"
#include "stats/rng.hpp"
#include "store/store.hpp"

namespace benchguard::testing {

struct ReplayStep {
  int at = 0;          // the first commit (0-based) at the new level
  double ratio = 1.0;  // the new level against the one before it
};

struct ReplayOptions {
  int commits = 300;
  std::vector<ReplayStep> steps;
  double drift = 0.01;
  uint64_t seed = 1;
  bool acknowledge = false;  // every alarm acknowledged once the gate fails on it
};

struct ReplayOutcome {
  // Per commit: whether the gate failed, and the ids it failed on.
  std::vector<bool> failed;
  std::vector<std::vector<std::string>> alarms;
  // Every id the gate failed on: the commit (0-based) of its first bad point, and the first
  // commit at which it failed.
  std::map<std::string, int> first_bad, first_failed;
  int errors = 0;  // gates that gave an error (none expected)
  std::string first_error;
};

inline std::string replay_commit(int k) {
  return fmt::format("{:040x}", 0x5eed0000 + k);
}

// The run of commit k (0-based) at true level `level`.
inline RunData replay_run(int k, double level, double drift, stats::Rng& rng) {
  RunData run;
  run.run.uuid = fmt::format("00000000-0000-4000-8000-{:012x}", k + 1);
  run.run.started_at = (1767225600LL + 3600LL * k) * 1'000'000'000LL;
  run.run.finished_at = run.run.started_at + 60'000'000'000LL;
  run.run.status = "complete";
  run.run.suite = "replay";
  run.run.hostname = "ci-1";
  run.run.git_commit = replay_commit(k);
  run.run.git_branch = "main";
  run.run.labels = {{"machine", "ci"}};
  run.run.artifacts = {{"git_commit_time", std::to_string(1767225600LL + 3600LL * k - 600)}};
  VariantData v;
  v.variant.benchmark = "spin";
  v.variant.name = "default";
  const double commit = 0.01 * level * (1 + drift * rng.normal());
  for (int i = 0; i < 3; ++i) {
    InstanceRecord inst;
    inst.index = i;
    inst.order = i;
    inst.exit_code = 0;
    inst.started_at = run.run.started_at + i;
    const double instance = commit * (1 + 0.01 * rng.normal());
    for (int t = 0; t < 5; ++t) {
      IterationRecord it;
      it.index = t;
      it.metrics = {{"wall_time", instance * (1 + 0.01 * rng.normal())}};
      inst.iterations.push_back(it);
    }
    v.instances.push_back(std::move(inst));
  }
  run.variants.push_back(std::move(v));
  return run;
}

// The true level of commit k.
inline double replay_level(const ReplayOptions& o, int k) {
  double level = 1.0;
  for (const auto& s : o.steps)
    if (k >= s.at) level *= s.ratio;
  return level;
}

// Replays the history into `store` (empty), gating after each commit from the first on.
inline ReplayOutcome replay(store::Store& store, const ReplayOptions& o) {
  ReplayOutcome out;
  stats::Rng rng(o.seed, 0);
  std::map<std::string, int> index_of;
  analysis::GateOptions gate;
  gate.history.metrics = {"wall_time"};
  for (int k = 0; k < o.commits; ++k) {
    index_of[replay_commit(k)] = k;
    if (!store.add_runs({replay_run(k, replay_level(o, k), o.drift, rng)}, {}).ok()) {
      ++out.errors;
      continue;
    }
    auto g = analysis::run_gate(store, gate, 1000 + k);
    if (!g.ok()) {
      if (out.errors++ == 0) out.first_error = fmt::format("commit {}: {}", k, g.error().message);
      out.failed.push_back(false);
      out.alarms.emplace_back();
      continue;
    }
    out.failed.push_back(g->failed());
    std::vector<std::string> ids;
    for (const auto& row : g->alerts) {
      ids.push_back(row.change.id);
      out.first_bad.emplace(row.change.id, index_of[row.change.first_bad]);
      out.first_failed.emplace(row.change.id, k);
      if (o.acknowledge) (void)store.set_ack({row.change.id, "accepted: new level", 1000 + k});
    }
    out.alarms.push_back(std::move(ids));
  }
  return out;
}

// What a replay says against its truth. An alarm belongs to the true regression whose commit
// its first bad point is within `near` commits of (after it, or at most 1 before); any other
// is a false alarm.
struct ReplayTally {
  std::vector<int> alarms_per_step;  // distinct ids per true regression
  int repeats = 0;                   // ids beyond the first at a true regression
  int false_alarms = 0;
  int quiet_commits = 0;  // commits not within `near` after a true step (the A/A stretches)
  // Commits from a true regression's first alarm to the end of the series (or to the next
  // step) at which the gate did not fail.
  int passes_while_regressed = 0;
};

inline ReplayTally tally(const ReplayOptions& o, const ReplayOutcome& r, int near = 5) {
  ReplayTally t;
  std::vector<ReplayStep> regressions;
  for (const auto& s : o.steps)
    if (s.ratio > 1) regressions.push_back(s);
  t.alarms_per_step.assign(regressions.size(), 0);
  for (const auto& [id, at] : r.first_bad) {
    bool matched = false;
    for (std::size_t i = 0; i < regressions.size(); ++i)
      if (at >= regressions[i].at - 1 && at <= regressions[i].at + near) {
        ++t.alarms_per_step[i];
        matched = true;
      }
    if (!matched) ++t.false_alarms;
  }
  for (const int n : t.alarms_per_step) t.repeats += std::max(0, n - 1);
  for (int k = 5; k < o.commits; ++k) {
    const bool near_step = std::any_of(o.steps.begin(), o.steps.end(), [&](const auto& s) {
      return k >= s.at - 1 && k <= s.at + near;
    });
    t.quiet_commits += near_step ? 0 : 1;
  }
  for (std::size_t i = 0; i < regressions.size(); ++i) {
    int first = -1;
    for (const auto& [id, at] : r.first_bad)
      if (at >= regressions[i].at - 1 && at <= regressions[i].at + near) {
        const int f = r.first_failed.at(id);
        first = first < 0 ? f : std::min(first, f);
      }
    if (first < 0) continue;
    int end = o.commits;
    for (const auto& s : o.steps)
      if (s.at > regressions[i].at) end = std::min(end, s.at);
    for (int k = first; k < end && k < static_cast<int>(r.failed.size()); ++k)
      t.passes_while_regressed += r.failed[static_cast<std::size_t>(k)] ? 0 : 1;
  }
  return t;
}

}  // namespace benchguard::testing
