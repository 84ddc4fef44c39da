// The verdict on data with outlier iterations: the reduced form of bench/outlier_bench.cpp.
// 10 instances x 20 iterations per side, 3% instance offsets, 2% iteration noise; in the spiky
// model 2% of iterations are multiplied by 3 or 12. Fixed seeds; bounds allow 3 Monte Carlo
// standard errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "stats/verdict.hpp"

namespace benchguard::stats {
namespace {

SimulationOptions clean() {
  SimulationOptions o;
  o.instances = 10;
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

// Share of trials where the verdict is a false alarm (A/A: slower or faster) or, with a
// slowdown, where it is slower.
double rate(const SimulationOptions& model, double slowdown, Statistic statistic, int trials,
            uint64_t seed) {
  VerdictOptions vo;
  vo.statistic = statistic;
  vo.resamples = 500;
  auto model_b = model;
  model_b.slowdown = slowdown;
  int hits = 0;
  for (int t = 0; t < trials; ++t) {
    const auto a = simulate(model, seed, 2 * static_cast<uint64_t>(t));
    const auto b = simulate(model_b, seed, 2 * static_cast<uint64_t>(t) + 1);
    vo.seed = derive_seed(seed, static_cast<uint64_t>(t));
    const Verdict v = compare(a, b, vo).verdict;
    hits +=
        slowdown == 1.0 ? (v == Verdict::kSlower || v == Verdict::kFaster) : v == Verdict::kSlower;
  }
  const double r = static_cast<double>(hits) / trials;
  std::printf("    %s, slowdown %.2f: %.4f over %d trials\n", to_string(statistic), slowdown, r,
              trials);
  return r;
}

double three_se(double p, int trials) {
  return 3.0 * std::sqrt(p * (1.0 - p) / trials);
}

TEST(StatsSimulation, TrimmedMeanKeepsFalseAlarmsDownWithSpikesAndPowerOnCleanData) {
  const int aa_trials = 1000, power_trials = 600;
  const double spiky_trimmed = rate(spiky(), 1.0, Statistic::kTrimmedMean, aa_trials, 21);
  EXPECT_LE(spiky_trimmed, 0.06 + three_se(0.06, aa_trials));
  const double clean_trimmed = rate(clean(), 1.0, Statistic::kTrimmedMean, aa_trials, 22);
  EXPECT_LE(clean_trimmed, 0.05 + three_se(0.05, aa_trials));
  const double power = rate(clean(), 1.05, Statistic::kTrimmedMean, power_trials, 23);
  EXPECT_GE(power, 0.90 - three_se(0.90, power_trials));
  // For contrast, the mean on the same spiky data: a 12x spike drags an instance mean up by
  // half, and the interval misses that often enough to alarm more often.
  const double spiky_mean = rate(spiky(), 1.0, Statistic::kMean, aa_trials, 21);
  EXPECT_GT(spiky_mean, spiky_trimmed);
}

}  // namespace
}  // namespace benchguard::stats
