// `plan` from records: cleaning, viability, the recommendation and the plan file it becomes.
#include "analysis/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/suite.hpp"
#include "stats/simulate.hpp"

namespace benchguard::analysis {
namespace {

// A variant whose instances hold simulated wall times; the first `flagged` iterations of each
// are flagged burn-in.
VariantData variant_of(const stats::Hierarchical& data, const std::string& name = "A",
                       int flagged = 0) {
  VariantData v;
  v.variant.benchmark = "bench";
  v.variant.name = name;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    InstanceRecord inst;
    inst.index = static_cast<int>(i);
    const auto values = data.instance(i);
    for (std::size_t j = 0; j < values.size(); ++j) {
      IterationRecord it;
      it.index = static_cast<int>(j);
      it.burn_in = static_cast<int>(j) < flagged;
      it.metrics = {{"wall_time", values[j]}};
      inst.iterations.push_back(it);
    }
    v.instances.push_back(inst);
  }
  return v;
}

stats::Hierarchical simulated(std::size_t instances, std::size_t iterations, std::size_t warmup = 0,
                              uint64_t seed = 3) {
  stats::SimulationOptions sim;
  sim.instances = instances;
  sim.iterations = iterations;
  sim.warmup_iterations = warmup;
  sim.warmup_factor = 3.0;
  sim.instance_sd = 0.02;
  sim.iteration_sd = 0.02;
  return stats::simulate(sim, seed);
}

PlanOptions quick() {
  PlanOptions o;
  o.mds.instances = {5, 10};
  o.mds.iterations = {5, 10};
  o.mds.experiments = 20;
  o.mds.resamples = 200;
  return o;
}

std::vector<BenchmarkPlan> plan(const std::vector<VariantData>& variants, const PlanOptions& o) {
  std::vector<const VariantData*> pointers;
  for (const auto& v : variants) pointers.push_back(&v);
  return plan_benchmarks(pointers, o);
}

TEST(AnalysisPlan, CleaningDropsBurnInFailuresAndOutliers) {
  // 2 flagged + 8 slow (3x falling to 1x) + 30 steady iterations per instance.
  VariantData v = variant_of(simulated(24, 32, 8), "A", 2);
  v.instances[0].iterations[20].failure = "lost";
  v.instances[1].iterations[21].timed_out = true;
  v.instances[2].iterations[30].metrics[0].second *= 20;  // beyond the median-ratio factor
  v.instances[3].failure = "exit code 1";
  const auto plans = plan({v}, quick());
  ASSERT_EQ(plans.size(), 1u);
  const BenchmarkPlan& p = plans[0];
  const Cleaning& c = p.cleaning;
  EXPECT_EQ(c.instances_ok, 23);
  EXPECT_EQ(c.instances_failed, 1);
  EXPECT_EQ(c.iterations_failed, 2u);
  EXPECT_EQ(c.configured_burn_in, 2u);
  EXPECT_GE(c.detected_burn_in, 4u);  // the steady-state detector finds most of the 8
  EXPECT_LE(c.detected_burn_in, 10u);
  EXPECT_EQ(p.burn_in, c.configured_burn_in + c.detected_burn_in);
  EXPECT_EQ(c.outliers, 1u);
  EXPECT_EQ(c.instances, 23u);
  EXPECT_TRUE(p.viable) << p.not_viable;
  EXPECT_NEAR(p.mean, 1.0, 0.02);
  ASSERT_TRUE(p.recommendation.found);
  EXPECT_EQ(p.grid.size(), 8u);
}

TEST(AnalysisPlan, NotViableSaysWhatItNeeds) {
  const auto few_instances = plan({variant_of(simulated(7, 8))}, quick());
  EXPECT_FALSE(few_instances[0].viable);
  EXPECT_TRUE(few_instances[0].grid.empty());
  EXPECT_NE(few_instances[0].not_viable.find("7 instance(s) with at least 5"), std::string::npos)
      << few_instances[0].not_viable;
  EXPECT_NE(few_instances[0].not_viable.find("needs at least 10"), std::string::npos);
  EXPECT_NE(few_instances[0].not_viable.find("the whole grid: 20 instances of 10"),
            std::string::npos);
  EXPECT_FALSE(few_instances[0].recommendation.found);

  const auto few_iterations = plan({variant_of(simulated(12, 4))}, quick());
  EXPECT_FALSE(few_iterations[0].viable);
  EXPECT_NE(few_iterations[0].not_viable.find("0 instance(s) with at least 5"), std::string::npos)
      << few_iterations[0].not_viable;

  // The plan keeps the suite's counts for it, and its burn-in too.
  const Plan file = to_plan(few_instances);
  const PlanEntry& e = file.benchmarks.at("bench");
  EXPECT_FALSE(e.instances || e.iterations || e.burn_in || e.mds || e.fpr);
  EXPECT_TRUE(e.mean && e.cv);
}

TEST(AnalysisPlan, PoolsVariantsAndPlansOneIterationPerInstance) {
  // Timed from outside: one iteration per instance, so only instances are chosen.
  const auto plans =
      plan({variant_of(simulated(12, 1), "A"), variant_of(simulated(12, 1, 0, 4), "B")}, quick());
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].variants, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(plans[0].cleaning.instances, 24u);
  ASSERT_TRUE(plans[0].viable) << plans[0].not_viable;
  ASSERT_EQ(plans[0].grid.size(), 4u);      // {5, 10} x {1}, both selections
  EXPECT_FALSE(plans[0].grid[2].feasible);  // trial-based needs two iterations per instance
  EXPECT_EQ(plans[0].recommendation.config.iterations, 1u);
}

