// Tests for src/stats/resample.cpp: the hierarchical resampling scheme and its determinism.
#include "stats/resample.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"

namespace benchguard::stats {
namespace {

// A literal, slow transcription of the documented resampling scheme: the values one resample
// draws from `rng`.
std::vector<double> draw_one(const std::vector<std::vector<double>>& data, Rng& rng) {
  std::vector<double> drawn;
  for (std::size_t k = 0; k < data.size(); ++k) {
    const auto& inst = data[rng.below(static_cast<uint32_t>(data.size()))];
    if (inst.size() == 1) {
      drawn.push_back(inst[0]);
      continue;
    }
    for (std::size_t j = 0; j < inst.size(); ++j) {
      drawn.push_back(inst[rng.below(static_cast<uint32_t>(inst.size()))]);
    }
  }
  return drawn;
}

// Resample b: the (b mod 32)-th drawn, in order, from stream b / 32.
std::vector<double> reference_resample(const std::vector<std::vector<double>>& data, uint64_t seed,
                                       uint64_t b) {
  Rng rng(seed, b / 32);
  for (uint64_t before = 0; before < b % 32; ++before) draw_one(data, rng);
  return draw_one(data, rng);
}

TEST(StatsResample, ReplicatesFollowTheScheme) {
  const std::vector<std::vector<double>> raw{{1, 2, 3}, {10, 20}, {7}, {5, 6, 7, 8}, {4, 4, 9}};
  const Hierarchical data(raw);
  const auto means = hierarchical_replicates(data, Statistic::kMean, 60, 11);
  const auto medians = hierarchical_replicates(data, Statistic::kMedian, 60, 11);
  const auto trimmed = hierarchical_replicates(data, Statistic::kTrimmedMean, 60, 11);
  ASSERT_EQ(means.size(), 60u);
  ASSERT_EQ(medians.size(), 60u);
  ASSERT_EQ(trimmed.size(), 60u);
  for (uint64_t b = 0; b < 60; ++b) {
    auto drawn = reference_resample(raw, 11, b);
    EXPECT_DOUBLE_EQ(means[b], mean(drawn)) << "resample " << b;
    EXPECT_DOUBLE_EQ(medians[b], median(drawn)) << "resample " << b;
    // The literal trimmed mean of the sorted draw: floor(10% of n) values cut at each end.
    std::sort(drawn.begin(), drawn.end());
    const auto cut = drawn.size() / 10;
    double sum = 0.0;
    for (std::size_t i = cut; i < drawn.size() - cut; ++i) sum += drawn[i];
    EXPECT_NEAR(trimmed[b], sum / static_cast<double>(drawn.size() - 2 * cut), 1e-12)
        << "resample " << b;
  }
}

TEST(StatsResample, TrimmedMeanByHand) {
  // 20 values: floor(0.1 * 20) = 2 cut at each end, the mean of the middle 16.
  std::vector<double> v;
  for (int i = 1; i <= 18; ++i) v.push_back(i);
  v.push_back(1000);  // spikes: cut
  v.push_back(-1000);
  const Hierarchical data({v});
  // Sorted: -1000, 1, 2, ..., 18, 1000; kept 2 .. 17, mean 9.5.
  EXPECT_DOUBLE_EQ(statistic_of(data, Statistic::kTrimmedMean), 9.5);
  // 9 values: floor(0.9) = 0 cut: the plain mean.
  const Hierarchical nine({{1, 2, 3}, {4, 5, 6}, {7, 8, 90}});
  EXPECT_DOUBLE_EQ(statistic_of(nine, Statistic::kTrimmedMean), 126.0 / 9.0);
  // 10 values: one cut at each end.
  const Hierarchical ten({{1, 2, 3, 4, 5}, {6, 7, 8, 9, 100}});
  EXPECT_DOUBLE_EQ(statistic_of(ten, Statistic::kTrimmedMean), 44.0 / 8.0);
  EXPECT_STREQ(to_string(Statistic::kTrimmedMean), "trimmed mean");
}

TEST(StatsBootstrap, RobustStatisticsTakeTheirExpansionFromWinsorizedData) {
  // A 12x spike inflates the mean's within-instance variance term; the trimmed mean's terms
  // come from the data clipped at median +- 3 scaled MADs, where the spike no longer counts.
  std::vector<std::vector<double>> raw;
  for (int i = 0; i < 6; ++i) {
    std::vector<double> inst;
    for (int j = 0; j < 10; ++j) inst.push_back(1.0 + 0.01 * i + 0.001 * j);
    raw.push_back(inst);
  }
  const Hierarchical clean(raw);
  raw[2][4] = 12.0;
  const Hierarchical spiky(raw);
  const auto w = winsorized(spiky, 3.0);
  const auto values = spiky.values();
  const double hi = median(values) + 3.0 * mad_scaled(values);
  EXPECT_DOUBLE_EQ(w.instance(2)[4], hi);
  EXPECT_DOUBLE_EQ(w.instance(0)[0], spiky.instance(0)[0]);
  const auto robust = variance_term(spiky, Statistic::kTrimmedMean);
  const auto plain = variance_term(spiky, Statistic::kMean);
  EXPECT_GT(plain.bootstrap_variance, 50 * robust.bootstrap_variance);
  EXPECT_NEAR(robust.variance, variance_term(clean).variance, 0.2 * variance_term(clean).variance);
}

// Two instances of one iteration each, {1} and {3}: a resample mean is 1, 2 or 3 with
// probabilities 1/4, 1/2, 1/4.
TEST(StatsResample, InstanceLevelResamplingDistribution) {
  const auto reps = hierarchical_replicates(Hierarchical({{1}, {3}}), Statistic::kMean, 20000, 5);
  double ones = 0, twos = 0, threes = 0;
  for (double r : reps) {
    ones += r == 1.0;
    twos += r == 2.0;
    threes += r == 3.0;
  }
  EXPECT_EQ(ones + twos + threes, 20000);
  EXPECT_NEAR(ones / 20000, 0.25, 0.015);
  EXPECT_NEAR(twos / 20000, 0.50, 0.015);
  EXPECT_NEAR(threes / 20000, 0.25, 0.015);
}

TEST(StatsResample, MedianReplicatesAreMediansOfResamples) {
  // An odd pooled count (3 x 3): every replicate is one of the data values.
  const Hierarchical data({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  for (double r : hierarchical_replicates(data, Statistic::kMedian, 500, 3)) {
    EXPECT_EQ(r, std::round(r));
    EXPECT_GE(r, 1.0);
    EXPECT_LE(r, 9.0);
  }
  EXPECT_DOUBLE_EQ(statistic_of(data, Statistic::kMedian), 5.0);
}

TEST(StatsResample, SameSeedSameResultOtherSeedOtherResult) {
  const auto data = simulate({}, 1);
  const auto a = hierarchical_replicates(data, Statistic::kMean, 1000, 8);
  EXPECT_EQ(a, hierarchical_replicates(data, Statistic::kMean, 1000, 8));
  EXPECT_NE(a, hierarchical_replicates(data, Statistic::kMean, 1000, 9));
}

TEST(StatsResample, IdenticalOnOneAndTwoThreads) {
  SimulationOptions sim;
  sim.instances = 30;
  const auto a = simulate(sim, 1), b = simulate(sim, 2);
  BootstrapOptions options;
  options.seed = 1234;
  options.resamples = 4000;
  auto run = [&](std::size_t threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    return std::make_pair(bootstrap(a, options), bootstrap_ratio(a, b, options));
  };
  const auto one = run(1), two = run(2);
  EXPECT_NE(one.first.ci.lower, one.first.ci.upper);
  EXPECT_EQ(one.first.ci.lower, two.first.ci.lower);
  EXPECT_EQ(one.first.ci.upper, two.first.ci.upper);
  EXPECT_EQ(one.second.ci.lower, two.second.ci.lower);
  EXPECT_EQ(one.second.ci.upper, two.second.ci.upper);

  for (Statistic statistic : {Statistic::kMean, Statistic::kMedian, Statistic::kTrimmedMean}) {
    std::vector<double> serial;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      serial = hierarchical_replicates(a, statistic, 1000, 99);
    }
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    EXPECT_EQ(serial, hierarchical_replicates(a, statistic, 1000, 99));
  }
}

TEST(StatsResample, WithoutSpikesDropsSpikesWithinInstancesOnly) {
  // A 12x iteration is a spike; an instance 20% above the others is not: differences between
  // instances are the variation verdicts must see.
  const Hierarchical data({{1.00, 1.01, 0.99, 1.00, 12.0, 1.01},
                           {1.20, 1.21, 1.19, 1.20, 1.20, 1.21},
                           {1.00, 0.99, 1.01, 1.00, 1.00, 0.99}});
  const Hierarchical kept = without_spikes(data);
  ASSERT_EQ(kept.instances(), 3u);
  EXPECT_EQ(kept.instance(0).size(), 5u);
  EXPECT_EQ(kept.instance(1).size(), 6u);
  EXPECT_EQ(kept.instance(2).size(), 6u);
  EXPECT_DOUBLE_EQ(statistic_of(data, Statistic::kRobustMean), mean(kept.values()));
  // On clean data the robust mean is the mean.
  const auto clean = simulate(SimulationOptions{}, 5);
  EXPECT_EQ(without_spikes(clean).size(), clean.size());
  EXPECT_DOUBLE_EQ(statistic_of(clean, Statistic::kRobustMean), mean(clean.values()));
}

TEST(StatsResample, WithoutSpikesOfOneIterationInstancesUsesAllValues) {
  const Hierarchical data({{10.0}, {10.1}, {9.9}, {10.05}, {9.95}, {50.0}});
  const Hierarchical kept = without_spikes(data);
  EXPECT_EQ(kept.instances(), 5u);
  EXPECT_NEAR(statistic_of(data, Statistic::kRobustMean), 10.0, 1e-12);
  // A coarse timer: most values equal, so the MAD is 0 and nothing is a spike.
  const Hierarchical ticks({{1.0, 1.0, 1.0, 2.0}, {1.0, 1.0, 1.0, 1.0}});
  EXPECT_EQ(without_spikes(ticks).size(), ticks.size());
}

// One value an instance: a far launch is a spike only when alone where it lies. Launches 8%
// slower together (a layout mode) stay; so does a lone one when the other side of the
// comparison has launches near it; a 12x launch goes whatever its neighbours.
TEST(StatsResample, WithoutSpikesKeepsAModeOfLaunches) {
  const std::vector<std::vector<double>> fast = {{1.000}, {1.001}, {0.999}, {1.002},
                                                 {0.998}, {1.000}, {1.001}, {0.999}};
  auto with = [&](std::vector<std::vector<double>> extra) {
    auto all = fast;
    all.insert(all.end(), extra.begin(), extra.end());
    return Hierarchical(all);
  };
  EXPECT_EQ(without_spikes(with({{1.080}})).size(), 8u);            // alone: a spike
  EXPECT_EQ(without_spikes(with({{1.080}, {1.081}})).size(), 10u);  // a mode: kept
  EXPECT_EQ(without_spikes(with({{1.080}, {1.080}})).size(), 10u);  // twins too
  const std::vector<double> other = {1.000, 1.079, 0.999};
  EXPECT_EQ(without_spikes(with({{1.080}}), other).size(), 9u);  // the other side's mode
  EXPECT_EQ(without_spikes(with({{12.0}}), other).size(), 8u);   // still a spike
  EXPECT_EQ(without_spikes(with({{12.0}, {1.080}}), other).size(), 9u);
}

TEST(StatsResample, RobustMeanReplicatesAreTheMeansOfTheDataWithoutSpikes) {
  const Hierarchical data({{1.00, 1.01, 0.99, 1.00, 12.0, 1.01},
                           {1.20, 1.21, 1.19, 1.20, 1.20, 1.21},
                           {1.00, 0.99, 1.01, 1.00, 1.00, 0.99}});
  EXPECT_EQ(hierarchical_replicates(data, Statistic::kRobustMean, 50, 3),
            hierarchical_replicates(without_spikes(data), Statistic::kMean, 50, 3));
}

}  // namespace
}  // namespace benchguard::stats
