#include "stats/steady_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <ostream>
#include <random>
#include <vector>

namespace benchguard::stats {

// Failure messages name the class instead of dumping its bytes.
void PrintTo(SteadyClass c, std::ostream* os) {
  *os << to_string(c);
}

namespace {

// Library-independent normal draws (Box-Muller over mt19937_64), so seeded series are the same
// with every standard library.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : gen_(seed) {}
  double operator()(double mean, double sd) {
    const double u1 = (static_cast<double>(gen_() >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = static_cast<double>(gen_() >> 11) * 0x1.0p-53;
    return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 gen_;
};

// Appends `n` noisy iterations around `level` (sd 0.5% of 1.0).
void add(std::vector<double>& x, Normal& rng, std::size_t n, double level, double sd = 0.005) {
  for (std::size_t i = 0; i < n; ++i) x.push_back(rng(level, sd));
}

TEST(StatsSteadyState, FlatSeries) {
  Normal rng(1);
  std::vector<double> x;
  add(x, rng, 50, 1.0);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kFlat);
  ASSERT_TRUE(s.burn_in.has_value());
  EXPECT_EQ(*s.burn_in, 0u);
  EXPECT_TRUE(s.change_points.empty());
  ASSERT_TRUE(s.steady.has_value());
  EXPECT_EQ(s.steady->start, 0u);
  EXPECT_EQ(s.steady->end, 50u);
  EXPECT_NEAR(s.steady->mean, 1.0, 0.003);
}

TEST(StatsSteadyState, DecayingStartIsWarmup) {
  Normal rng(2);
  std::vector<double> x{3.0, 2.2, 1.7, 1.4, 1.2, 1.1, 1.05};
  add(x, rng, 43, 1.0);
  for (bool exclude : {true, false}) {
    SteadyStateOptions o;
    o.exclude_outliers = exclude;
    const SteadyState s = classify_steady_state(x, o);
    EXPECT_EQ(s.classification, SteadyClass::kWarmup) << exclude;
    ASSERT_TRUE(s.burn_in.has_value());
    // The decay reaches 1% of the final level between iterations 6 and 8.
    EXPECT_GE(*s.burn_in, 6u) << exclude;
    EXPECT_LE(*s.burn_in, 8u) << exclude;
    EXPECT_FALSE(s.equivalent_to_final.front());
    EXPECT_TRUE(s.equivalent_to_final.back());
    EXPECT_NEAR(s.steady->mean, 1.0, 0.003);
  }
}

TEST(StatsSteadyState, SlowFirstIterationIsItsOwnBurnIn) {
  Normal rng(3);
  std::vector<double> x{20.0};
  add(x, rng, 49, 1.0);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kWarmup);
  EXPECT_EQ(s.burn_in, 1u);
  EXPECT_EQ(s.change_points, (std::vector<std::size_t>{1}));
  EXPECT_TRUE(s.excluded.empty());
}

TEST(StatsSteadyState, StepUpLeavingALongFinalSegmentIsSlowdown) {
  Normal rng(4);
  std::vector<double> x;
  add(x, rng, 35, 1.0);
  add(x, rng, 15, 1.2);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kSlowdown);
  EXPECT_EQ(s.burn_in, 35u);
  EXPECT_EQ(s.change_points, (std::vector<std::size_t>{35}));
  EXPECT_NEAR(s.steady->mean, 1.2, 0.003);
}

TEST(StatsSteadyState, HigherIsBetterTurnsTheSameStepIntoWarmup) {
  Normal rng(4);
  std::vector<double> x;
  add(x, rng, 35, 1.0);
  add(x, rng, 15, 1.2);
  SteadyStateOptions throughput;
  throughput.direction = Direction::kHigherIsBetter;
  const SteadyState s = classify_steady_state(x, throughput);
  EXPECT_EQ(s.classification, SteadyClass::kWarmup);
  EXPECT_EQ(s.burn_in, 35u);
}

TEST(StatsSteadyState, ChangeNearTheEndIsNoSteadyState) {
  Normal rng(5);
  std::vector<double> x;
  add(x, rng, 45, 1.0);
  add(x, rng, 5, 1.3);  // 5 < ceil(0.25 * 50) = 13 steady iterations required
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kNoSteadyState);
  EXPECT_FALSE(s.burn_in.has_value());
  EXPECT_FALSE(s.steady.has_value());
  EXPECT_EQ(s.change_points, (std::vector<std::size_t>{45}));
  EXPECT_FALSE(s.warnings.empty());
}

