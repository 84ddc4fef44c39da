// The verdict rule at the limit, by simulation with known truth: for every statistic `compare`
// offers, the share of comparisons called slower (A/A: slower or faster), beside Welch's t-test
// on instance means and the z-test that knows the variances (an oracle no test that estimates
// them can reach), all on the same simulated data.
//
// Data: the model of stats/simulate.hpp, 20 iterations an instance, 3% instance offsets, 2%
// iteration noise (lognormal); "spikes" multiply 2% of the iterations by 3 or 12. B is A's model
// slowed by the effect. Every cell prints the rate +- one Monte Carlo standard error and, for
// the statistics, the paired difference to Welch on the same data (+- its standard error).
//   1. 10 instances a side: A/A (false alarms), 2%, 3%, 5%, 10%, and the interval-implied
//      standard error (root mean square of log width / (2 t_{df, 0.975})) over the actual spread
//      of log B/A across the A/A trials: 1 means the interval is as wide as it should be.
//   2. The same with spikes: A/A and 5%.
//   2b. Tails (stats/tails.hpp): B's spikes more frequent than A's, slower and unchanged, with
//      the tail hypothesis weighted 0.25 (the default), 1 and 0.1 in Holm's family, and not
//      judged at all (the rule before tails counted).
//   3. 3 and 5 instances a side: A/A, 5%, 10%, and the comparisons whose interval excludes 1
//      beyond the threshold while the verdict is not slower or faster (must be 0).
//   4. The median's variance estimated other ways (why its only interval is the bootstrap).
//   5. Burn-in: the A/A comparisons with spikes in which `--burn-in auto` would drop iterations
//      from a side (nothing warms up in this model).
// Targets (issue 32): A/A 5% +- 1; power of the default not below Welch by more than 1 point;
// with spikes A/A <= 6% and power at 5% >= 89%; SE ratio within 2%; at 3 and 5 instances A/A
// <= 5% and no disagreement; burn-in drops <= 0.5%. Tails (issue 66): the default never calls
// a tail regression unchanged. Prints; asserts nothing (the unit tests
// hold a reduced, seeded version).
//   verdict_bench [AA_TRIALS] [EFFECT_TRIALS] [RESAMPLES]
// RESAMPLES (default 2000) is for the bootstrap row (the former default: trimmed mean,
// expanded percentile interval); 0 leaves it out.
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "stats/steady_state.hpp"
#include "stats/verdict.hpp"

namespace stats = benchguard::stats;

