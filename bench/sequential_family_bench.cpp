// Sequential runs of several benchmarks: the chance of any false alarm in the run, and the
// level of the first looks on data off the model (stats/sequential.hpp).
//
// A sequential run of K benchmarks decides each one by its repeated confidence intervals; the
// run splits 1 - confidence over them (each benchmark's plan at 1 - (1 - confidence) / K), so
// that the chance of any false slower/faster in the run stays at or below 1 - confidence. The
// intervals at the looks are t intervals read at the boundary's nominal level, with
// min(n_a, n_b) - 1 degrees of freedom: exact only for normal data with known variance, so
// their level is measured here on data that is not, for first looks at 2 to 6 instances a
// side, beside the same looks with Welch-Satterthwaite's degrees of freedom (the rule before).
//
// Data, 20 iterations an instance (2% lognormal iteration noise), A/A (B drawn like A), per
// benchmark instance offsets from:
//   lognormal        log-sd 3% (the model the boundaries were checked on)
//   heavy tails      log offsets Student t with 3 degrees of freedom, scaled to sd 3%
//   unequal          A log-sd 1%, B log-sd 6%
//   bad launches     log-sd 1%, and 10% of instances 15% slower
//   heavy+unequal    A lognormal 1%, B Student t3 scaled to 6%
// Columns, TRIALS runs a cell (+- Monte Carlo SE):
//   K=1                 one benchmark: false slower/faster
//   K=1 Satt.           the same with Welch-Satterthwaite degrees of freedom at each look
//   K=5 split           five benchmarks, each planned at 1 - 0.05 / 5: any false alarm
//   K=5 unsplit         five benchmarks each at 95% (the rule before the split): any false alarm
//   Welch K=5           the fixed Welch t-test on instance means at MAX instances a side, at
//                       0.05 / 5 a benchmark, on the same data: any false alarm
//   power               K=5 split, every benchmark 5% slower: share of benchmarks called slower
//   Welch power         the same data, fixed Welch at MAX instances, 0.05 / 5 (a 1% threshold
//                       on the point, as compare's rule)
//   median n            instances a side the K=5 split run used under the 5% slowdown
// The robust mean, threshold 1%, Pocock spending, looks every instance up to MAX (20).
//   sequential_family_bench [TRIALS] [MAX] [FIRST_LOOKS, e.g. 2,3,4,5,6] [MODEL_INDEX]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/hierarchical.hpp"
#include "stats/resample.hpp"
#include "stats/sequential.hpp"
#include "stats/tests.hpp"
#include "stats/verdict.hpp"

namespace stats = benchguard::stats;

namespace {

constexpr std::size_t kIterations = 20;
constexpr int kFamily = 5;

enum class Offsets { kLognormal, kStudentT3 };
struct SideModel {
  Offsets offsets = Offsets::kLognormal;
  double sd = 0.03;          // of the log offset
  double bad_share = 0.0;    // instances that launched badly
  double bad_factor = 1.15;  // and how much slower they are
};
struct Model {
  const char* name;
  SideModel a, b;
};

stats::Hierarchical draw(const SideModel& m, std::size_t instances, double slowdown,
                         std::mt19937_64& rng) {
  std::normal_distribution<double> z;
  std::student_t_distribution<double> t3(3.0);
  std::uniform_real_distribution<double> u;
  std::vector<double> values;
  std::vector<std::size_t> offsets{0};
  values.reserve(instances * kIterations);
  for (std::size_t i = 0; i < instances; ++i) {
    // Unit-variance log offsets: t3 has variance 3.
    const double e = m.offsets == Offsets::kStudentT3 ? t3(rng) / std::sqrt(3.0) : z(rng);
    double level = slowdown * std::exp(m.sd * e - 0.5 * m.sd * m.sd);
    if (u(rng) < m.bad_share) level *= m.bad_factor;
    for (std::size_t j = 0; j < kIterations; ++j)
      values.push_back(level * std::exp(0.02 * z(rng) - 0.0002));
    offsets.push_back(values.size());
  }
  return stats::Hierarchical::from_parts(std::move(values), std::move(offsets));
}

stats::SequentialDesign design(std::size_t first, std::size_t max, double confidence) {
  stats::SequentialPlan plan;
  plan.min_instances = first;
  plan.max_instances = max;
  plan.confidence = confidence;
  return stats::make_design(plan);
}

bool alarm(stats::SequentialDecision d) {
  return d == stats::SequentialDecision::kSlower || d == stats::SequentialDecision::kFaster;
}

// The look rule with Welch-Satterthwaite degrees of freedom (the rule before min(n) - 1), over
// the design's looks up to the first decision.
bool satterthwaite_alarm(const stats::Hierarchical& a, const stats::Hierarchical& b,
                         const stats::SequentialDesign& d, const stats::VerdictOptions& o) {
  for (std::size_t k = 0; k < d.sizes.size(); ++k) {
    const auto fa = stats::first_instances(a, d.sizes[k]);
    const auto fb = stats::first_instances(b, d.sizes[k]);
    const double r = stats::statistic_of(fb, o.statistic) / stats::statistic_of(fa, o.statistic);
    const stats::VarianceTerm terms[] = {stats::relative_variance_term(fa, o.statistic),
                                         stats::relative_variance_term(fb, o.statistic)};
    const auto ci = stats::t_interval(std::log(r), terms, d.levels[k]);
    const auto v =
        stats::classify(r, {std::exp(ci.lower), std::exp(ci.upper)}, o.threshold, o.direction);
    if (v == stats::Verdict::kSlower || v == stats::Verdict::kFaster) return true;
    if (v == stats::Verdict::kUnchanged) return false;
  }
  return false;
}

bool welch_alarm(const stats::Hierarchical& a, const stats::Hierarchical& b, double alpha) {
  const auto ma = stats::instance_means(a), mb = stats::instance_means(b);
  return stats::welch_t_test(ma, mb).p_value < alpha;
}

struct Cell {
  int single = 0, satterthwaite = 0, split = 0, unsplit = 0, welch = 0;
  int power = 0, welch_power = 0, benchmarks = 0;
  std::vector<double> used;
};

Cell run(const Model& m, std::size_t first, std::size_t max, int trials, uint64_t seed) {
  const auto one = design(first, max, 0.95);
  const auto split = design(first, max, 1.0 - 0.05 / kFamily);
  stats::VerdictOptions options;  // robust mean, t interval, 1%
  Cell c;
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    bool any_split = false, any_unsplit = false, any_welch = false;
    for (int k = 0; k < kFamily; ++k) {
      const auto a = draw(m.a, max, 1.0, rng), b = draw(m.b, max, 1.0, rng);
      const bool unsplit_alarm = alarm(stats::replay_sequential(a, b, one, options).decision);
      if (k == 0) {
        c.single += unsplit_alarm;
        c.satterthwaite += satterthwaite_alarm(a, b, one, options);
      }
      any_unsplit = any_unsplit || unsplit_alarm;
      any_split = any_split || alarm(stats::replay_sequential(a, b, split, options).decision);
      any_welch = any_welch || welch_alarm(a, b, 0.05 / kFamily);
      // The same family 5% slower.
      const auto b5 = draw(m.b, max, 1.05, rng);
      const auto look = stats::replay_sequential(a, b5, split, options);
      c.power += look.decision == stats::SequentialDecision::kSlower;
      c.used.push_back(static_cast<double>(look.instances_a));
      const auto ma = stats::instance_means(a), mb = stats::instance_means(b5);
      const auto w = stats::welch_t_test(ma, mb);
      double sa = 0, sb = 0;
      for (double x : ma) sa += x;
      for (double x : mb) sb += x;
      const double ratio =
          (sb / static_cast<double>(mb.size())) / (sa / static_cast<double>(ma.size()));
      c.welch_power += w.p_value < 0.05 / kFamily && ratio > 1.0 + options.threshold;
      ++c.benchmarks;
    }
    c.split += any_split;
    c.unsplit += any_unsplit;
    c.welch += any_welch;
  }
  return c;
}

