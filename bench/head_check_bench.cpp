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
//
// Then the head check as it is against the head check as it was before issue 66 (Student t
// with K - 1 degrees of freedom, every baseline point kept), on the same series: the A/A
// false-alarm rate beside the nominal 1%, with its Wilson 95% interval, and the rate at which
// a step of 3% and of 5% at the newest commit is flagged, for 1% drift between commits that is
// independent, AR(1) with phi 0.5 and 0.9 (the drift wanders: neighbouring commits share
// much of it; stationary sd 1%), and independent with one baseline commit measured 20% slow.
//   head_check_bench [SERIES] [AA_SERIES] [RATE_SERIES]   (defaults 500, 5000, 4000)
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
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

// One commit measured: `instances` instances around the commit's measured level.
bs::Hierarchical measure_at(bs::Rng& rng, double commit, int instances) {
  bs::Hierarchical h;
  for (int i = 0; i < instances; ++i) {
    const double instance = commit * (1 + 0.01 * rng.normal());
    std::vector<double> its;
    for (int k = 0; k < kIterations; ++k) its.push_back(instance * (1 + 0.01 * rng.normal()));
    h.add_instance(its);
  }
  return h;
}

// One commit measured: `instances` instances at `level`, the measurement off by the drift.
bs::Hierarchical measure(bs::Rng& rng, double level, double drift, int instances) {
  return measure_at(rng, level * (1 + drift * rng.normal()), instances);
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

// The head check as it was before issue 66: V as now, Student t with K - 1 degrees of freedom,
// every baseline point kept.
bool suspected_before(const std::vector<bs::PointMoments>& base, const bs::PointMoments& head) {
  const double k = static_cast<double>(base.size());
  double sum = 0, inv_n = 0, pooled = 0, pooled_df = 0;
  for (const auto& p : base) {
    sum += p.mean;
    inv_n += 1.0 / static_cast<double>(p.instances);
    pooled += static_cast<double>(p.instances - 1) * p.variance;
    pooled_df += static_cast<double>(p.instances - 1);
  }
  const double mean = sum / k;
  double ss = 0;
  for (const auto& p : base) ss += (p.mean - mean) * (p.mean - mean);
  const double s2 = ss / (k - 1), sigma2 = pooled / pooled_df;
  const double tau2 = std::max(0.0, s2 - sigma2 * inv_n / k);
  const double v = tau2 + sigma2 / static_cast<double>(head.instances) + s2 / k;
  const double t = (head.mean - mean) / std::sqrt(v);
  const boost::math::students_t dist(k - 1);
  const double p = 2 * boost::math::cdf(boost::math::complement(dist, std::abs(t)));
  return p < 0.01 && std::abs(head.mean / mean - 1) >= bs::HeadCheckOptions{}.threshold;
}

// The commits' measured levels around 1: a drift of relative sd `drift`, AR(1) with `phi`
// between neighbouring commits (0: independent), started from its stationary distribution.
std::vector<double> drifting_levels(bs::Rng& rng, int commits, double drift, double phi) {
  std::vector<double> levels;
  double d = rng.normal();
  for (int c = 0; c < commits; ++c) {
    levels.push_back(1 + drift * d);
    d = phi * d + std::sqrt(1 - phi * phi) * rng.normal();
  }
  return levels;
}

struct Rates {
  int before = 0, after = 0;
};

// Of `series` series, how many heads each rule flags; the head `step` slower, baseline commit
// 10 measured `wild` times its level when wild is not 0.
Rates rates(bs::Rng& rng, int series, double drift, double phi, double step, double wild) {
  Rates r;
  for (int s = 0; s < series; ++s) {
    const auto levels = drifting_levels(rng, kCommits, drift, phi);
    std::vector<bs::PointMoments> base;
    for (int c = 0; c < kCommits - 1; ++c) {
      const double level = levels[c] * (wild != 0 && c == 10 ? wild : 1.0);
      base.push_back(bs::point_moments(measure_at(rng, level, kInstances)));
    }
    const auto head = bs::point_moments(measure_at(rng, levels.back() * (1 + step), kInstances));
    r.before += suspected_before(base, head);
    r.after += bs::check_head(base, head).suspected;
  }
  return r;
}

// k of n with its Wilson score 95% interval (Wilson 1927), in percent.
std::string wilson(int k, int n) {
  const double z = 1.959963984540054, p = static_cast<double>(k) / n, z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%5.2f%% [%.2f, %.2f]", 100 * p, 100 * (centre - half),
                100 * (centre + half));
  return buf;
}

void print_rates(int series) {
  std::printf(
      "\nhead check before issue 66 (t with K - 1 df, every point kept) and now, the same "
      "series: %d commits, %d instances, 1%% instance and iteration noise, 1%% drift between "
      "commits; nominal A/A rate 1%%; %d series a cell, Wilson 95%% intervals\n",
      kCommits, kInstances, series);
  std::printf("%-30s %-7s %-24s %-24s %-24s\n", "drift", "rule", "A/A suspected", "3% step flagged",
              "5% step flagged");
  struct Case {
    const char* name;
    double phi, wild;
  };
  bs::Rng rng(2026, 66);
  for (const Case c :
       {Case{"independent", 0.0, 0.0}, Case{"AR(1) phi 0.5", 0.5, 0.0},
        Case{"AR(1) phi 0.9", 0.9, 0.0}, Case{"independent, one commit 20% slow", 0.0, 1.2}}) {
    const Rates aa = rates(rng, series, 0.01, c.phi, 0.0, c.wild);
    const Rates s3 = rates(rng, series, 0.01, c.phi, 0.03, c.wild);
    const Rates s5 = rates(rng, series, 0.01, c.phi, 0.05, c.wild);
    std::printf("%-30s %-7s %-24s %-24s %-24s\n", c.name, "before",
                wilson(aa.before, series).c_str(), wilson(s3.before, series).c_str(),
                wilson(s5.before, series).c_str());
    std::printf("%-30s %-7s %-24s %-24s %-24s\n", "", "now", wilson(aa.after, series).c_str(),
                wilson(s3.after, series).c_str(), wilson(s5.after, series).c_str());
  }
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
  const int rate_series = argc > 3 ? std::atoi(argv[3]) : 4000;
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
  if (rate_series > 0) print_rates(rate_series);
  return 0;
}