TEST(AnalysisPlan, SameSeedSamePlan) {
  const auto v = variant_of(simulated(24, 12));
  PlanOptions o = quick();
  const auto a = plan({v}, o), b = plan({v}, o);
  o.mds.seed = 99;
  const auto c = plan({v}, o);
  for (std::size_t i = 0; i < a[0].grid.size(); ++i) {
    EXPECT_EQ(a[0].grid[i][stats::Decision::kCompare].upper,
              b[0].grid[i][stats::Decision::kCompare].upper);
  }
  EXPECT_NE(a[0].grid[0][stats::Decision::kCompare].upper,
            c[0].grid[0][stats::Decision::kCompare].upper);
}

// A simulated configuration with the given false-positive rate, detection rate at 1.05 and MDS
// (400 experiments, the default).
stats::ConfigResult config(std::size_t n, std::size_t m, double fpr, double detects, double mds) {
  constexpr int kExperiments = 400;
  stats::ConfigResult c;
  c.config = {stats::Selection::kInstance, n, m};
  c.feasible = true;
  for (auto& r : c.decisions) {
    for (int e = 0; e < kExperiments; ++e) {
      r.upper.push_back(e < detects * kExperiments ? 1.03 : 1.3);
      r.lower.push_back(e < fpr * kExperiments ? 1.01 : 0.9);
    }
    std::sort(r.upper.begin(), r.upper.end());
    std::sort(r.lower.begin(), r.lower.end());
    r.false_positive_rate = fpr;
    r.mds = mds;
  }
  return c;
}

TEST(AnalysisPlan, RecommendsTheCheapestQualifyingConfiguration) {
  PlanOptions o;  // target 1.05, power 0.95, alpha 0.05 (limit 0.072 at 400 experiments)
  EXPECT_EQ(o.mds.experiments, 400);
  EXPECT_NEAR(fpr_limit(o), 0.05 + 2 * std::sqrt(0.05 * 0.95 / 400), 1e-12);
  const std::vector<stats::ConfigResult> grid = {
      config(5, 5, 0.20, 0.99, 1.02),   // cheapest, but too many false positives
      config(5, 10, 0.04, 0.80, 1.09),  // misses the target
      config(10, 5, 0.03, 0.96, 1.05),  // 96% detected, but its lower bound is below 95%
      config(10, 10, 0.06, 0.99, 1.04),
      config(20, 5, 0.03, 1.00, 1.03),  // slightly dearer than 10 x 10 with burn-in 2
  };
  const auto r = recommend(grid, 2, 1.0, o);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.meets_target);
  EXPECT_EQ(r.config.instances, 10u);
  EXPECT_EQ(r.config.iterations, 10u);
  EXPECT_DOUBLE_EQ(r.seconds, 10 * (2 + 10) * 1.0);
  EXPECT_DOUBLE_EQ(r.detection_at_target, 0.99);
  EXPECT_GE(r.detection_lower, 0.95);
  EXPECT_LT(r.detection_lower, 0.99);
  EXPECT_EQ(r.experiments, 400u);
  EXPECT_TRUE(r.note.empty());

  // With a budget: the smallest MDS that fits.
  o.budget_s = 130;
  const auto within = recommend(grid, 2, 1.0, o);
  EXPECT_EQ(within.config.instances, 10u);
  o.budget_s = 200;
  EXPECT_EQ(recommend(grid, 2, 1.0, o).config.instances, 20u);
  o.budget_s = 10;
  const auto none = recommend(grid, 2, 1.0, o);
  EXPECT_FALSE(none.found);
  EXPECT_NE(none.note.find("budget"), std::string::npos) << none.note;

  // Out of reach: the most sensitive configuration, with a note.
  o.budget_s.reset();
  o.target = 1.02;
  const auto best = recommend(grid, 2, 1.0, o);
  ASSERT_TRUE(best.found);
  EXPECT_FALSE(best.meets_target);
  EXPECT_EQ(best.config.instances, 20u);
  EXPECT_NE(best.note.find("no configuration detects"), std::string::npos) << best.note;
}

