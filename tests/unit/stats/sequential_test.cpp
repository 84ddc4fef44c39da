// Tests for src/stats/sequential.cpp: group-sequential boundaries against published values and
// a Monte Carlo of the Brownian motion they assume, and the sequential A/B decision's error
// rates on simulated instances.
#include "stats/sequential.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/rng.hpp"
#include "stats/simulate.hpp"

namespace benchguard::stats {
namespace {

TEST(StatsSequential, OneLookIsTheFixedDesign) {
  const double t[] = {1.0};
  const auto c = spending_bounds(t, 0.05);
  ASSERT_EQ(c.size(), 1U);
  EXPECT_NEAR(c[0], 1.959964, 1e-5);
  EXPECT_DOUBLE_EQ(obrien_fleming_spent(1.0, 0.05), 0.05);
  EXPECT_DOUBLE_EQ(obrien_fleming_spent(0.0, 0.05), 0.0);
  // alpha(0.5) = 4 - 4 Phi(2.241403 / sqrt(0.5)) = 4 - 4 Phi(3.169870) = 4 x 0.000762 = 0.003050.
  EXPECT_NEAR(obrien_fleming_spent(0.5, 0.05), 0.003050, 5e-6);
}

// Lan-DeMets O'Brien-Fleming-type bounds, 5 equally spaced looks, two-sided alpha 0.05
// (Jennison & Turnbull 2000, table 7.6 region; R gsDesign / ldbounds give 4.8769, 3.3569,
// 2.6803, 2.2898, 2.0310).
TEST(StatsSequential, FiveLooksMatchPublishedBounds) {
  const double t[] = {0.2, 0.4, 0.6, 0.8, 1.0};
  const auto c = spending_bounds(t, 0.05);
  const double expected[] = {4.8769, 3.3569, 2.6803, 2.2898, 2.0310};
  ASSERT_EQ(c.size(), 5U);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_NEAR(c[k], expected[k], 2e-3) << "look " << k + 1;
}

// The boundaries' promise checked by brute force: Brownian paths observed at 12 unequally
// spaced looks cross |Z| >= c_k somewhere with probability alpha, and by look k with
// probability alpha(t_k). 200,000 paths: Monte Carlo SE 0.00049 at 0.05.
TEST(StatsSequential, BrownianPathsCrossWithTheSpentProbability) {
  std::vector<double> t;
  for (int k = 1; k <= 12; ++k) t.push_back(std::pow(k / 12.0, 1.3));
  const auto c = spending_bounds(t, 0.05);
  Rng rng(42, 0);
  const int paths = 200000;
  std::vector<int> crossed_by(t.size(), 0);
  for (int p = 0; p < paths; ++p) {
    double s = 0.0, prev = 0.0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      s += std::sqrt(t[k] - prev) * rng.normal();
      prev = t[k];
      if (std::fabs(s) / std::sqrt(t[k]) >= c[k]) {
        for (std::size_t j = k; j < t.size(); ++j) ++crossed_by[j];
        break;
      }
    }
  }
  const double se = std::sqrt(0.05 * 0.95 / paths);
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double spent = obrien_fleming_spent(t[k], 0.05);
    EXPECT_NEAR(static_cast<double>(crossed_by[k]) / paths, spent, 4 * se + 1e-4)
        << "look " << k + 1;
  }
}