TEST(StatsSteadyState, SteadyLengthRuleBoundary) {
  // The last change at 37 leaves exactly the 13 iterations required; at 38 only 12.
  for (std::size_t change : {37u, 38u}) {
    Normal rng(6);
    std::vector<double> x;
    add(x, rng, change, 1.0);
    add(x, rng, 50 - change, 1.3);
    const SteadyState s = classify_steady_state(x);
    ASSERT_EQ(s.change_points, (std::vector<std::size_t>{change}));
    EXPECT_EQ(s.classification,
              change == 37 ? SteadyClass::kSlowdown : SteadyClass::kNoSteadyState);
  }
}

TEST(StatsSteadyState, VarianceOnlyChangeMergesIntoFlat) {
  Normal rng(7);
  std::vector<double> x;
  add(x, rng, 25, 1.0, 0.001);
  add(x, rng, 25, 1.0, 0.03);
  SteadyStateOptions o;
  o.exclude_outliers = false;
  const SteadyState s = classify_steady_state(x, o);
  EXPECT_FALSE(s.change_points.empty());  // PELT does see the change in variance
  EXPECT_EQ(s.classification, SteadyClass::kFlat);
  EXPECT_EQ(s.burn_in, 0u);
  for (bool e : s.equivalent_to_final) EXPECT_TRUE(e);
}

TEST(StatsSteadyState, BurnInEndsAtTheLastNonEquivalentSegment) {
  // Fast, a slow bump, fast again: the first segment matches the final one, so only the bump
  // counts, and the burn-in is where it ends.
  Normal rng(8);
  std::vector<double> x;
  add(x, rng, 20, 1.0);
  add(x, rng, 10, 1.5);
  add(x, rng, 20, 1.0);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.change_points, (std::vector<std::size_t>{20, 30}));
  EXPECT_EQ(s.equivalent_to_final, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(s.classification, SteadyClass::kWarmup);
  EXPECT_EQ(s.burn_in, 30u);
}

TEST(StatsSteadyState, AnyFasterEarlierSegmentMakesASlowdown) {
  Normal rng(9);
  std::vector<double> x;
  add(x, rng, 15, 0.8);
  add(x, rng, 15, 1.2);
  add(x, rng, 20, 1.0);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kSlowdown);
  EXPECT_EQ(s.burn_in, 30u);
}

TEST(StatsSteadyState, RelativeToleranceDecidesEquivalence) {
  Normal rng(10);
  std::vector<double> x;
  add(x, rng, 25, 1.0, 0.002);
  add(x, rng, 25, 1.03, 0.002);
  const SteadyState strict = classify_steady_state(x);
  EXPECT_EQ(strict.classification, SteadyClass::kSlowdown);
  EXPECT_EQ(strict.burn_in, 25u);
  SteadyStateOptions loose;
  loose.relative_tolerance = 0.05;
  const SteadyState merged = classify_steady_state(x, loose);
  EXPECT_EQ(merged.classification, SteadyClass::kFlat);
  EXPECT_EQ(merged.burn_in, 0u);
}

TEST(StatsSteadyState, LoneSpikeIsExcludedInsteadOfSplittingTheSeries) {
  Normal rng(11);
  std::vector<double> x;
  add(x, rng, 50, 1.0);
  x[42] = 1.5;
  const SteadyState kept = classify_steady_state(x);
  EXPECT_EQ(kept.classification, SteadyClass::kFlat);
  EXPECT_EQ(kept.excluded, (std::vector<std::size_t>{42}));
  EXPECT_NEAR(kept.steady->mean, 1.0, 0.003);  // the spike does not count
  EXPECT_TRUE(kept.change_points.empty());
  // Without exclusion the spike cannot stand alone, so PELT starts a noisier segment with it.
  SteadyStateOptions raw;
  raw.exclude_outliers = false;
  EXPECT_EQ(classify_steady_state(x, raw).change_points, (std::vector<std::size_t>{42}));
}

