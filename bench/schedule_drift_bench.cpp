// Schedules under machine drift, by simulation with known truth: what the order of instances
// does to `compare`'s default verdict when the machine itself changes while a run goes on.
//
// One benchmark, two variants, N instances a side of 20 iterations (3% instance offsets, 2%
// iteration noise, stats/simulate.hpp), launched in the order schedule::make_order gives each
// schedule (the real order code, seeded per trial). The instance launched k-th of the run's 2N
// is multiplied by the machine's state m_k:
//   none      m_k = 1
//   trend     m_k = 1 + 0.05 k / (2N - 1): the machine slows by 5% over the run (thermal, a
//             filling page cache, a growing neighbour)
//   walk      log m_k a random walk with steps of 0.5%: slowly wandering noise
//   step      m_k = 1.05 from the middle of the run on: a neighbour starts
//   period-2  m_k = 1.05 for every other launch: a disturbance with the period of ABAB
// A/A (B = A) counts slower or faster as false alarms; "5%" counts slower with B 5% slower.
// Beside the default rule, Welch's t-test on instance means over the same data: the schedule,
// not the test, decides what drift does.
//   schedule_drift_bench [TRIALS] [INSTANCES]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "schedule/order.hpp"
#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "stats/verdict.hpp"

namespace stats = benchguard::stats;
namespace schedule = benchguard::schedule;

namespace {

enum class Drift { kNone, kTrend, kWalk, kStep, kPeriod2 };
constexpr const char* kDriftNames[] = {"none", "trend", "walk", "step", "period-2"};

std::vector<double> machine(Drift d, std::size_t launches, uint64_t seed, uint64_t trial) {
  std::vector<double> m(launches, 1.0);
  stats::Rng rng(seed, 1000000 + trial);
  double walk = 0;
  for (std::size_t k = 0; k < launches; ++k) {
    switch (d) {
      case Drift::kNone:
        break;
      case Drift::kTrend:
        m[k] = 1 + 0.05 * static_cast<double>(k) / static_cast<double>(launches - 1);
        break;
      case Drift::kWalk:
        walk += 0.005 * rng.normal();
        m[k] = std::exp(walk);
        break;
      case Drift::kStep:
        m[k] = 2 * k >= launches ? 1.05 : 1.0;
        break;
      case Drift::kPeriod2:
        m[k] = k % 2 == 1 ? 1.05 : 1.0;
        break;
    }
  }
  return m;
}

int welch(const stats::Hierarchical& a, const stats::Hierarchical& b) {
  const auto w = stats::welch_t_test(stats::instance_means(b), stats::instance_means(a));
  if (!(w.p_value < 0.05)) return 0;
  return w.t > 0 ? 1 : -1;
}

struct Tally {
  long hits = 0, welch_hits = 0, trials = 0;
  std::string cell(bool with_welch) const {
    const double p = static_cast<double>(hits) / static_cast<double>(trials);
    const double se = std::sqrt(p * (1 - p) / static_cast<double>(trials));
    char buf[64];
    if (with_welch)
      std::snprintf(buf, sizeof buf, "%.1f+-%.1f (W %.1f)", 100 * p, 100 * se,
                    100 * static_cast<double>(welch_hits) / static_cast<double>(trials));
    else
      std::snprintf(buf, sizeof buf, "%.1f+-%.1f", 100 * p, 100 * se);
    return buf;
  }
};

// One trial: the order of `sched`, each launch's iterations times its machine state.
void trial(const std::string& sched, Drift drift, double effect, int instances, uint64_t seed,
           uint64_t t, Tally& tally) {
  benchguard::Suite suite;
  benchguard::BenchmarkSpec b;
  b.name = std::string(1, 'x');
  b.instances = instances;
  b.variants = {benchguard::VariantSpec{"A", {"a"}, "", {}, {}},
                benchguard::VariantSpec{"B", {"b"}, "", {}, {}}};
  suite.benchmarks.push_back(b);
  const auto order = schedule::make_order(suite, sched, stats::derive_seed(seed, t));
  if (!order.ok()) std::abort();
  stats::SimulationOptions o;
  o.instances = 1;
  o.iterations = 20;
  const auto m = machine(drift, order->size(), seed, t);
  std::vector<std::vector<double>> side[2];
  for (std::size_t k = 0; k < order->size(); ++k) {
    const int v = (*order)[k].slots[0].variant;
    o.slowdown = (v == 1 ? effect : 1.0) * m[k];
    const auto inst = stats::simulate(o, seed, 2 * (t * 4096 + k) + static_cast<uint64_t>(v));
    side[v].emplace_back(inst.values().begin(), inst.values().end());
  }
  const stats::Hierarchical a(side[0]), bb(side[1]);
  stats::VerdictOptions vo;
  vo.seed = t;
  const auto c = stats::compare(a, bb, vo);
  const bool aa = effect == 1.0;
  const int sign = c.verdict == stats::Verdict::kSlower   ? 1
                   : c.verdict == stats::Verdict::kFaster ? -1
                                                          : 0;
  const int w = welch(a, bb);
  tally.hits += aa ? sign != 0 : sign > 0;
  tally.welch_hits += aa ? w != 0 : w > 0;
  ++tally.trials;
}

}  // namespace

int main(int argc, char** argv) {
  const long trials = argc > 1 ? std::atol(argv[1]) : 1000;
  const int instances = argc > 2 ? std::atoi(argv[2]) : 10;
  const char* schedules[] = {"sequential", "alternate", "randomized", "interleaved"};
  std::printf(
      "A/A false alarms and power for 5%%, %% +- Monte Carlo SE (W: Welch on instance means, "
      "same data);\n%ld trials a cell, %d instances a side of 20 iterations, 3%% instance and "
      "2%% iteration noise, threshold 1%%, 95%%\n\n",
      trials, instances);
  std::printf("| drift | schedule | A/A | 5%% |\n|---|---|---|---|\n");
  for (int d = 0; d < 5; ++d)
    for (const char* sched : schedules) {
      Tally aa, five;
      for (long t = 0; t < trials; ++t) {
        trial(sched, static_cast<Drift>(d), 1.0, instances, 7000 + d, static_cast<uint64_t>(t), aa);
        trial(sched, static_cast<Drift>(d), 1.05, instances, 8000 + d, static_cast<uint64_t>(t),
              five);
      }
      std::printf("| %s | %s | %s | %s |\n", kDriftNames[d], sched, aa.cell(true).c_str(),
                  five.cell(true).c_str());
    }
  std::printf("\n(target: A/A within 5%% + 3 SE under every drift for the default, interleaved)\n");
  return 0;
}