namespace {

constexpr double kConfidence = 0.95;

struct Method {
  const char* name;
  stats::Statistic statistic;
  stats::CiMethod interval;
  double tail_weight = stats::kTailWeight;
};

std::vector<Method> methods(int resamples) {
  std::vector<Method> out = {
      {"robust mean, t (default)", stats::Statistic::kRobustMean, stats::CiMethod::kStudentT},
      {"robust mean, t, tails weighted 1", stats::Statistic::kRobustMean,
       stats::CiMethod::kStudentT, 1.0},
      {"robust mean, t, tails weighted 0.1", stats::Statistic::kRobustMean,
       stats::CiMethod::kStudentT, 0.1},
      {"robust mean, t, tails not tested", stats::Statistic::kRobustMean,
       stats::CiMethod::kStudentT, 0.0},
      {"trimmed mean, t", stats::Statistic::kTrimmedMean, stats::CiMethod::kStudentT},
      {"median, bootstrap (its only interval)", stats::Statistic::kMedian,
       stats::CiMethod::kExpandedPercentile},
      {"mean, t", stats::Statistic::kMean, stats::CiMethod::kStudentT},
  };
  if (resamples <= 0)  // the median needs its replicates
    std::erase_if(out, [](const Method& m) { return m.statistic == stats::Statistic::kMedian; });
  if (resamples > 0)
    out.push_back({"trimmed mean, bootstrap", stats::Statistic::kTrimmedMean,
                   stats::CiMethod::kExpandedPercentile});
  return out;
}

stats::SimulationOptions model(std::size_t instances, bool spikes) {
  stats::SimulationOptions o;
  o.instances = instances;
  o.iterations = 20;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  if (spikes) {
    o.outlier_probability = 0.02;
    o.outlier_factors = {3.0, 12.0};
  }
  return o;
}

// +1 slower, -1 faster, 0 neither, for a two-sided test at 1 - kConfidence.
int welch(const stats::Hierarchical& a, const stats::Hierarchical& b) {
  const auto ma = stats::instance_means(a), mb = stats::instance_means(b);
  const double va = stats::variance(ma) / static_cast<double>(ma.size());
  const double vb = stats::variance(mb) / static_cast<double>(mb.size());
  const double dof =
      (va + vb) * (va + vb) /
      (va * va / static_cast<double>(ma.size() - 1) + vb * vb / static_cast<double>(mb.size() - 1));
  const double t = (stats::mean(mb) - stats::mean(ma)) / std::sqrt(va + vb);
  const double p =
      2.0 * boost::math::cdf(boost::math::complement(boost::math::students_t(dof), std::fabs(t)));
  return p < 1.0 - kConfidence ? (t > 0 ? 1 : -1) : 0;
}

// The z-test on log(mean B / mean A) with the model's variance known.
int oracle(const stats::Hierarchical& a, const stats::Hierarchical& b,
           const stats::SimulationOptions& o) {
  const double per_side = (o.instance_sd * o.instance_sd +
                           o.iteration_sd * o.iteration_sd / static_cast<double>(o.iterations)) /
                          static_cast<double>(o.instances);
  const double z = (std::log(stats::mean(b.values())) - std::log(stats::mean(a.values()))) /
                   std::sqrt(2.0 * per_side);
  const double crit =
      boost::math::quantile(boost::math::complement(boost::math::normal(), (1 - kConfidence) / 2));
  return z > crit ? 1 : (z < -crit ? -1 : 0);
}

struct Rate {
  long hits = 0, trials = 0;
  double diff_sum = 0, diff_sq = 0;  // paired (hit - welch hit)
  void add(bool hit, bool welch_hit) {
    hits += hit ? 1 : 0;
    ++trials;
    const double d = (hit ? 1.0 : 0.0) - (welch_hit ? 1.0 : 0.0);
    diff_sum += d;
    diff_sq += d * d;
  }
  double value() const { return static_cast<double>(hits) / static_cast<double>(trials); }
  double se() const { return std::sqrt(value() * (1 - value()) / static_cast<double>(trials)); }
  std::string cell(bool paired) const {
    char buf[96];
    const auto n = static_cast<double>(trials);
    if (!paired) {
      std::snprintf(buf, sizeof buf, "%.1f+-%.1f", 100 * value(), 100 * se());
      return buf;
    }
    const double d = diff_sum / n;
    const double sd = std::sqrt(std::max(0.0, diff_sq / n - d * d) / n);
    std::snprintf(buf, sizeof buf, "%.1f+-%.1f (%+.1f+-%.1f)", 100 * value(), 100 * se(), 100 * d,
                  100 * sd);
    return buf;
  }
};

struct Cell {
  std::vector<Rate> method;     // per method
  std::vector<Rate> unchanged;  // per method: called unchanged
  Rate welch, oracle;
  std::vector<long> disagree;  // per method: interval beyond the threshold, verdict not
  std::vector<double> log_ratio, variance_sum;  // per method, A/A only: for the SE ratio
  std::vector<std::vector<double>> log_ratios;
};

// A against model_b; `aa` counts slower or faster as hits, otherwise slower.
Cell run(const stats::SimulationOptions& base, const stats::SimulationOptions& model_b, bool aa,
         long trials, const std::vector<Method>& ms, int resamples, uint64_t seed) {
  Cell c;
  c.method.resize(ms.size());
  c.unchanged.resize(ms.size());
  c.disagree.assign(ms.size(), 0);
  c.variance_sum.assign(ms.size(), 0.0);
  c.log_ratios.resize(ms.size());
  const auto hit_of = [aa](int sign) { return aa ? sign != 0 : sign > 0; };
  for (long t = 0; t < trials; ++t) {
    const auto a = stats::simulate(base, seed, 2 * static_cast<uint64_t>(t));
    const auto b = stats::simulate(model_b, seed, 2 * static_cast<uint64_t>(t) + 1);
    const bool w = hit_of(welch(a, b));
    c.welch.add(w, w);
    c.oracle.add(hit_of(oracle(a, b, base)), w);
    for (std::size_t k = 0; k < ms.size(); ++k) {
      stats::VerdictOptions vo;
      vo.statistic = ms[k].statistic;
      vo.interval = ms[k].interval;
      vo.tail_weight = ms[k].tail_weight;
      vo.confidence = kConfidence;
      vo.resamples = ms[k].interval == stats::CiMethod::kStudentT ? 1 : resamples;
      vo.seed = stats::derive_seed(seed, static_cast<uint64_t>(t));
      const auto sample = stats::ratio_sample(a, b, vo.statistic, vo.resamples, vo.seed);
      const stats::Hierarchical as[] = {a}, bs[] = {b};
      const stats::RatioSample ss[] = {sample};
      const auto set = stats::compare_samples(as, bs, ss, vo);
      const auto& r = set.benchmarks.front();
      const int sign = r.verdict == stats::Verdict::kSlower   ? 1
                       : r.verdict == stats::Verdict::kFaster ? -1
                                                              : 0;
      c.method[k].add(hit_of(sign), w);
      c.unchanged[k].add(r.verdict == stats::Verdict::kUnchanged, false);
      const bool beyond =
          r.ratio.ci.lower > 1 + vo.threshold || r.ratio.ci.upper < 1 - vo.threshold;
      if (beyond && sign == 0) ++c.disagree[k];
      if (aa) {
        // The standard error the interval implies: its log width over 2 t_{df, 0.975} (for
        // the t interval exactly sqrt(sum of the variances); for a bootstrap interval what its
        // width says, not the variance terms its expansion used).
        const stats::VarianceTerm terms[] = {sample.a, sample.b};
        const double df = r.interval == stats::CiMethod::kStudentT
                              ? stats::t_dof(terms)
                              : stats::combined_expansion(terms).dof;
        const double q = std::isfinite(df)
                             ? boost::math::quantile(boost::math::complement(
                                   boost::math::students_t(df), (1 - kConfidence) / 2))
                             : boost::math::quantile(boost::math::complement(
                                   boost::math::normal(), (1 - kConfidence) / 2));
        const double se = (std::log(r.ratio.ci.upper) - std::log(r.ratio.ci.lower)) / (2 * q);
        c.variance_sum[k] += se * se;
        c.log_ratios[k].push_back(std::log(sample.ratio));
      }
    }
  }
  return c;
}

Cell run(const stats::SimulationOptions& base, double effect, long trials,
         const std::vector<Method>& ms, int resamples, uint64_t seed) {
  auto model_b = base;
  model_b.slowdown = effect;
  return run(base, model_b, effect == 1.0, trials, ms, resamples, seed);
}

double se_ratio(const Cell& c, std::size_t k) {
  const auto& x = c.log_ratios[k];
  const double implied = std::sqrt(c.variance_sum[k] / static_cast<double>(x.size()));
  return implied / std::sqrt(stats::variance(x));
}

// The median's variance of log median, estimated other ways than by its expanded bootstrap
// interval, each read as a t interval (Welch-Satterthwaite df, n - 1 a side): the delete-one
// jackknife over instances, the influence values 1{x > median} / f with the Hall-Sheather
// density (its terms, variance_term), and the bootstrap of whole instances (no iteration
// redrawn) times n / (n - 1). A/A rate, SE / spread and the rate at a 5% slowdown, as in the
// tables.
void median_estimators(long trials, long effect_trials, uint64_t seed) {
  const auto o = model(10, false);
  auto slowed = o;
  slowed.slowdown = 1.05;
  const auto log_median = [](std::span<const double> xs) { return std::log(stats::median(xs)); };
  const auto pooled_without = [](const stats::Hierarchical& d, std::size_t skip) {
    std::vector<double> v;
    for (std::size_t k = 0; k < d.instances(); ++k)
      if (k != skip) v.insert(v.end(), d.instance(k).begin(), d.instance(k).end());
    return v;
  };
  const auto jackknife = [&](const stats::Hierarchical& d) {
    const std::size_t n = d.instances();
    std::vector<double> th(n);
    for (std::size_t i = 0; i < n; ++i) th[i] = log_median(pooled_without(d, i));
    return stats::variance(th) * static_cast<double>((n - 1) * (n - 1)) / static_cast<double>(n);
  };
  const auto influence = [](const stats::Hierarchical& d) {
    return stats::relative_variance_term(d, stats::Statistic::kMedian).variance;
  };
  stats::Rng rng(seed, 0);
  const auto whole_instances = [&](const stats::Hierarchical& d) {
    const std::size_t n = d.instances();
    std::vector<double> reps, v;
    for (int r = 0; r < 500; ++r) {
      v.clear();
      for (std::size_t i = 0; i < n; ++i) {
        const auto x = d.instance(rng.below(static_cast<uint32_t>(n)));
        v.insert(v.end(), x.begin(), x.end());
      }
      reps.push_back(log_median(v));
    }
    return stats::variance(reps) * static_cast<double>(n) / static_cast<double>(n - 1);
  };
  struct Way {
    const char* name;
    std::function<double(const stats::Hierarchical&)> variance;
    Rate aa, slower;
    double sum = 0;
  };
  std::vector<Way> ways = {{"jackknife over instances", jackknife, {}, {}},
                           {"influence values, Hall-Sheather density", influence, {}, {}},
                           {"bootstrap of whole instances", whole_instances, {}, {}}};
  // +1 slower, -1 faster, 0 neither: the t interval (stats::t_interval) of log B/A with this
  // way's variances, beyond 1 and the ratio beyond the 1% threshold.
  const auto verdict = [](Way& way, const stats::Hierarchical& a, const stats::Hierarchical& b,
                          double lr) {
    const stats::VarianceTerm terms[] = {{way.variance(a), 0.0, a.instances()},
                                         {way.variance(b), 0.0, b.instances()}};
    way.sum += terms[0].variance + terms[1].variance;
    const auto ci = stats::t_interval(lr, terms, kConfidence);
    const double lim = std::log1p(0.01);
    return ci.lower > 0 && lr > lim ? 1 : (ci.upper < 0 && lr < -lim ? -1 : 0);
  };
  std::vector<double> log_ratios;
  for (long t = 0; t < trials; ++t) {
    const auto a = stats::simulate(o, seed, 2 * static_cast<uint64_t>(t));
    const auto b = stats::simulate(o, seed, 2 * static_cast<uint64_t>(t) + 1);
    const double lr = log_median(b.values()) - log_median(a.values());
    log_ratios.push_back(lr);
    const bool w = welch(a, b) != 0;
    for (auto& way : ways) way.aa.add(verdict(way, a, b, lr) != 0, w);
  }
  // The A/A trials alone set SE / spread.
  std::vector<double> aa_sums;
  for (const auto& way : ways) aa_sums.push_back(way.sum);
  for (long t = 0; t < effect_trials; ++t) {
    const auto a = stats::simulate(o, seed + 1, 2 * static_cast<uint64_t>(t));
    const auto b = stats::simulate(slowed, seed + 1, 2 * static_cast<uint64_t>(t) + 1);
    const double lr = log_median(b.values()) - log_median(a.values());
    const bool w = welch(a, b) > 0;
    for (auto& way : ways) way.slower.add(verdict(way, a, b, lr) > 0, w);
  }
  std::printf(
      "\nthe median's variance by other estimators, t interval, 10 instances a side, clean\n\n");
  std::printf("| estimator | A/A | 5%% | SE / spread |\n|---|---|---|---|\n");
  const double spread = std::sqrt(stats::variance(log_ratios));
  for (std::size_t k = 0; k < ways.size(); ++k)
    std::printf("| %s | %s | %s | %.3f |\n", ways[k].name, ways[k].aa.cell(true).c_str(),
                ways[k].slower.cell(true).c_str(),
                std::sqrt(aa_sums[k] / static_cast<double>(trials)) / spread);
}

// The share of A/A comparisons with spikes in which `--burn-in auto` drops iterations from a
// side: the benchmark-level recommended burn-in of either side is above 0.
Rate burn_in_drops(long trials, uint64_t seed) {
  const auto o = model(10, true);
  Rate r;
  for (long t = 0; t < trials; ++t) {
    bool drops = false;
    for (uint64_t side = 0; side < 2; ++side) {
      const auto data = stats::simulate(o, seed, 2 * static_cast<uint64_t>(t) + side);
      std::vector<std::vector<double>> series;
      for (std::size_t i = 0; i < data.instances(); ++i)
        series.emplace_back(data.instance(i).begin(), data.instance(i).end());
      const auto b = stats::classify_benchmark(series);
      const auto burn = b.summary.recommended_burn_in;
      drops |= burn.has_value() && *burn > 0 && *burn <= o.iterations / 2;
    }
    r.add(drops, false);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const long aa_trials = argc > 1 ? std::atol(argv[1]) : 2000;
  const long effect_trials = argc > 2 ? std::atol(argv[2]) : 1000;
  const int resamples = argc > 3 ? std::atoi(argv[3]) : 2000;
  const auto ms = methods(resamples);
  std::printf(
      "share called slower (A/A: slower or faster), %% +- Monte Carlo SE, (paired difference to "
      "Welch +- SE);\n%ld A/A trials, %ld per effect; 20 iterations an instance, 3%% instance "
      "and 2%% iteration noise; threshold 1%%, 95%%; bootstrap row: %d resamples\n\n",
      aa_trials, effect_trials, resamples);

  const double effects[] = {1.0, 1.02, 1.03, 1.05, 1.10};
  std::vector<Cell> cells;
  for (std::size_t e = 0; e < std::size(effects); ++e)
    cells.push_back(run(model(10, false), effects[e], e == 0 ? aa_trials : effect_trials, ms,
                        resamples, 100 + e));
  std::printf("10 instances a side, clean\n\n");
  std::printf(
      "| method | A/A | 2%% | 3%% | 5%% | 10%% | SE / spread |\n|---|---|---|---|---|---|---|\n");
  for (std::size_t k = 0; k < ms.size(); ++k) {
    std::printf("| %s |", ms[k].name);
    for (const auto& c : cells) std::printf(" %s |", c.method[k].cell(true).c_str());
    std::printf(" %.3f |\n", se_ratio(cells.front(), k));
  }
  std::printf("| Welch t on instance means |");
  for (const auto& c : cells) std::printf(" %s |", c.welch.cell(false).c_str());
  std::printf(" |\n| oracle z (variances known) |");
  for (const auto& c : cells) std::printf(" %s |", c.oracle.cell(false).c_str());
  std::printf(" |\n\n");

  std::printf("10 instances a side, 2%% spikes (x3 or x12)\n\n");
  const Cell spiky_aa = run(model(10, true), 1.0, aa_trials, ms, resamples, 200);
  const Cell spiky_5 = run(model(10, true), 1.05, effect_trials, ms, resamples, 201);
  std::printf("| method | A/A | 5%% |\n|---|---|---|\n");
  for (std::size_t k = 0; k < ms.size(); ++k)
    std::printf("| %s | %s | %s |\n", ms[k].name, spiky_aa.method[k].cell(true).c_str(),
                spiky_5.method[k].cell(true).c_str());
  std::printf("| Welch t on instance means | %s | %s |\n\n", spiky_aa.welch.cell(false).c_str(),
              spiky_5.welch.cell(false).c_str());

  // Tails that count (issue 66): B's spikes more frequent than A's, the robust mean's blind
  // spot. "4% 5x": 4% of B's iterations 5x (mean +16%), none of A's; "2% 3x": 2% of B's 3x
  // (mean +4%); "A/A spikes" above is the false-alarm side of the same rule.
  {
    auto b4 = model(10, false);
    b4.outlier_probability = 0.04;
    b4.outlier_factor = 5.0;
    auto b2 = model(10, false);
    b2.outlier_probability = 0.02;
    b2.outlier_factor = 3.0;
    auto spiky_b = model(10, true);
    spiky_b.outlier_probability = 0.06;
    const Cell t4 = run(model(10, false), b4, false, effect_trials, ms, resamples, 250);
    const Cell t2 = run(model(10, false), b2, false, effect_trials, ms, resamples, 251);
    const Cell t6 = run(model(10, true), spiky_b, false, effect_trials, ms, resamples, 252);
    // The review's case: instances that barely differ (0.3% offsets, 1% iteration noise), where
    // the robust mean's interval is narrow enough to call B unchanged.
    auto quiet = model(10, false);
    quiet.instance_sd = 0.003;
    quiet.iteration_sd = 0.01;
    auto quiet_b = quiet;
    quiet_b.outlier_probability = 0.04;
    quiet_b.outlier_factor = 5.0;
    const Cell tq = run(quiet, quiet_b, false, effect_trials, ms, resamples, 253);
    std::printf(
        "tails, 10 instances a side: slower (unchanged) in %%; 4%% 5x: 4%% of B's iterations 5x, "
        "A none (mean +16%%); 2%% 3x: 2%% of B's 3x (mean +4%%); 2%% -> 6%%: both sides' spikes "
        "(x3 or x12) at 2%% in A, 6%% in B (mean +23%%); quiet: 4%% 5x with 0.3%% instance and "
        "1%% iteration noise\n\n");
    std::printf(
        "| method | 4%% 5x | 2%% 3x | 2%% -> 6%% | 4%% 5x, quiet |\n|---|---|---|---|---|\n");
    for (std::size_t k = 0; k < ms.size(); ++k)
      std::printf("| %s | %s (%.1f) | %s (%.1f) | %s (%.1f) | %s (%.1f) |\n", ms[k].name,
                  t4.method[k].cell(true).c_str(), 100 * t4.unchanged[k].value(),
                  t2.method[k].cell(true).c_str(), 100 * t2.unchanged[k].value(),
                  t6.method[k].cell(true).c_str(), 100 * t6.unchanged[k].value(),
                  tq.method[k].cell(true).c_str(), 100 * tq.unchanged[k].value());
    std::printf("| Welch t on instance means | %s | %s | %s | %s |\n\n",
                t4.welch.cell(false).c_str(), t2.welch.cell(false).c_str(),
                t6.welch.cell(false).c_str(), tq.welch.cell(false).c_str());
  }

  std::printf("few instances, clean (disagree: interval beyond the threshold, verdict not)\n\n");
  std::printf("| instances | method | A/A | 5%% | 10%% | disagree |\n|---|---|---|---|---|---|\n");
  for (std::size_t n : {3u, 5u}) {
    const Cell c[] = {run(model(n, false), 1.0, aa_trials, ms, resamples, 300 + n),
                      run(model(n, false), 1.05, effect_trials, ms, resamples, 310 + n),
                      run(model(n, false), 1.10, effect_trials, ms, resamples, 320 + n)};
    for (std::size_t k = 0; k < ms.size(); ++k)
      std::printf("| %zu | %s | %s | %s | %s | %ld |\n", n, ms[k].name,
                  c[0].method[k].cell(true).c_str(), c[1].method[k].cell(true).c_str(),
                  c[2].method[k].cell(true).c_str(),
                  c[0].disagree[k] + c[1].disagree[k] + c[2].disagree[k]);
    std::printf("| %zu | Welch t on instance means | %s | %s | %s | |\n", n,
                c[0].welch.cell(false).c_str(), c[1].welch.cell(false).c_str(),
                c[2].welch.cell(false).c_str());
  }

  if (resamples > 0) median_estimators(aa_trials, effect_trials, 500);

  const Rate drops = burn_in_drops(aa_trials, 400);
  std::printf("\nburn-in auto drops iterations in %s%% of %ld A/A comparisons with spikes\n",
              drops.cell(false).c_str(), drops.trials);
  std::printf(
      "(targets: A/A 5%% +- 1; default not below Welch by more than 1 point; spikes: A/A <= 6%%, "
      "5%% >= 89%%; SE / spread within 2%%; 3 and 5 instances: A/A <= 5%%, no disagreement; "
      "burn-in drops <= 0.5%%; tails: never unchanged)\n");
  return 0;
}