TEST(StatsSequential, PlanLooksAndChecks) {
  SequentialPlan plan;
  plan.min_instances = 3;
  plan.round = 2;
  plan.max_instances = 10;
  EXPECT_EQ(look_sizes(plan), (std::vector<std::size_t>{3, 5, 7, 9, 10}));
  // Pocock-type (the default) spends evenly: every look near the same level, all stricter
  // than a fixed design's 95%.
  const auto pocock = make_design(plan).levels;
  ASSERT_EQ(pocock.size(), 5U);
  for (const double level : pocock) {
    EXPECT_GT(level, 0.97);
    EXPECT_LT(level, 0.995);
  }
  // O'Brien-Fleming-type: strict early, the last look near the fixed design.
  plan.spending = Spending::kOBrienFleming;
  const auto levels = make_design(plan).levels;
  ASSERT_EQ(levels.size(), 5U);
  for (std::size_t k = 1; k < levels.size(); ++k) EXPECT_LT(levels[k], levels[k - 1]);
  EXPECT_GT(levels.back(), 0.95);
  EXPECT_LT(levels.back(), 0.97);
  EXPECT_LT(levels.back(), pocock.back());
  plan.min_instances = 1;
  EXPECT_NE(check(plan).find("at least 2"), std::string::npos);
  plan.min_instances = 12;
  EXPECT_NE(check(plan).find("--max-instances"), std::string::npos);
  EXPECT_TRUE(look_sizes(plan).empty());
  plan = {};
  plan.max_instances = 1000;
  EXPECT_NE(check(plan).find("larger round"), std::string::npos);
}

TEST(StatsSequential, LookDecidesByItsInterval) {
  SequentialPlan plan;
  plan.max_instances = 10;
  plan.spending = Spending::kOBrienFleming;  // early looks much wider than late ones
  const auto design = make_design(plan);
  VerdictOptions options;
  SimulationOptions sim;
  sim.instances = 10;
  const auto a = simulate(sim, 1);
  sim.slowdown = 1.5;
  const auto b = simulate(sim, 2);
  const auto slow = sequential_look(a, b, design, 8, options);
  EXPECT_EQ(slow.decision, SequentialDecision::kSlower) << slow.reason;
  EXPECT_GT(slow.ci.lower, 1.0);
  EXPECT_NEAR(slow.ratio, 1.5, 0.1);
  // Throughput: the same change is the regression's opposite.
  options.direction = Direction::kHigherIsBetter;
  EXPECT_EQ(sequential_look(a, b, design, 8, options).decision, SequentialDecision::kFaster);
  // An early look is wider than the last at the same data.
  options.direction = Direction::kLowerIsBetter;
  const auto early = sequential_look(a, b, design, 1, options);
  EXPECT_GT(early.ci.upper - early.ci.lower, slow.ci.upper - slow.ci.lower);
  // Too few instances: go on, or at the last look inconclusive.
  const auto one = first_instances(a, 1);
  EXPECT_EQ(sequential_look(one, one, design, 1, options).decision, SequentialDecision::kContinue);
  EXPECT_EQ(sequential_look(one, one, design, 1, options, true).decision,
            SequentialDecision::kInconclusive);
  // A small, noisy A/A pair at the plan's last look: inconclusive, not continue.
  const auto aa = sequential_look(first_instances(a, 3), first_instances(simulate(sim, 3), 3),
                                  design, design.sizes.size(), options);
  EXPECT_NE(aa.decision, SequentialDecision::kContinue);
}

struct Tally {
  int slower = 0, faster = 0, equivalent = 0, inconclusive = 0;
  std::vector<std::size_t> used;
};

Tally simulate_sequences(int trials, double slowdown, const SequentialPlan& plan,
                         const VerdictOptions& options, uint64_t seed) {
  Tally tally;
  SimulationOptions sim;
  sim.instances = plan.max_instances;
  const auto design = make_design(plan);
  for (int i = 0; i < trials; ++i) {
    sim.slowdown = 1.0;
    const auto a = simulate(sim, seed + 2 * static_cast<uint64_t>(i));
    sim.slowdown = slowdown;
    const auto b = simulate(sim, seed + 2 * static_cast<uint64_t>(i) + 1);
    const auto look = replay_sequential(a, b, design, options);
    tally.used.push_back(look.instances_a);
    switch (look.decision) {
      case SequentialDecision::kSlower:
        ++tally.slower;
        break;
      case SequentialDecision::kFaster:
        ++tally.faster;
        break;
      case SequentialDecision::kEquivalent:
        ++tally.equivalent;
        break;
      default:
        ++tally.inconclusive;
    }
  }
  return tally;
}

