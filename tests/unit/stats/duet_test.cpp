// Duet analysis: pairing by overlap (hand-made timelines), the run-level estimate (computed by
// hand), and by simulation that it cancels noise both sides share while keeping its error rate.
#include "stats/duet.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/verdict.hpp"
#include "support/test_support.hpp"

namespace benchguard::stats {
namespace {

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

TEST(StatsDuet, PairsIterationsThatOverlapEnough) {
  // A: [0,10) [10,20) [20,30); B: [1,11) [12,22) [29,40).
  const std::vector<TimeSpan> a = {{0, 10}, {10, 20}, {20, 30}};
  const std::vector<TimeSpan> b = {{1, 11}, {12, 22}, {29, 40}};
  // A0/B0 share 9 (90% of each); A1/B1 share 8 (80%); A2/B2 share 1 (10% of A2, 9% of B2).
  EXPECT_EQ(pair_overlapping(a, b, 0.4), (Pairs{{0, 0}, {1, 1}}));
  EXPECT_EQ(pair_overlapping(a, b, 0.85), (Pairs{{0, 0}}));
  EXPECT_EQ(pair_overlapping(a, b, 0.05), (Pairs{{0, 0}, {1, 1}, {2, 2}}));
}

TEST(StatsDuet, EachIterationPairsOnceAndTheSweepSkipsPastShortOnes) {
  // B runs two short iterations while A runs one long one, then they line up again.
  const std::vector<TimeSpan> a = {{0, 100}, {100, 200}};
  const std::vector<TimeSpan> b = {{0, 45}, {45, 100}, {100, 190}};
  // A0 covers B0 fully, but B0 covers only 45% of A0; B1 covers 55% of A0 and all of itself.
  EXPECT_EQ(pair_overlapping(a, b, 0.4), (Pairs{{0, 0}, {1, 2}}));
  EXPECT_EQ(pair_overlapping(a, b, 0.5), (Pairs{{0, 1}, {1, 2}}));
  // Touching is not overlapping.
  const std::vector<TimeSpan> c = {{0, 10}};
  const std::vector<TimeSpan> d = {{10, 20}};
  EXPECT_TRUE(pair_overlapping(c, d, 0.01).empty());
  EXPECT_TRUE(pair_overlapping({}, d, 0.4).empty());
}

TEST(StatsDuet, RatioIsTheGeometricMeanOverRunsOfEachRunsGeometricMeanPairedRatio) {
  const std::vector<DuetRun> runs = {
      {{1.0, 2.0}, {1.1, 2.4}},  // ratios 1.1, 1.2 -> sqrt(1.32)
      {{4.0}, {4.2}},            // 1.05
      {{}, {}},                  // no pairs: left out
  };
  const double r1 = std::sqrt(1.1 * 1.2), r2 = 1.05;
  const auto s = duet_ratio_sample(runs, 500, 7);
  EXPECT_NEAR(s.ratio, std::sqrt(r1 * r2), 1e-12);
  ASSERT_EQ(s.replicates.size(), 500u);
  for (double r : s.replicates) {
    // Each replicate is a geometric mean of two run ratios drawn from {r1, r2}.
    const bool possible = std::abs(r - r1) < 1e-12 || std::abs(r - r2) < 1e-12 ||
                          std::abs(r - std::sqrt(r1 * r2)) < 1e-12;
    EXPECT_TRUE(possible) << r;
  }
  EXPECT_EQ(duet_ratio_sample(runs, 500, 7).replicates, s.replicates);
  EXPECT_NE(duet_ratio_sample(runs, 500, 8).replicates, s.replicates);
  const auto side_b = duet_side(runs, true);
  EXPECT_EQ(side_b.instances(), 2u);
  EXPECT_NEAR(mean(side_b.values()), (1.1 + 2.4 + 4.2) / 3, 1e-12);
}

// A duet on a noisy machine: the machine goes through phases (a load that comes and goes)
// that slow a whole run by a lognormal factor (sd `phase`), and bursts that hit single
// iterations (sd `burst`); both sides of a run share them. Each side also has an instance
// offset (sd 1%) and iteration noise (1%) of its own. B is `slowdown` slower.
std::vector<DuetRun> noisy_duet(Rng& rng, double slowdown, double phase, double burst,
                                int runs = 10, int iterations = 20) {
  std::vector<DuetRun> out(runs);
  for (auto& run : out) {
    const double machine_phase = std::exp(phase * rng.normal());
    const double inst_a = std::exp(0.01 * rng.normal());
    const double inst_b = std::exp(0.01 * rng.normal());
    for (int k = 0; k < iterations; ++k) {
      const double machine = machine_phase * std::exp(burst * rng.normal());
      run.a.push_back(inst_a * machine * std::exp(0.01 * rng.normal()));
      run.b.push_back(slowdown * inst_b * machine * std::exp(0.01 * rng.normal()));
    }
  }
  return out;
}

// The mean log ratio's expectation is log s exactly: lognormal noise is symmetric in logs.
constexpr double kRatioBias = 1.0;

VerdictOptions options(uint64_t seed) {
  VerdictOptions o;
  o.resamples = 1000;
  o.seed = seed;
  return o;
}

using testing::three_se;

TEST(StatsDuet, StrataOfTheDesignResampleWithinThemselves) {
  // Half the runs with B on a CPU 5% slower, half with A on it: ratios near 1.05 and 1 / 1.05.
  Rng rng(3, 0);
  std::vector<DuetRun> runs;
  for (int k = 0; k < 16; ++k) {
    const double cpu = k % 2 == 0 ? 1.05 : 1 / 1.05;
    runs.push_back({{1.0}, {cpu * std::exp(0.002 * rng.normal())}, k % 2});
  }
  auto pooled = runs;
  for (auto& r : pooled) r.stratum = 0;
  const auto strat =
      ratio_estimate(duet_ratio_sample(runs, 2000, 5), 0.95, CiMethod::kExpandedPercentile);
  const auto plain =
      ratio_estimate(duet_ratio_sample(pooled, 2000, 5), 0.95, CiMethod::kExpandedPercentile);
  // The geometric mean cancels the CPU: both estimates near 1, the same number.
  EXPECT_NEAR(strat.value, 1.0, 0.002);
  EXPECT_DOUBLE_EQ(strat.value, plain.value);
  EXPECT_TRUE(strat.ci.contains(1.0));
  // Within strata only the 0.2% noise is left: the interval is far narrower.
  EXPECT_LT(strat.ci.upper - strat.ci.lower, 0.2 * (plain.ci.upper - plain.ci.lower));
  // A stratum of one run cannot be resampled within itself: back to resampling all runs.
  auto lone = runs;
  lone.push_back({{1.0}, {1.0}, 7});
  const auto fallback = duet_ratio_sample(lone, 200, 5);
  EXPECT_EQ(fallback.a.instances, 17u);
}

TEST(StatsDuet, SideEffectByHand) {
  // Log ratios {0.1, 0.3} where B had the condition, {-0.1, -0.3} where A had it:
  // difference of means 0.4, so the factor is exp(0.2). Welch: se^2 = 0.02 / 2 + 0.02 / 2 =
  // 0.02, dof = 0.02^2 / (0.01^2 / 1 + 0.01^2 / 1) = 2, t(0.975, 2) = 4.302653, half-width
  // 4.302653 * sqrt(0.02) = 0.608490; the interval exp((0.4 -+ 0.608490) / 2).
  const std::vector<double> with{0.1, 0.3}, without{-0.1, -0.3};
  const SideEffect e = side_effect(with, without, 0.95);
  EXPECT_NEAR(e.factor, std::exp(0.2), 1e-12);
  EXPECT_NEAR(e.ci.lower, std::exp((0.4 - 0.608490) / 2), 1e-5);
  EXPECT_NEAR(e.ci.upper, std::exp((0.4 + 0.608490) / 2), 1e-5);
  EXPECT_EQ(e.runs_b_has, 2u);
  EXPECT_EQ(e.runs_a_has, 2u);
  // Too few runs on one side: no estimate.
  EXPECT_TRUE(std::isnan(side_effect(std::vector<double>{0.1}, without, 0.95).factor));
  // A run's log ratio is the log of its mean paired ratio.
  EXPECT_NEAR(run_log_ratio(DuetRun{{1.0, 2.0}, {1.1, 2.4}}), (std::log(1.1) + std::log(1.2)) / 2,
              1e-12);
}

TEST(StatsDuet, SideEffectRecoversAnInjectedCpuEffect) {
  // B/A = 1 (A/A) times 1.03 when B is on the slow CPU, / 1.03 when A is; 1% run noise.
  Rng rng(17, 0);
  std::vector<double> with, without;
  for (int k = 0; k < 16; ++k) {
    with.push_back(std::log(1.03) + rng.normal(0, 0.01));
    without.push_back(-std::log(1.03) + rng.normal(0, 0.01));
  }
  const SideEffect e = side_effect(with, without, 0.95);
  EXPECT_NEAR(e.factor, 1.03, 0.006);
  EXPECT_TRUE(e.ci.contains(1.03));
  EXPECT_GT(e.ci.lower, 1.0);
}

TEST(StatsSimulation, DuetAAFalsePositiveRateAndCoverageOfAThreePercentSlowdown) {
  constexpr int kTrials = 400;
  int false_alarms = 0, covered = 0;
  for (int t = 0; t < kTrials; ++t) {
    Rng rng(2024, static_cast<uint64_t>(t));
    for (const double s : {1.0, 1.03}) {
      const auto runs = noisy_duet(rng, s, 0.10, 0.10);
      const auto sample = duet_ratio_sample(runs, 1000, derive_seed(9, t));
      const auto c =
          compare_with_sample(duet_side(runs, false), duet_side(runs, true), sample, options(t));
      if (s == 1.0 && !c.ratio.ci.contains(1.0)) ++false_alarms;
      if (s == 1.03 && c.ratio.ci.contains(1.03 * kRatioBias)) ++covered;
    }
  }
  const double fpr = static_cast<double>(false_alarms) / kTrials;
  const double coverage = static_cast<double>(covered) / kTrials;
  RecordProperty("duet_aa_false_positive_rate", std::to_string(fpr));
  RecordProperty("duet_coverage", std::to_string(coverage));
  EXPECT_LE(fpr, 0.05 + three_se(0.05, kTrials));
  EXPECT_GE(coverage, 0.95 - three_se(0.05, kTrials));
}

TEST(StatsSimulation, DuetAAIsUnbiasedWhenEachSideIsSlowedIndependently) {
  // Under load each side's CPU is time-sliced with other work, so iterations are slowed
  // independently: per-iteration log ratios with sd 0.19, as bench/noise_bench measured under
  // on/off CPU noise. The arithmetic mean of b / a would sit at exp(0.19^2 / 2) = 1.018 and call
  // A/A slower.
  constexpr int kTrials = 400;
  int alarms = 0, excluded = 0;
  double log_sum = 0;
  for (int t = 0; t < kTrials; ++t) {
    Rng rng(41, static_cast<uint64_t>(t));
    std::vector<DuetRun> runs(16);
    for (auto& run : runs) {
      const double phase = std::exp(0.1 * rng.normal());
      for (int k = 0; k < 20; ++k) {
        run.a.push_back(phase * std::exp(0.134 * rng.normal()));
        run.b.push_back(phase * std::exp(0.134 * rng.normal()));
      }
    }
    const auto c = compare_with_sample(duet_side(runs, false), duet_side(runs, true),
                                       duet_ratio_sample(runs, 1000, t), options(t));
    log_sum += std::log(c.ratio.value);
    alarms += c.verdict == Verdict::kSlower || c.verdict == Verdict::kFaster;
    excluded += !c.ratio.ci.contains(1.0);
  }
  const double mean_ratio = std::exp(log_sum / kTrials);
  std::printf("    A/A ratio %.4f, interval excludes 1: %.4f, slower/faster: %.4f\n", mean_ratio,
              static_cast<double>(excluded) / kTrials, static_cast<double>(alarms) / kTrials);
  EXPECT_NEAR(mean_ratio, 1.0, 0.002);
  EXPECT_LE(static_cast<double>(excluded) / kTrials, 0.05 + three_se(0.05, kTrials));
  EXPECT_LE(static_cast<double>(alarms) / kTrials, 0.05 + three_se(0.05, kTrials));
}

TEST(StatsSimulation, DuetIntervalsAreNarrowerThanIndependentInstancesUnderSharedNoise) {
  // The same data analysed as independent instances (the hierarchical bootstrap) and as
  // duet pairs: with machine phases of 10% the duet interval is several times narrower.
  double duet_width = 0, instance_width = 0;
  constexpr int kTrials = 50;
  for (int t = 0; t < kTrials; ++t) {
    Rng rng(77, static_cast<uint64_t>(t));
    const auto runs = noisy_duet(rng, 1.03, 0.10, 0.10);
    const auto a = duet_side(runs, false), b = duet_side(runs, true);
    const auto duet = compare_with_sample(a, b, duet_ratio_sample(runs, 1000, t), options(t));
    const auto plain = compare(a, b, options(t));
    duet_width += duet.ratio.ci.upper - duet.ratio.ci.lower;
    instance_width += plain.ratio.ci.upper - plain.ratio.ci.lower;
  }
  RecordProperty("width_ratio", std::to_string(instance_width / duet_width));
  EXPECT_GT(instance_width / duet_width, 3.0);
}

}  // namespace
}  // namespace benchguard::stats
