#include "stats/changepoint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace benchguard::stats {
namespace {

// Normal draws from mt19937_64 via Box-Muller: unlike std::normal_distribution, the sequence is
// the same with every standard library, so the seeded expectations hold everywhere.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : gen_(seed) {}
  double operator()(double mean, double sd) {
    const double u1 = (static_cast<double>(gen_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(gen_() >> 11) * 0x1.0p-53;
    return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  std::uint64_t raw() { return gen_(); }

 private:
  std::mt19937_64 gen_;
};

std::vector<double> noise(Normal& rng, std::size_t n, double mean, double sd) {
  std::vector<double> v(n);
  for (double& x : v) x = rng(mean, sd);
  return v;
}

std::vector<double> concat(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Slow, literal optimal partitioning (Jackson et al. 2005): every admissible last change
// point, every segment's mean and variance computed afresh. PELT must reach the same optimum.
struct Optimum {
  double cost = 0;
  std::vector<std::size_t> change_points;
};

Optimum optimal_partitioning(const std::vector<double>& x, double penalty, std::size_t m,
                             double floor) {
  const std::size_t n = x.size();
  auto cost = [&](std::size_t a, std::size_t b) {
    double mean = 0;
    for (std::size_t i = a; i < b; ++i) mean += x[i];
    mean /= static_cast<double>(b - a);
    double ss = 0;
    for (std::size_t i = a; i < b; ++i) ss += (x[i] - mean) * (x[i] - mean);
    return static_cast<double>(b - a) * std::log(ss / static_cast<double>(b - a) + floor);
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> f(n + 1, inf);
  std::vector<std::size_t> prev(n + 1, 0);
  f[0] = -penalty;
  for (std::size_t t = 1; t <= n; ++t)
    for (std::size_t tau = 0; tau + m <= t; ++tau) {
      if (f[tau] == inf) continue;
      const double v = f[tau] + cost(tau, t) + penalty;
      if (v < f[t]) {
        f[t] = v;
        prev[t] = tau;
      }
    }
  Optimum o{f[n], {}};
  for (std::size_t t = prev[n]; t > 0; t = prev[t])
    o.change_points.insert(o.change_points.begin(), t);
  return o;
}

TEST(StatsChangepoint, StepInMeanIsFoundWhereItIs) {
  Normal rng(1);
  const auto x = concat(noise(rng, 30, 1.0, 0.01), noise(rng, 30, 1.5, 0.01));
  const PeltResult r = pelt(x);
  ASSERT_EQ(r.change_points, (std::vector<std::size_t>{30}));
  ASSERT_EQ(r.segments.size(), 2u);
  EXPECT_EQ(r.segments[0].start, 0u);
  EXPECT_EQ(r.segments[0].end, 30u);
  EXPECT_EQ(r.segments[1].end, 60u);
  EXPECT_NEAR(r.segments[0].mean, 1.0, 0.01);
  EXPECT_NEAR(r.segments[1].mean, 1.5, 0.01);
  EXPECT_NEAR(std::sqrt(r.segments[1].variance), 0.01, 0.005);
}

TEST(StatsChangepoint, VarianceChangeWithSameMeanIsFound) {
  Normal rng(2);
  const auto x = concat(noise(rng, 50, 10.0, 0.1), noise(rng, 50, 10.0, 1.0));
  const PeltResult r = pelt(x);
  ASSERT_EQ(r.change_points.size(), 1u);
  EXPECT_NEAR(static_cast<double>(r.change_points[0]), 50.0, 3.0);
  EXPECT_GT(r.segments[1].variance, 20 * r.segments[0].variance);
  EXPECT_NEAR(r.segments[0].mean, r.segments[1].mean, 0.5);
}

TEST(StatsChangepoint, PureNoiseHasNoChangePoints) {
  for (std::uint64_t seed = 10; seed < 30; ++seed) {
    Normal rng(seed);
    const auto x = noise(rng, 200, 5.0, 0.2);
    EXPECT_TRUE(pelt(x).change_points.empty()) << "seed " << seed;
  }
}

TEST(StatsChangepoint, ConstantSeriesIsOneSegmentWithFiniteCost) {
  const std::vector<double> x(40, 3.0);
  const PeltResult r = pelt(x);
  EXPECT_TRUE(r.change_points.empty());
  ASSERT_EQ(r.segments.size(), 1u);
  EXPECT_DOUBLE_EQ(r.segments[0].mean, 3.0);
  EXPECT_DOUBLE_EQ(r.segments[0].variance, 0.0);
  EXPECT_TRUE(std::isfinite(r.cost));
}

TEST(StatsChangepoint, StepBetweenConstantRunsIsFound) {
  std::vector<double> x(20, 2.0);
  x.resize(45, 4.0);
  const PeltResult r = pelt(x);
  EXPECT_EQ(r.change_points, (std::vector<std::size_t>{20}));
}

TEST(StatsChangepoint, EmptyAndShortSeries) {
  EXPECT_TRUE(pelt(std::vector<double>{}).segments.empty());
  const PeltResult one = pelt(std::vector<double>{7.0});
  ASSERT_EQ(one.segments.size(), 1u);
  EXPECT_EQ(one.segments[0].end, 1u);
  // Three values cannot hold two segments of the minimum length 2.
  const PeltResult three = pelt(std::vector<double>{1.0, 100.0, 100.0});
  EXPECT_TRUE(three.change_points.empty());
  ASSERT_EQ(three.segments.size(), 1u);
  EXPECT_EQ(three.segments[0].end, 3u);
}

TEST(StatsChangepoint, DefaultsAreDocumentedValues) {
  EXPECT_DOUBLE_EQ(default_penalty(50), 15.0 * std::log(50.0));
  EXPECT_DOUBLE_EQ(default_penalty(1), 0.0);
  // median |x| of {-4, 1, 2, 3, 100} is 3.
  EXPECT_DOUBLE_EQ(default_variance_floor(std::vector<double>{-4, 1, 2, 3, 100}), 9e-6);
  EXPECT_DOUBLE_EQ(default_variance_floor(std::vector<double>{0, 0, 0, 2}), 4e-6);
  EXPECT_DOUBLE_EQ(default_variance_floor(std::vector<double>{0, 0}), 1.0);
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  const PeltResult r = pelt(x);
  EXPECT_DOUBLE_EQ(r.penalty, 15.0 * std::log(6.0));
  EXPECT_DOUBLE_EQ(r.variance_floor, default_variance_floor(x));
}

TEST(StatsChangepoint, MinimumSegmentLengthIsRespected) {
  Normal rng(3);
  auto x = noise(rng, 40, 1.0, 0.01);
  x[10] = 5.0;  // a lone spike wants a segment of its own
  x[39] = 9.0;
  for (std::size_t m : {1u, 2u, 3u, 6u}) {
    PeltOptions o;
    o.min_segment_length = m;
    o.penalty = 1.0;
    const PeltResult r = pelt(x, o);
    for (const SeriesSegment& s : r.segments) EXPECT_GE(s.size(), m) << "m " << m;
    EXPECT_GT(r.segments.size(), 1u) << "m " << m;
  }
  // With single-value segments allowed and the default penalty, the spike alone is split off.
  PeltOptions singles;
  singles.min_segment_length = 1;
  const PeltResult r = pelt(x, singles);
  EXPECT_NE(std::find(r.change_points.begin(), r.change_points.end(), 10u), r.change_points.end());
  EXPECT_NE(std::find(r.change_points.begin(), r.change_points.end(), 11u), r.change_points.end());
}

TEST(StatsChangepoint, LargeOffsetDoesNotChangeTheSegmentation) {
  Normal rng(4);
  const auto x = concat(noise(rng, 25, 0.0, 1.0), noise(rng, 25, 8.0, 1.0));
  std::vector<double> shifted = x;
  for (double& v : shifted) v += 1e9;
  PeltOptions o;
  o.variance_floor = 1e-6;  // the default floor scales with |x|; keep it equal
  EXPECT_EQ(pelt(x, o).change_points, (std::vector<std::size_t>{25}));
  EXPECT_EQ(pelt(shifted, o).change_points, (std::vector<std::size_t>{25}));
}

TEST(StatsChangepoint, MatchesSlowOptimalPartitioningOnRandomSeries) {
  Normal rng(20240501);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 20 + rng.raw() % 61;
    std::vector<double> x;
    while (x.size() < n) {
      const std::size_t len = 1 + rng.raw() % 25;
      const double level = 1.0 + static_cast<double>(rng.raw() % 1000) / 500.0;
      const double sd = 0.01 + static_cast<double>(rng.raw() % 1000) / 2000.0;
      for (std::size_t i = 0; i < len && x.size() < n; ++i) x.push_back(rng(level, sd));
    }
    const std::size_t m = std::vector<std::size_t>{1, 2, 3, 5}[trial % 4];
    PeltOptions o;
    o.min_segment_length = m;
    o.variance_floor = 1e-4;
    // Small penalties force many change points, where pruning has the most to get wrong.
    const double penalty = trial % 2 == 0 ? default_penalty(n) : 0.5 + trial % 5;
    o.penalty = penalty;
    const PeltResult fast = pelt(x, o);
    const Optimum slow = optimal_partitioning(x, penalty, m, 1e-4);
    EXPECT_NEAR(fast.cost, slow.cost, 1e-9 * std::max(1.0, std::abs(slow.cost)))
        << "trial " << trial;
    EXPECT_EQ(fast.change_points, slow.change_points) << "trial " << trial;
  }
}

}  // namespace
}  // namespace benchguard::stats
