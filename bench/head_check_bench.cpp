// The head check (stats/head_check.hpp) on series with known truth, beside Coiled's rule (the
// newest point against the mean +- 3 standard deviations of the 10 before it). Printed, not
// asserted (tests/unit/stats/head_check_test.cpp holds a reduced, seeded version).
//
// Model: 30 commits a series, 3 instances a commit of 5 iterations each; every iteration 1%
// noise around its instance, every instance 1% noise around its commit's level, and each
// commit's level off by `drift` (relative sd) from the true one: what the machine and the
// build did to that commit's measurement. A/A: the true level never moves. Step: the newest
// commit is 5% slower. Confirmation, as `gate --confirm` does it: both commits measured again
// side by side (10 instances each, the same session, so no drift between them) and compared
// with compare's verdict rule; a head the confirmation does not call slower does not fail.
//   head_check_bench [SERIES] [AA_SERIES]   (defaults 500, 5000)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "stats/head_check.hpp"
#include "stats/hierarchical.hpp"
#include "stats/rng.hpp"
#include "stats/verdict.hpp"

namespace bs = benchguard::stats;

namespace {

constexpr int kCommits = 30;
constexpr int kInstances = 3;
constexpr int kIterations = 5;

// One commit measured: `instances` instances at `level`, the measurement off by the drift.
bs::Hierarchical measure(bs::Rng& rng, double level, double drift, int instances) {
  const double commit = level * (1 + drift * rng.normal());
  bs::Hierarchical h;
  for (int i = 0; i < instances; ++i) {
    const double instance = commit * (1 + 0.01 * rng.normal());
    std::vector<double> its;
    for (int k = 0; k < kIterations; ++k) its.push_back(instance * (1 + 0.01 * rng.normal()));
    h.add_instance(its);
  }
  return h;
}

// Coiled's rule: the newest point outside mean +- 3 sd of the 10 points before it.
bool coiled(const std::vector<bs::PointMoments>& base, const bs::PointMoments& head) {
  const std::size_t n = 10, from = base.size() - n;
  double m = 0, ss = 0;
  for (std::size_t i = from; i < base.size(); ++i) m += base[i].mean / n;
  for (std::size_t i = from; i < base.size(); ++i) ss += (base[i].mean - m) * (base[i].mean - m);
  return std::abs(head.mean - m) > 3 * std::sqrt(ss / (n - 1));
}

// A confirmation run of the two commits: slower or faster by compare's rule.
bool confirmed(bs::Rng& rng, double base_level, double head_level) {
  const auto a = measure(rng, base_level, 0.0, 10);
  const auto b = measure(rng, head_level, 0.0, 10);
  bs::VerdictOptions v;
  v.resamples = 2000;
  v.statistic = bs::Statistic::kTrimmedMean;
  v.seed = rng.next_u64();
  const auto c = bs::compare(a, b, v);
  return c.verdict == bs::Verdict::kSlower || c.verdict == bs::Verdict::kFaster;
}

struct Tally {
  int head = 0, head_confirmed = 0, coiled = 0, coiled_confirmed = 0;
};

Tally run(bs::Rng& rng, int series, double drift, double step) {
  Tally t;
  for (int s = 0; s < series; ++s) {
    std::vector<bs::PointMoments> base;
    for (int c = 0; c < kCommits - 1; ++c)
      base.push_back(bs::point_moments(measure(rng, 1.0, drift, kInstances)));
    const auto head = bs::point_moments(measure(rng, 1.0 + step, drift, kInstances));
    const bs::HeadCheck h = bs::check_head(base, head);
    const bool by_coiled = coiled(base, head);
    const bool by_head = h.suspected;
    // One confirmation per suspected series serves both rules.
    const bool conf = (by_head || by_coiled) && confirmed(rng, 1.0, 1.0 + step);
    t.head += by_head;
    t.coiled += by_coiled;
    t.head_confirmed += by_head && conf;
    t.coiled_confirmed += by_coiled && conf;
  }
  return t;
}

std::string pct(int k, int n) {
  const double p = static_cast<double>(k) / n;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%5.2f%% +- %.2f", 100 * p, 100 * std::sqrt(p * (1 - p) / n));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const int series = argc > 1 ? std::atoi(argv[1]) : 500;
  const int aa = argc > 2 ? std::atoi(argv[2]) : 5000;
  std::printf(
      "head check: %d commits a series, %d instances a commit, 1%% instance noise; rates +- one "
      "Monte-Carlo standard error\n",
      kCommits, kInstances);
  std::printf("%-7s %-22s %-18s %-26s %-18s %-26s\n", "drift", "rule", "A/A suspected",
              "A/A gate fails (confirm)", "5% step flagged", "5% step gate fails (confirm)");
  bs::Rng rng(2026, 31);
  for (const double drift : {0.0, 0.005, 0.01}) {
    const Tally a = run(rng, aa, drift, 0.0);
    const Tally b = run(rng, series, drift, 0.05);
    char d[16];
    std::snprintf(d, sizeof d, "%.1f%%", 100 * drift);
    std::printf("%-7s %-22s %-18s %-26s %-18s %-26s\n", d, "head check (99%)",
                pct(a.head, aa).c_str(), pct(a.head_confirmed, aa).c_str(),
                pct(b.head, series).c_str(), pct(b.head_confirmed, series).c_str());
    std::printf("%-7s %-22s %-18s %-26s %-18s %-26s\n", "", "Coiled (3 sd of 10)",
                pct(a.coiled, aa).c_str(), pct(a.coiled_confirmed, aa).c_str(),
                pct(b.coiled, series).c_str(), pct(b.coiled_confirmed, series).c_str());
  }
  std::printf("targets: 5%% step flagged >= 90%%; A/A suspected <= 1%%; A/A gate fails <= 0.5%%\n");
  return 0;
}
