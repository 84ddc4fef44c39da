// Does the statistics do what it claims on data with the structure of real benchmarks?
// Monte Carlo checks over simulated datasets (src/stats/simulate.cpp). Seeds are fixed, so the
// figures are reproducible; the assertions leave room for Monte Carlo error (3 standard errors).
// The heavy ones are in StatsSimulation so they can be filtered out.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "stats/simulate.hpp"
#include "stats/tests.hpp"
#include "stats/verdict.hpp"
#include "support/test_support.hpp"

namespace benchguard::stats {
namespace {

// Lognormal iterations (2%), lognormal instance offsets (3% sd), 0.5% outliers at 1.5x, and a
// 5-iteration warmup that starts 50% slow. Warmup is dropped as burn-in before analysis.
SimulationOptions realistic() {
  SimulationOptions o;
  o.instances = 10;
  o.iterations = 20;
  o.warmup_iterations = 5;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  o.outlier_probability = 0.005;
  o.outlier_factor = 1.5;
  o.warmup_factor = 1.5;
  return o;
}

Hierarchical measured(const SimulationOptions& o, uint64_t seed, uint64_t stream) {
  return drop_leading(simulate(o, seed, stream), o.warmup_iterations);
}

using testing::three_se;

void note(const std::string& what, double value) {
  ::testing::Test::RecordProperty(what, std::to_string(value));
  std::printf("    %s: %.4f\n", what.c_str(), value);
}

TEST(StatsSimulate, ShapeAndExpectedMean) {
  auto o = realistic();
  o.instances = 400;
  o.iterations = 50;
  const auto raw = simulate(o, 3);
  ASSERT_EQ(raw.instances(), 400u);
  ASSERT_EQ(raw.instance(0).size(), 55u);
  // Warmup: the first iteration averages 1.5x the steady state.
  double first = 0.0;
  for (std::size_t i = 0; i < raw.instances(); ++i) first += raw.instance(i)[0];
  const auto steady = drop_leading(raw, o.warmup_iterations);
  EXPECT_NEAR(first / 400.0 / mean(steady.values()), 1.5, 0.02);
  EXPECT_NEAR(mean(steady.values()), expected_iteration(o), 0.005);  // se ~ 0.0016
  // 2% noise and outliers: sqrt(0.02^2 + 0.005 * 0.995 * 0.5^2) = 0.0406
  EXPECT_NEAR(pooled_cv(steady), 0.0406, 0.004);
  EXPECT_NEAR(stdev(instance_means(steady)), 0.03, 0.004);
  EXPECT_EQ(simulate(o, 3).values()[17], raw.values()[17]);
  EXPECT_NE(simulate(o, 4).values()[17], raw.values()[17]);
}

// (a) The default 95% interval of the mean covers the true mean 93-97% of the time with 10
// instances and instance effects. The plain percentile interval is reported for contrast.
TEST(StatsSimulation, HierarchicalIntervalCoverage) {
  const auto o = realistic();
  const double truth = expected_iteration(o);
  const int datasets = 3000;
  int covered = 0, covered_plain = 0;
  BootstrapOptions options;
  options.resamples = 2000;
  for (int d = 0; d < datasets; ++d) {
    const auto data = measured(o, 101, static_cast<uint64_t>(d));
    const auto reps = hierarchical_replicates(data, Statistic::kMean, options.resamples, d);
    const VarianceTerm terms[] = {variance_term(data)};
    const auto expanded =
        percentile_interval(reps, tail_probability(0.95, combined_expansion(terms)));
    covered += expanded.contains(truth);
    covered_plain += percentile_interval(reps, 0.025).contains(truth);
  }
  const double coverage = static_cast<double>(covered) / datasets;
  note("coverage_expanded_percentile", coverage);
  note("coverage_plain_percentile", static_cast<double>(covered_plain) / datasets);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.97);
}

// (b) A/A: both sides from the same process. The verdict may call slower/faster at most
// 5% (+ 3 standard errors) of the time; U over pooled iterations, blind to instances, cries
// wolf far more often, while U over instance means keeps its level.
TEST(StatsSimulation, AAFalsePositiveRate) {
  const auto o = realistic();
  const int trials = 2000;
  int verdict_fp = 0, pooled_u_fp = 0, instance_u_fp = 0;
  VerdictOptions options;
  options.resamples = 1000;
  for (int d = 0; d < trials; ++d) {
    const auto a = measured(o, 202, 2 * static_cast<uint64_t>(d));
    const auto b = measured(o, 202, 2 * static_cast<uint64_t>(d) + 1);
    options.seed = static_cast<uint64_t>(d);
    const auto c = compare(a, b, options);
    verdict_fp += c.verdict == Verdict::kSlower || c.verdict == Verdict::kFaster;
    instance_u_fp += c.p_value < 0.05;
    pooled_u_fp += mann_whitney_u(a.values(), b.values()).p_value < 0.05;
  }
  const double verdict_rate = static_cast<double>(verdict_fp) / trials;
  const double pooled_rate = static_cast<double>(pooled_u_fp) / trials;
  const double instance_rate = static_cast<double>(instance_u_fp) / trials;
  note("aa_verdict_false_positive_rate", verdict_rate);
  note("aa_instance_mwu_false_positive_rate", instance_rate);
  note("aa_pooled_mwu_false_positive_rate", pooled_rate);
  EXPECT_LE(verdict_rate, 0.05 + three_se(0.05, trials));
  EXPECT_LE(instance_rate, 0.05 + three_se(0.05, trials));
  EXPECT_GT(pooled_rate, 0.25);
  EXPECT_GT(pooled_rate, 4.0 * verdict_rate);
}

// (c) Power: a 5% slowdown, 10 instances x 20 iterations per side, 3% instance sd, 1%
// iteration noise. A two-sample t-test on instance means has about 92% power here (noncentral
// t, 18 df), so 90% is close to what any test at the 5% level can do.
TEST(StatsSimulation, PowerForFivePercentSlowdown) {
  auto o = realistic();
  o.iteration_sd = 0.01;
  o.outlier_probability = 0.0;
  const int trials = 2000;
  int slower = 0;
  VerdictOptions options;
  options.resamples = 1000;
  for (int d = 0; d < trials; ++d) {
    o.slowdown = 1.0;
    const auto a = measured(o, 303, 2 * static_cast<uint64_t>(d));
    o.slowdown = 1.05;
    const auto b = measured(o, 303, 2 * static_cast<uint64_t>(d) + 1);
    options.seed = static_cast<uint64_t>(d);
    slower += compare(a, b, options).verdict == Verdict::kSlower;
  }
  const double power = static_cast<double>(slower) / trials;
  note("power_5pct_slowdown", power);
  EXPECT_GE(power, 0.90);
}

}  // namespace
}  // namespace benchguard::stats