TEST(StatsSteadyState, ShortEmptyAndNonFiniteSeries) {
  const SteadyState one = classify_steady_state(std::vector<double>{2.0});
  EXPECT_EQ(one.classification, SteadyClass::kFlat);
  EXPECT_EQ(one.burn_in, 0u);
  EXPECT_EQ(one.warnings.size(), 1u);

  const SteadyState empty = classify_steady_state(std::vector<double>{});
  EXPECT_EQ(empty.classification, SteadyClass::kNoSteadyState);
  EXPECT_FALSE(empty.burn_in.has_value());

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const SteadyState bad = classify_steady_state(std::vector<double>{1, 1, nan, 1, 1, 1});
  EXPECT_EQ(bad.classification, SteadyClass::kNoSteadyState);
  ASSERT_EQ(bad.warnings.size(), 1u);
  EXPECT_NE(bad.warnings[0].find("iteration 2"), std::string::npos);
}

TEST(StatsSteadyState, ClassNames) {
  EXPECT_EQ(to_string(SteadyClass::kFlat), "flat");
  EXPECT_EQ(to_string(SteadyClass::kWarmup), "warmup");
  EXPECT_EQ(to_string(SteadyClass::kSlowdown), "slowdown");
  EXPECT_EQ(to_string(SteadyClass::kNoSteadyState), "no steady state");
}

SteadyState made(SteadyClass c, std::optional<std::size_t> burn_in) {
  SteadyState s;
  s.classification = c;
  s.burn_in = burn_in;
  return s;
}

TEST(StatsSteadyState, SummaryCountsAndHighQuantileBurnIn) {
  std::vector<SteadyState> v{made(SteadyClass::kWarmup, 3), made(SteadyClass::kFlat, 0),
                             made(SteadyClass::kWarmup, 5), made(SteadyClass::kSlowdown, 2),
                             made(SteadyClass::kNoSteadyState, std::nullopt)};
  const SteadyStateSummary s = summarize_steady_state(v);
  EXPECT_EQ(s.instances, 5u);
  EXPECT_EQ(s.count(SteadyClass::kWarmup), 2u);
  EXPECT_EQ(s.count(SteadyClass::kFlat), 1u);
  EXPECT_EQ(s.count(SteadyClass::kSlowdown), 1u);
  EXPECT_EQ(s.count(SteadyClass::kNoSteadyState), 1u);
  EXPECT_DOUBLE_EQ(s.no_steady_state_share, 0.2);
  // Fewer than ten steady instances: the 0.9 quantile is their maximum.
  EXPECT_EQ(s.recommended_burn_in, 5u);
  EXPECT_EQ(s.max_burn_in, 5u);
  EXPECT_EQ(s.warnings.size(), 2u);  // one reached no steady state, one slowed down
  // The median instead: ranks 0 2 3 5, nearest rank 2 of 4.
  EXPECT_EQ(summarize_steady_state(v, 0.5).recommended_burn_in, 2u);
}

TEST(StatsSteadyState, OneOddInstanceDoesNotDictateTheBurnIn) {
  std::vector<SteadyState> v;
  for (std::size_t b = 0; b < 19; ++b) v.push_back(made(SteadyClass::kWarmup, b));
  v.push_back(made(SteadyClass::kWarmup, 45));
  const SteadyStateSummary s = summarize_steady_state(v);
  EXPECT_EQ(s.recommended_burn_in, 17u);  // rank 18 of 20
  EXPECT_EQ(s.max_burn_in, 45u);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(StatsSteadyState, SummaryWithoutSteadyInstances) {
  EXPECT_EQ(summarize_steady_state({}).instances, 0u);
  EXPECT_DOUBLE_EQ(summarize_steady_state({}).no_steady_state_share, 0.0);
  std::vector<SteadyState> v{made(SteadyClass::kNoSteadyState, std::nullopt)};
  const SteadyStateSummary s = summarize_steady_state(v);
  EXPECT_FALSE(s.recommended_burn_in.has_value());
  EXPECT_DOUBLE_EQ(s.no_steady_state_share, 1.0);
}

TEST(StatsSteadyState, ClassifyBenchmarkEndToEnd) {
  Normal rng(12);
  std::vector<std::vector<double>> instances(4);
  for (std::size_t i = 0; i < 3; ++i) {
    instances[i] = {2.0 + static_cast<double>(i), 2.0 + static_cast<double>(i)};
    add(instances[i], rng, 48, 1.0);
  }
  add(instances[3], rng, 46, 1.0);
  add(instances[3], rng, 4, 1.4);
  const BenchmarkSteadyState b = classify_benchmark(instances);
  ASSERT_EQ(b.instances.size(), 4u);
  EXPECT_EQ(b.summary.count(SteadyClass::kWarmup), 3u);
  EXPECT_EQ(b.summary.count(SteadyClass::kNoSteadyState), 1u);
  EXPECT_DOUBLE_EQ(b.summary.no_steady_state_share, 0.25);
  EXPECT_EQ(b.summary.recommended_burn_in, 2u);
}

}  // namespace
}  // namespace benchguard::stats