std::string pct(int k, int n) {
  const double p = static_cast<double>(k) / n;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f+-%.1f", 100 * p, 100 * std::sqrt(p * (1 - p) / n));
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 2000;
  const std::size_t max = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 20;
  std::vector<std::size_t> firsts;
  for (const char* p = argc > 3 ? argv[3] : "2,3,4,5,6"; *p != '\0';) {
    char* end = nullptr;
    firsts.push_back(std::strtoul(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
    if (end == nullptr || (*end != ',' && *end != '\0')) break;
  }
  const int only = argc > 4 ? std::atoi(argv[4]) : -1;
  const auto start = std::chrono::steady_clock::now();
  const Model models[] = {
      {"lognormal 3%", {}, {}},
      {"heavy tails (t3, 3%)", {Offsets::kStudentT3, 0.03}, {Offsets::kStudentT3, 0.03}},
      {"unequal (A 1%, B 6%)", {Offsets::kLognormal, 0.01}, {Offsets::kLognormal, 0.06}},
      {"bad launches (10% x1.15)",
       {Offsets::kLognormal, 0.01, 0.10},
       {Offsets::kLognormal, 0.01, 0.10}},
      {"heavy+unequal (A 1%, B t3 6%)", {Offsets::kLognormal, 0.01}, {Offsets::kStudentT3, 0.06}},
  };
  std::printf(
      "Sequential runs of %d benchmarks, A/A: any false slower/faster, by first look "
      "(instances a side), up to %zu a side; %d runs a cell; robust mean, 1%% threshold, "
      "Pocock\n\n",
      kFamily, max, trials);
  std::printf(
      "| data | first look | K=1 | K=1 Satt. | K=5 split | K=5 unsplit | Welch K=5 | power +5%% | "
      "Welch "
      "power +5%% | median n +5%% |\n|---|---|---|---|---|---|---|---|---|---|\n");
  uint64_t seed = 1;
  for (std::size_t mi = 0; mi < std::size(models); ++mi) {
    const Model& m = models[mi];
    if (only >= 0 && static_cast<std::size_t>(only) != mi) continue;
    for (const std::size_t first : firsts) {
      const Cell c = run(m, first, max, trials, seed);
      seed += 7919;
      std::printf("| %s | %zu | %s | %s | %s | %s | %s | %s | %s | %.0f |\n", m.name, first,
                  pct(c.single, trials).c_str(), pct(c.satterthwaite, trials).c_str(),
                  pct(c.split, trials).c_str(), pct(c.unsplit, trials).c_str(),
                  pct(c.welch, trials).c_str(), pct(c.power, c.benchmarks).c_str(),
                  pct(c.welch_power, c.benchmarks).c_str(), median(c.used));
    }
  }
  std::printf("\n(targets: K=5 split <= 5%% at the default first look on every row)\n%.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