// 1,500 A/A sequences of up to 20 instances a side, a look after every instance: false
// slower/faster within 5% + 3 Monte Carlo SE (6.7%), where 18 looks at a fixed 95%
// interval would exceed it by far (checked on the same data).
TEST(StatsSequential, RepeatedLooksKeepTheFalseAlarmRate) {
  SequentialPlan plan;
  plan.max_instances = 20;
  VerdictOptions options;
  options.threshold = 0.0;
  const int trials = 1500;
  const auto aa = simulate_sequences(trials, 1.0, plan, options, 1000);
  const double rate = static_cast<double>(aa.slower + aa.faster) / trials;
  EXPECT_LE(rate, 0.05 + 3 * std::sqrt(0.05 * 0.95 / trials)) << rate;

  // The naive procedure: a fixed 95% t interval at every look.
  int naive = 0;
  SimulationOptions sim;
  sim.instances = plan.max_instances;
  for (int i = 0; i < trials; ++i) {
    const auto a = simulate(sim, 1000 + 2 * static_cast<uint64_t>(i));
    const auto b = simulate(sim, 1000 + 2 * static_cast<uint64_t>(i) + 1);
    for (const auto n : look_sizes(plan)) {
      const auto fa = first_instances(a, n), fb = first_instances(b, n);
      const VarianceTerm terms[] = {relative_variance_term(fa, options.statistic),
                                    relative_variance_term(fb, options.statistic)};
      const double r = statistic_of(fb, options.statistic) / statistic_of(fa, options.statistic);
      const auto ci = t_interval(std::log(r), terms, 0.95);
      if (ci.lower > 0.0 || ci.upper < 0.0) {
        ++naive;
        break;
      }
    }
  }
  EXPECT_GT(static_cast<double>(naive) / trials, 0.12) << naive;
}

// A change twice the size a fixed 10-instance design detects 90% of the time stops early: the
// median run uses at most half of the 20-instance budget, and almost always says slower.
TEST(StatsSequential, ALargeChangeStopsEarly) {
  SequentialPlan plan;
  plan.max_instances = 20;
  VerdictOptions options;
  auto t = simulate_sequences(300, 1.10, plan, options, 5000);
  std::nth_element(t.used.begin(), t.used.begin() + 150, t.used.end());
  EXPECT_LE(t.used[150], 10U);
  EXPECT_GE(t.slower, 285);
  EXPECT_EQ(t.faster, 0);
}

// A/A with a threshold the budget can resolve: equivalence is reached, and never a change
// beyond it is called equivalent more than 1 - confidence of the time.
TEST(StatsSequential, EquivalenceIsReachedAndNotFalselyClaimed) {
  SequentialPlan plan;
  plan.max_instances = 30;
  plan.round = 2;
  VerdictOptions options;
  options.threshold = 0.04;
  const auto aa = simulate_sequences(400, 1.0, plan, options, 9000);
  EXPECT_GE(aa.equivalent, 320) << aa.equivalent;  // >= 80%
  const auto beyond = simulate_sequences(400, 1.04, plan, options, 13000);
  EXPECT_LE(beyond.equivalent, 400 * 0.05 + 3 * std::sqrt(400 * 0.05 * 0.95));
}

// A look's interval is the t interval with min(n_a, n_b) - 1 degrees of freedom at the look's
// nominal level, and its fixed p-value the same t test's.
TEST(StatsSequential, ALookUsesTheSmallerSidesDegreesOfFreedom) {
  SequentialPlan plan;
  plan.max_instances = 12;
  const auto design = make_design(plan);
  SimulationOptions sim;
  sim.instances = 7;
  const auto a = simulate(sim, 11);
  sim.instances = 5;
  sim.instance_sd = 0.08;
  sim.slowdown = 1.05;
  const auto b = simulate(sim, 12);
  VerdictOptions options;
  const auto l = sequential_look(a, b, design, 1, options);
  EXPECT_DOUBLE_EQ(l.dof, 4.0);
  const VarianceTerm terms[] = {relative_variance_term(a, options.statistic),
                                relative_variance_term(b, options.statistic)};
  const double variance = terms[0].variance + terms[1].variance;
  const auto ci = t_interval(std::log(l.ratio), variance, 4.0, l.level);
  EXPECT_NEAR(l.ci.lower, std::exp(ci.lower), 1e-12);
  EXPECT_NEAR(l.ci.upper, std::exp(ci.upper), 1e-12);
  EXPECT_NEAR(l.p_fixed, t_p_value(std::log(l.ratio), variance, 4.0), 1e-12);
  // Satterthwaite's df here lie above 4 (A's 7 instances vary little), so its interval would
  // be narrower.
  EXPECT_GT(t_dof(terms), 4.0);
  const auto welch = t_interval(std::log(l.ratio), terms, l.level);
  EXPECT_GT(ci.upper - ci.lower, welch.upper - welch.lower);
}

