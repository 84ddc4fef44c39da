// The gate over a project's life (docs/history.md, "One change, one alarm"): series of 300
// commits with known truth (tests/support/gate_replay.hpp: point noise as in
// bench/head_check_bench, drift between commits) replayed one commit at a time through `gate`
// against a SQLite store, once with every alarm acknowledged at once and once with none.
// Printed, not asserted (tests/unit/analysis/gate_test.cpp holds two seeded replays).
//
// Truth: a 5% regression at commit 100, a 4% one at 200 and a 2% one at 250 (twice the
// threshold: a quarter of such steps or fewer are seen at their commit), the rest unchanged. Per
// setting: the alarms (distinct ids) per true regression, the repeats among them (ids beyond the
// first at a regression), the commits from a regression's first alarm to the end at which an
// unacknowledged gate passed, the false alarms per hundred commits away from the steps beside
// the head check's nominal 1 per hundred (a two-sided 99% prediction interval, Holm over one
// series), and the failing commits per hundred of the stretch before the first step (a false
// alarm stays open until the commits after it close it).
//   gate_replay_bench [SERIES] [DRIFTS...]   (defaults 10; 0.005 0.01)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../tests/support/gate_replay.hpp"
#include "store/store.hpp"

namespace bt = benchguard::testing;

namespace {

struct Sum {
  int steps = 0, alarms = 0, repeats = 0, missed = 0, passes = 0, false_alarms = 0;
  int quiet = 0, first_stretch = 0, failing_quiet = 0, errors = 0;
};

// Commits of the stretch before the first step (from the 6th: the first 5 have no baseline)
// at which the gate failed: what false alarms cost while they stay open.
int failing_before_first_step(const bt::ReplayOutcome& r, int first_step) {
  int n = 0;
  for (int k = 5; k < first_step - 1 && k < static_cast<int>(r.failed.size()); ++k)
    n += r.failed[static_cast<std::size_t>(k)] ? 1 : 0;
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const int series = argc > 1 ? std::atoi(argv[1]) : 10;
  std::vector<double> drifts;
  for (int i = 2; i < argc; ++i) drifts.push_back(std::atof(argv[i]));
  if (drifts.empty()) drifts = {0.005, 0.01};
  const auto dir =
      std::filesystem::temp_directory_path() / ("benchguard-replay-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::printf(
      "gate replay: %d series of 300 commits a setting, regressions of 5%% at 100, "
      "4%% at 200 and 2%% at 250\n",
      series);
  std::printf("%-6s %-12s %13s %8s %7s %14s %15s %16s\n", "drift", "alarms", "per regression",
              "repeats", "missed", "passes after", "false /100 (1)", "failing /100");
  for (const double drift : drifts)
    for (const bool ack : {false, true}) {
      Sum sum;
      for (int i = 0; i < series; ++i) {
        bt::ReplayOptions o;
        o.steps = {{100, 1.05}, {200, 1.04}, {250, 1.02}};
        o.drift = drift;
        o.seed = 1000 + static_cast<uint64_t>(i);
        o.acknowledge = ack;
        const auto path = dir / ("replay-" + std::to_string(i) + (ack ? "-ack" : "") + ".db");
        std::filesystem::remove(path);
        auto store = benchguard::store::open_store(path.string());
        if (!store.ok()) {
          std::fprintf(stderr, "gate_replay_bench: %s\n", store.error().message.c_str());
          return 1;
        }
        const auto r = bt::replay(**store, o);
        const auto t = bt::tally(o, r);
        for (const int n : t.alarms_per_step) {
          ++sum.steps;
          sum.alarms += n;
          sum.missed += n == 0 ? 1 : 0;
        }
        sum.repeats += t.repeats;
        sum.passes += ack ? 0 : t.passes_while_regressed;
        sum.false_alarms += t.false_alarms;
        sum.quiet += t.quiet_commits;
        sum.first_stretch += 100 - 1 - 5;
        sum.failing_quiet += failing_before_first_step(r, 100);
        sum.errors += r.errors;
        if (r.errors > 0) std::fprintf(stderr, "gate_replay_bench: %s\n", r.first_error.c_str());
        store->reset();
        std::filesystem::remove(path);
      }
      std::printf("%-6.3f %-12s %13.2f %8d %7d %14d %15.2f %16.2f%s\n", drift,
                  ack ? "acknowledged" : "left alone",
                  sum.steps ? static_cast<double>(sum.alarms) / sum.steps : 0.0, sum.repeats,
                  sum.missed, sum.passes, sum.quiet ? 100.0 * sum.false_alarms / sum.quiet : 0.0,
                  sum.first_stretch ? 100.0 * sum.failing_quiet / sum.first_stretch : 0.0,
                  sum.errors ? " (errors)" : "");
      std::fflush(stdout);
    }
  std::filesystem::remove_all(dir);
  return 0;
}
