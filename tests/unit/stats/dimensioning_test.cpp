// Tests for src/stats/dimensioning.cpp, on the data of libkalibera's test suite and the
// worked example of Kalibera & Jones.
#include "stats/dimensioning.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace benchguard::stats {
namespace {

// libkalibera test_ti2 / test_optimal_reps: 2 x 2 x 3, groups (0,0) {3,4,3}, (0,1)
// {1.2,3.1,3}, (1,0) {0.2,1,1.5}, (1,1) {1,2,3}.
const std::vector<double> kLibkaliberaValues{3, 4, 3, 1.2, 3.1, 3, 0.2, 1, 1.5, 1, 2, 3};
const std::vector<std::size_t> kLibkaliberaReps{3, 2, 2};  // innermost first

TEST(StatsDimensioning, LibkaliberaVarianceComponents) {
  const auto c = variance_components(kLibkaliberaValues, kLibkaliberaReps);
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->t2.size(), 3u);
  EXPECT_NEAR(c->s2[0], 0.72667, 1e-4);
  EXPECT_NEAR(c->t2[0], 0.7266667, 1e-4);
  EXPECT_NEAR(c->t2[1], 0.262777778, 1e-4);
  EXPECT_NEAR(c->t2[2], 0.7747, 1e-4);
}

// Costs 100, 20, 3 (outermost to innermost there; c_1 = 3 here): r_1 = 4.2937 -> 5,
// r_2 = 1.3023 -> 2.
TEST(StatsDimensioning, LibkaliberaOptimalRepetitions) {
  const auto c = variance_components(kLibkaliberaValues, kLibkaliberaReps);
  ASSERT_TRUE(c.ok());
  const std::vector<double> costs{3, 20, 100};
  const auto plan = optimal_repetitions(*c, costs);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_EQ(plan->exact.size(), 2u);
  EXPECT_NEAR(plan->exact[0], 4.2937, 1e-3);
  EXPECT_NEAR(plan->exact[1], 1.3023, 1e-3);
  EXPECT_EQ(plan->rounded, (std::vector<int>{5, 2}));
  EXPECT_TRUE(plan->warnings.empty());
}

// The paper's three-level worked example: 3 x 2 x 2 with groups (0,0) {9,5}, (0,1) {8,3},
// (1,0) {10,6}, (1,1) {7,11}, (2,0) {1,12}, (2,1) {2,4}. By hand: S_1^2 = 99/6 = 16.5,
// S_2^2 = 7.75/3 = 31/12, S_3^2 = 7.125/2 = 57/16, T_2^2 = 31/12 - 16.5/2 = -17/3,
// T_3^2 = 57/16 - 31/24 = 109/48 (rounded in the paper: 16.5, 2.6, 3.6, -5.7, 2.3).
TEST(StatsDimensioning, WorkedExampleThreeLevels) {
  const std::vector<double> values{9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
  const std::vector<std::size_t> reps{2, 2, 3};
  const auto c = variance_components(values, reps);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->s2[0], 16.5, 1e-12);
  EXPECT_NEAR(c->s2[1], 31.0 / 12.0, 1e-12);
  EXPECT_NEAR(c->s2[2], 57.0 / 16.0, 1e-12);
  EXPECT_NEAR(c->t2[0], 16.5, 1e-12);
  EXPECT_NEAR(c->t2[1], -17.0 / 3.0, 1e-12);
  EXPECT_NEAR(c->t2[2], 109.0 / 48.0, 1e-12);

  // T_2^2 < 0: level 2 adds nothing of its own, so r_2 = 1; r_1 has no positive T_2^2 to
  // balance against and is capped.
  const std::vector<double> costs{1, 10, 100};
  const auto plan = optimal_repetitions(*c, costs, 50);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(std::isinf(plan->exact[0]));
  EXPECT_EQ(plan->rounded[0], 50);
  EXPECT_DOUBLE_EQ(plan->exact[1], 1.0);
  EXPECT_EQ(plan->rounded[1], 1);
  EXPECT_EQ(plan->warnings.size(), 2u);
}

// The paper's two-level example: 3 executions x 4 iterations; S_1^2 = 12.7, T_2^2 = 0.4.
TEST(StatsDimensioning, WorkedExampleTwoLevelsFromHierarchical) {
  const Hierarchical data({{9, 5, 8, 3}, {10, 6, 7, 11}, {1, 12, 2, 4}});
  const auto c = variance_components(data);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->t2[0], 12.7, 0.05);
  EXPECT_NEAR(c->s2[1], 3.6, 0.05);
  EXPECT_NEAR(c->t2[1], 0.4, 0.05);
}

TEST(StatsDimensioning, RejectsBadInput) {
  const std::vector<double> values{1, 2, 3};
  const std::vector<std::size_t> reps{2, 2};
  EXPECT_FALSE(variance_components(values, reps).ok());
  const std::vector<std::size_t> single{1, 3};
  EXPECT_FALSE(variance_components(values, single).ok());
  EXPECT_FALSE(variance_components(Hierarchical({{1, 2}, {3}})).ok());
  const auto c = variance_components(kLibkaliberaValues, kLibkaliberaReps);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(optimal_repetitions(*c, std::vector<double>{1, 2}).ok());
  EXPECT_FALSE(optimal_repetitions(*c, std::vector<double>{1, 0, 2}).ok());
}

}  // namespace
}  // namespace benchguard::stats