namespace benchguard::stats {
namespace {

// Longer than max_segmentation_points: segmented on block means (1,000 blocks).
TEST(StatsSteadyStateLong, AStepIsFoundWithinOneBlockOfWhereItIs) {
  Normal rng(21);
  std::vector<double> x;
  add(x, rng, 9013, 1.10);
  add(x, rng, 50987, 1.0);
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kWarmup);
  ASSERT_TRUE(s.burn_in.has_value());
  EXPECT_LE(*s.burn_in, 9013u + 60);  // blocks of 60 iterations
  EXPECT_GE(*s.burn_in + 60, 9013u);
  ASSERT_EQ(s.change_points.size(), 1u);
  ASSERT_TRUE(s.steady.has_value());
  EXPECT_EQ(s.steady->end, 60000u);
  EXPECT_NEAR(s.steady->mean, 1.0, 0.001);  // from the iterations, not the block means
  EXPECT_NEAR(std::sqrt(s.steady->variance), 0.005, 0.0005);
}

TEST(StatsSteadyStateLong, BlocksAgreeWithPeltOnTheIterations) {
  // The same series segmented both ways: the same class, burn-ins within one block (3).
  SteadyStateOptions whole;
  whole.max_segmentation_points = 0;  // never blocked
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Normal rng(seed);
    std::vector<double> x;
    if (seed % 3 == 1) add(x, rng, 400, 1.2);   // warm-up
    if (seed % 3 == 2) add(x, rng, 2000, 0.9);  // slowdown (a better start)
    add(x, rng, 3000 - x.size(), 1.0);
    const SteadyState blocked = classify_steady_state(x);
    const SteadyState exact = classify_steady_state(x, whole);
    EXPECT_EQ(blocked.classification, exact.classification) << seed;
    ASSERT_TRUE(blocked.burn_in && exact.burn_in) << seed;
    EXPECT_LE(*blocked.burn_in > *exact.burn_in ? *blocked.burn_in - *exact.burn_in
                                                : *exact.burn_in - *blocked.burn_in,
              3u)
        << seed;
  }
}

TEST(StatsSteadyStateLong, AMillionFlatIterationsAreFlat) {
  // Quadratic segmentation would take hours here; blocks take milliseconds.
  Normal rng(5);
  std::vector<double> x;
  add(x, rng, 1000000, 1.0);
  x[500000] = 3.0;  // a spike, averaged away in its block
  const SteadyState s = classify_steady_state(x);
  EXPECT_EQ(s.classification, SteadyClass::kFlat);
  EXPECT_EQ(s.burn_in, 0u);
}

TEST(StatsSteadyState, ALoneSpikeAsTheFirstIterationOfAFewInstancesIsNoBurnIn) {
  // 10 flat instances; in `slow_first` of them the first iteration is 12x: two of ten are
  // spikes that came first, eight of ten are a warm-up the benchmark has.
  const auto benchmark = [](int slow_first) {
    std::vector<std::vector<double>> instances;
    for (int i = 0; i < 10; ++i) {
      std::vector<double> x;
      for (int j = 0; j < 20; ++j) x.push_back(1.0 + 0.01 * std::sin(7.0 * i + 3.0 * j));
      if (i < slow_first) x[0] = 12.0;
      instances.push_back(x);
    }
    return classify_benchmark(instances);
  };
  const auto two = benchmark(2);
  ASSERT_TRUE(two.summary.recommended_burn_in.has_value());
  EXPECT_EQ(*two.summary.recommended_burn_in, 0u);
  EXPECT_EQ(two.instances[0].burn_in, std::optional<std::size_t>(1));  // its own class stays
  const auto eight = benchmark(8);
  ASSERT_TRUE(eight.summary.recommended_burn_in.has_value());
  EXPECT_EQ(*eight.summary.recommended_burn_in, 1u);
}

}  // namespace
}  // namespace benchguard::stats