// The recommendation rests on compare's verdict, and says when its experiments drew instances
// with replacement (24 instances, 2 x 10 a side).
TEST(AnalysisPlan, RestsOnComparesRuleAndSaysWhenInstancesAreRedrawn) {
  PlanOptions o = quick();
  o.target = 1.2;
  EXPECT_EQ(o.decision, stats::Decision::kCompare);
  const auto plans = plan({variant_of(simulated(24, 12))}, o);
  ASSERT_EQ(plans.size(), 1u);
  const auto& p = plans[0];
  ASSERT_TRUE(p.recommendation.found);
  for (const auto& c : p.grid) {
    if (!c.feasible) continue;
    EXPECT_FALSE(c[stats::Decision::kCompare].upper.empty());
    EXPECT_TRUE(c[stats::Decision::kRatio].upper.empty());  // not asked for: not simulated
    // Instance-based 10 x m needs 20 of the 24 (fewer than twice that); trial-based 10 x 5
    // needs 10.
    EXPECT_EQ(c.fresh_draws,
              c.config.selection == stats::Selection::kInstance && c.config.instances == 10);
  }
  const bool redrawn = p.recommendation.fresh_draws;
  const bool said = std::any_of(p.warnings.begin(), p.warnings.end(), [](const std::string& w) {
    return w.find("with replacement") != std::string::npos;
  });
  EXPECT_EQ(said, redrawn);
}

TEST(AnalysisPlan, PlanFileRoundTripsThroughTheReader) {
  auto plans = plan({variant_of(simulated(24, 12))}, quick());
  ASSERT_TRUE(plans[0].recommendation.found);
  plans.push_back(plans[0]);
  plans[1].benchmark = "hail/test_x.py::test[1000-10]: #2";  // needs quoting
  plans[1].recommendation.mds = INFINITY;
  const Plan written = to_plan(plans);
  const auto text = format_plan(written, {"a comment"});
  auto read = parse_plan(text, "plan.yml");
  ASSERT_TRUE(read.ok()) << read.error().message << "\n" << text;
  ASSERT_EQ(read->benchmarks.size(), 2u);
  for (const auto& [name, e] : written.benchmarks) {
    const PlanEntry& r = read->benchmarks.at(name);
    EXPECT_EQ(r.burn_in, e.burn_in);
    EXPECT_EQ(r.instances, e.instances);
    EXPECT_EQ(r.iterations, e.iterations);
    EXPECT_NEAR(*r.mean, *e.mean, 1e-5 * *e.mean);
    EXPECT_NEAR(*r.cv, *e.cv, 1e-5 * *e.cv);
    EXPECT_EQ(std::isinf(*r.mds), std::isinf(*e.mds));
    if (std::isfinite(*e.mds)) {
      EXPECT_NEAR(*r.mds, *e.mds, 1e-5);
    }
    EXPECT_NEAR(*r.fpr, *e.fpr, 1e-9);
  }
}

}  // namespace
}  // namespace benchguard::analysis