// The repeated p-value is the alpha whose design just brings the look's interval to 1: a
// design at alpha = p_rep gives the look a nominal level at or beyond p_fixed, one at 2% less
// does not. It is never below the fixed p-value, grows with it, equals it for a one-look plan,
// and is larger at the same p_fixed at an earlier look of O'Brien-Fleming (strict early looks).
TEST(StatsSequential, TheRepeatedPValueIsDualToTheRepeatedIntervals) {
  for (const auto spending : {Spending::kPocock, Spending::kOBrienFleming}) {
    SequentialPlan plan;
    plan.max_instances = 20;
    plan.spending = spending;
    for (const std::size_t look : {1U, 6U, 16U}) {
      double previous = 0.0;
      for (const double p_fixed : {1e-6, 1e-4, 0.002, 0.01, 0.03}) {
        const double p = repeated_p_value(plan, look, p_fixed);
        EXPECT_GE(p, p_fixed);
        EXPECT_GE(p, previous);
        previous = p;
        if (!(p < 1.0)) continue;
        auto at = plan;
        at.confidence = 1.0 - p;
        EXPECT_GE(1.0 - make_design(at).levels[look - 1], p_fixed * (1 - 1e-9))
            << to_string(spending) << " look " << look << " p_fixed " << p_fixed;
        at.confidence = 1.0 - p / 1.02;
        EXPECT_LT(1.0 - make_design(at).levels[look - 1], p_fixed)
            << to_string(spending) << " look " << look << " p_fixed " << p_fixed;
      }
    }
    EXPECT_TRUE(std::isnan(repeated_p_value(plan, 1, std::nan(""))));
    EXPECT_DOUBLE_EQ(repeated_p_value(plan, 1, 0.0), 0.0);
  }
  SequentialPlan one;
  one.min_instances = one.max_instances = 10;
  EXPECT_NEAR(repeated_p_value(one, 1, 0.02), 0.02, 0.02 * 0.011);
  SequentialPlan obf;
  obf.max_instances = 20;
  obf.spending = Spending::kOBrienFleming;
  EXPECT_GT(repeated_p_value(obf, 1, 0.001), repeated_p_value(obf, 16, 0.001));
}

// Unequal variances at the first looks (A's instances 1%, B's 6%), the case where
// Satterthwaite's degrees of freedom made the level liberal: 1,500 A/A sequences from the
// first look at 3 instances, false slower/faster within 5% + 3 Monte Carlo SE.
TEST(StatsSequential, UnequalVariancesKeepTheLevelFromEarlyLooks) {
  SequentialPlan plan;
  plan.min_instances = 3;
  plan.max_instances = 20;
  const auto design = make_design(plan);
  VerdictOptions options;
  const int trials = 1500;
  int alarms = 0;
  SimulationOptions sa, sb;
  sa.instances = sb.instances = plan.max_instances;
  sa.instance_sd = 0.01;
  sb.instance_sd = 0.06;
  for (int i = 0; i < trials; ++i) {
    const auto a = simulate(sa, 70000 + 2 * static_cast<uint64_t>(i));
    const auto b = simulate(sb, 70000 + 2 * static_cast<uint64_t>(i) + 1);
    const auto d = replay_sequential(a, b, design, options).decision;
    alarms += d == SequentialDecision::kSlower || d == SequentialDecision::kFaster;
  }
  EXPECT_LE(static_cast<double>(alarms) / trials, 0.05 + 3 * std::sqrt(0.05 * 0.95 / trials))
      << alarms;
}

}  // namespace
}  // namespace benchguard::stats
