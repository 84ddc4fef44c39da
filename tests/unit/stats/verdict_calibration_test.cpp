// The verdict rule by simulation: the reduced, seeded form of bench/verdict_bench.cpp. 20
// iterations an instance, 3% instance offsets, 2% iteration noise; in the spiky model 2% of
// iterations are multiplied by 3 or 12. Bounds allow 3 Monte Carlo standard errors.
#include <gtest/gtest.h>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "stats/verdict.hpp"
#include "support/test_support.hpp"

namespace benchguard::stats {
namespace {

SimulationOptions clean(std::size_t instances = 10) {
  SimulationOptions o;
  o.instances = instances;
  o.iterations = 20;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  return o;
}

SimulationOptions spiky() {
  auto o = clean();
  o.outlier_probability = 0.02;
  o.outlier_factors = {3.0, 12.0};
  return o;
}

// Welch's t-test on instance means at 5%: +1 slower, -1 faster, 0 neither.
int welch(const Hierarchical& a, const Hierarchical& b) {
  const auto ma = instance_means(a), mb = instance_means(b);
  const double va = variance(ma) / static_cast<double>(ma.size());
  const double vb = variance(mb) / static_cast<double>(mb.size());
  const double dof =
      (va + vb) * (va + vb) /
      (va * va / static_cast<double>(ma.size() - 1) + vb * vb / static_cast<double>(mb.size() - 1));
  const double t = (mean(mb) - mean(ma)) / std::sqrt(va + vb);
  const double p =
      2.0 * boost::math::cdf(boost::math::complement(boost::math::students_t(dof), std::fabs(t)));
  return p < 0.05 ? (t > 0 ? 1 : -1) : 0;
}

struct Outcome {
  double rate = 0;        // false alarms (A/A) or slower (with a slowdown)
  double welch_rate = 0;  // the same for Welch on the same data
  double paired_se = 0;   // standard error of rate - welch_rate
  int disagreements = 0;  // interval beyond the threshold, verdict neither slower nor faster
  double se_ratio = 0;    // interval-implied SE of log B/A over its spread across trials
};

Outcome run(const SimulationOptions& model, double slowdown, Statistic statistic, int trials,
            uint64_t seed) {
  VerdictOptions vo;  // the default rule: t interval
  vo.statistic = statistic;
  vo.resamples = 1;  // the t interval reads no replicates
  auto model_b = model;
  model_b.slowdown = slowdown;
  const bool aa = slowdown == 1.0;
  int hits = 0, welch_hits = 0;
  double diff_sq = 0, variance_sum = 0;
  std::vector<double> log_ratios;
  Outcome out;
  for (int t = 0; t < trials; ++t) {
    const auto a = simulate(model, seed, 2 * static_cast<uint64_t>(t));
    const auto b = simulate(model_b, seed, 2 * static_cast<uint64_t>(t) + 1);
    vo.seed = derive_seed(seed, static_cast<uint64_t>(t));
    const auto sample = ratio_sample(a, b, statistic, vo.resamples, vo.seed);
    const Hierarchical as[] = {a}, bs[] = {b};
    const RatioSample ss[] = {sample};
    const auto c = compare_samples(as, bs, ss, vo).benchmarks.front();
    const Verdict v = c.verdict;
    const int w = welch(a, b);
    const bool hit = aa ? (v == Verdict::kSlower || v == Verdict::kFaster) : v == Verdict::kSlower;
    const bool welch_hit = aa ? w != 0 : w > 0;
    hits += hit;
    welch_hits += welch_hit;
    diff_sq += (hit != welch_hit) ? 1.0 : 0.0;
    const bool beyond = c.ratio.ci.lower > 1 + vo.threshold || c.ratio.ci.upper < 1 - vo.threshold;
    out.disagreements += beyond && (v == Verdict::kInconclusive || v == Verdict::kUnchanged);
    variance_sum += sample.a.variance + sample.b.variance;
    log_ratios.push_back(std::log(sample.ratio));
  }
  const auto n = static_cast<double>(trials);
  out.rate = hits / n;
  out.welch_rate = welch_hits / n;
  const double d = out.rate - out.welch_rate;
  out.paired_se = std::sqrt(std::max(0.0, diff_sq / n - d * d) / n);
  out.se_ratio = std::sqrt(variance_sum / n) / std::sqrt(variance(log_ratios));
  std::printf(
      "    %s, %zu instances, slowdown %.2f: %.4f (Welch %.4f) over %d trials, SE ratio "
      "%.3f\n",
      to_string(statistic), model.instances, slowdown, out.rate, out.welch_rate, trials,
      out.se_ratio);
  return out;
}

// Commands timed from outside: one iteration an instance, 20 instances a side, 0.5% noise.
SimulationOptions launches() {
  SimulationOptions o;
  o.instances = 20;
  o.iterations = 1;
  o.instance_sd = 0.005;
  o.iteration_sd = 0.0;
  return o;
}

// Layout (docs/measurement.md, "Layout bias"): a share of the launches 8% slower, by where
// their stack happens to start. A mode of the instances, not spikes.
SimulationOptions layout(double share) {
  auto o = launches();
  o.outlier_probability = share;
  o.outlier_factor = 1.08;
  return o;
}

using testing::three_se;

TEST(StatsSimulation, RobustMeanHoldsItsFalseAlarmsAndPowerWithSpikes) {
  const int aa = 1000, power = 600;
  const auto spiky_aa = run(spiky(), 1.0, Statistic::kRobustMean, aa, 21);
  EXPECT_LE(spiky_aa.rate, 0.06 + three_se(0.06, aa));
  const auto spiky_5 = run(spiky(), 1.05, Statistic::kRobustMean, power, 24);
  EXPECT_GE(spiky_5.rate, 0.89 - three_se(0.89, power));
  // For contrast, the mean on the same spiky data: two 12x spikes a side bury a 5% slowdown.
  const auto mean_5 = run(spiky(), 1.05, Statistic::kMean, power, 24);
  EXPECT_LT(mean_5.rate, 0.5);
}

// A regression in the tail: 4% of B's iterations 5x slower, none of A's (the mean +16%). The
// robust mean alone leaves the spikes out; the default rule compares the tails too and must
// not call B unchanged. With the tails weighted 0.25 in Holm's family it finds B slower in
// about a third of the comparisons (bench/verdict_bench: 33.9+-1.5% of 1,000), the rest
// inconclusive; Welch's t-test on instance means, which the spikes move, finds it more often
// (77%) but loses a 5% slowdown among spikes on both sides (6.6%).
TEST(StatsSimulation, ARegressionInTheTailIsNotCalledUnchanged) {
  auto tail = clean();
  tail.outlier_probability = 0.04;
  tail.outlier_factor = 5.0;
  const int trials = 400;
  int slower = 0, unchanged = 0, welch_slower = 0;
  for (int t = 0; t < trials; ++t) {
    const auto a = simulate(clean(), 61, 2 * static_cast<uint64_t>(t));
    const auto b = simulate(tail, 61, 2 * static_cast<uint64_t>(t) + 1);
    const Comparison c = compare(a, b, VerdictOptions{});
    slower += c.verdict == Verdict::kSlower;
    unchanged += c.verdict == Verdict::kUnchanged;
    welch_slower += welch(a, b) > 0;
  }
  std::printf("    tail: slower %d, unchanged %d, Welch slower %d of %d\n", slower, unchanged,
              welch_slower, trials);
  EXPECT_LE(unchanged, trials / 100);
  EXPECT_GE(slower, trials / 4);
  EXPECT_LT(slower, welch_slower);
}

TEST(StatsSimulation, RobustMeanIsAsPowerfulAsWelchOnCleanData) {
  const int aa = 1000, power = 600;
  const auto clean_aa = run(clean(), 1.0, Statistic::kRobustMean, aa, 22);
  EXPECT_NEAR(clean_aa.rate, 0.05, three_se(0.05, aa));
  for (const double slowdown : {1.03, 1.05}) {
    const auto r = run(clean(), slowdown, Statistic::kRobustMean, power, 23);
    EXPECT_GE(r.rate, r.welch_rate - 0.01 - 3 * r.paired_se) << slowdown;
  }
}

// Launches in two layout modes: the robust mean must not take the rarer mode for spikes and
// leave it out on one side only (when every far launch was a spike: 55% false alarms with half
// the launches slow; when a lone far launch was, whatever the other side held: 9.4% and 10.5%
// with a fifth and a tenth). Beside Welch on the same data.
TEST(StatsSimulation, RobustMeanSeesLayoutModesAsWelchDoes) {
  const int aa = 1000;
  for (const double share : {0.5, 0.2, 0.1}) {
    const auto r = run(layout(share), 1.0, Statistic::kRobustMean, aa, 50);
    EXPECT_LE(r.rate, 0.05 + three_se(0.05, aa)) << share;
    EXPECT_LE(r.rate, r.welch_rate + 0.01 + 3 * r.paired_se) << share;
  }
}

// A launch gone wrong (2% of launches 3x or 12x) is still left out: a 5% slowdown is found
// as often as on clean launches, where Welch loses it.
TEST(StatsSimulation, RobustMeanLeavesOutARareLaunchSpike) {
  auto o = launches();
  o.outlier_probability = 0.02;
  o.outlier_factors = {3.0, 12.0};
  const auto aa = run(o, 1.0, Statistic::kRobustMean, 1000, 52);
  EXPECT_LE(aa.rate, 0.05 + three_se(0.05, 1000));
  const auto r = run(o, 1.05, Statistic::kRobustMean, 600, 53);
  EXPECT_GE(r.rate, 0.90);
  EXPECT_GT(r.rate, r.welch_rate + 3 * r.paired_se);
}

TEST(StatsSimulation, EveryStatisticsIntervalIsAsWideAsItsSpread) {
  // 2,000 A/A trials estimate the spread to about 1.6%: the bound is 2% + 3 of those.
  // (The median has no t interval; its bootstrap interval is wider than its spread: bench/.)
  for (const auto statistic : {Statistic::kRobustMean, Statistic::kMean, Statistic::kTrimmedMean}) {
    const auto r = run(clean(), 1.0, statistic, 2000, 25);
    EXPECT_NEAR(r.se_ratio, 1.0, 0.02 + 3 * 0.016) << to_string(statistic);
  }
}

TEST(StatsSimulation, AtThreeAndFiveInstancesIntervalAndVerdictAgree) {
  const int aa = 1000, power = 400;
  for (const std::size_t n : {3u, 5u}) {
    const auto r_aa = run(clean(n), 1.0, Statistic::kRobustMean, aa, 30 + n);
    EXPECT_LE(r_aa.rate, 0.05 + three_se(0.05, aa)) << n;
    EXPECT_EQ(r_aa.disagreements, 0) << n;
    const auto r_10 = run(clean(n), 1.10, Statistic::kRobustMean, power, 40 + n);
    EXPECT_EQ(r_10.disagreements, 0) << n;
    EXPECT_GE(r_10.rate, r_10.welch_rate - 0.01 - 3 * r_10.paired_se) << n;
  }
}

}  // namespace
}  // namespace benchguard::stats
