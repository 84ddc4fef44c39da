// A/A calibration over runs (analysis/calibrate.hpp) and compare's use of it.
#include "analysis/calibrate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/suite.hpp"

namespace benchguard::analysis {
namespace {

// n instances x m iterations of wall time around `mean` (2% between instances, 1% within).
VariantData synthetic(const std::string& benchmark, const std::string& variant, double mean, int n,
                      int m, std::mt19937_64& rng) {
  std::normal_distribution<double> inst(0, 0.02), iter(0, 0.01);
  VariantData v;
  v.variant.benchmark = benchmark;
  v.variant.name = variant;
  for (int i = 0; i < n; ++i) {
    InstanceRecord rec;
    const double offset = 1 + inst(rng);
    for (int k = 0; k < m; ++k) {
      IterationRecord it;
      it.index = k;
      it.metrics = {{"wall_time", mean * offset * (1 + iter(rng))}};
      rec.iterations.push_back(it);
    }
    v.instances.push_back(rec);
  }
  return v;
}

// One A/A run of two benchmarks; B's "again" twin is `shift` times A (1: a true A/A run).
RunData null_run(int repetition, double shift) {
  std::mt19937_64 rng(1000 + repetition);
  RunData run;
  run.run.uuid = "run-" + std::to_string(repetition);
  run.run.suite = "s";
  run.run.hostname = "h";
  for (const char* b : {"fast", "slow"}) {
    const double mean = std::string(b) == "fast" ? 1.0 : 5.0;
    run.variants.push_back(synthetic(b, "base", mean, 6, 5, rng));
    run.variants.push_back(synthetic(b, null_variant_again("base"), mean * shift, 6, 5, rng));
  }
  return run;
}

CompareOptions fast_options() {
  CompareOptions o;
  o.verdict.resamples = 1000;
  o.verdict.seed = 3;
  o.burn_in.mode = BurnInPolicy::Mode::kConfigured;
  return o;
}

TEST(NullSides, PairsEachVariantWithItsTwin) {
  RunData run = null_run(0, 1.0);
  VariantData lone;
  lone.variant.benchmark = "fast";
  lone.variant.name = "other";  // no twin: left out
  run.variants.push_back(lone);
  const NullSides s = null_sides(run);
  ASSERT_EQ(s.a.variants.size(), 2U);
  ASSERT_EQ(s.b.variants.size(), 2U);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(s.a.variants[k]->variant.name, "base");
    EXPECT_EQ(s.b.variants[k]->variant.name, "base.again");
    EXPECT_EQ(s.a.variants[k]->variant.benchmark, s.b.variants[k]->variant.benchmark);
  }
}

TEST(CalibrateRuns, CountsFalseAlarmsAndTakesTheLargestChangeBelowTwentyRepetitions) {
  std::vector<RunData> runs;
  for (int k = 0; k < 10; ++k) runs.push_back(null_run(k, 1.0));
  runs.push_back(null_run(10, 1.10));  // one repetition where B ran 10% slow: a false alarm
  const Calibration c = calibrate_runs(runs, fast_options());
  EXPECT_EQ(c.repetitions, 11U);
  EXPECT_EQ(c.runs.size(), 11U);
  EXPECT_EQ(c.variant, "base");
  EXPECT_EQ(c.suite, "s");
  EXPECT_GE(c.repetitions_with_alarm, 1U);
  ASSERT_EQ(c.entries.size(), 2U);  // wall_time of both benchmarks
  for (const auto& e : c.entries) {
    SCOPED_TRACE(e.benchmark);
    EXPECT_EQ(e.metric, "wall_time");
    EXPECT_EQ(e.comparisons, 11U);
    EXPECT_GE(e.slower, 1U);
    EXPECT_EQ(e.instances, 6U);
    EXPECT_NEAR(e.rate, static_cast<double>(e.slower + e.faster) / 11, 1e-12);
    EXPECT_LE(e.rate_lower, e.rate);
    EXPECT_GE(e.rate_upper, e.rate);
    // 11 repetitions cannot bound at 5%: the threshold is the largest change, the 10% one.
    EXPECT_FALSE(e.reached);
    EXPECT_NEAR(e.bound, 1.0 / 12, 1e-12);
    EXPECT_DOUBLE_EQ(e.threshold, e.max_change);
    EXPECT_NEAR(e.threshold, 0.10, 0.03);
  }
}

TEST(CalibrateRuns, TwentyQuietRepetitionsGiveASmallThresholdAndFewAlarms) {
  std::vector<RunData> runs;
  for (int k = 0; k < 20; ++k) runs.push_back(null_run(k, 1.0));
  const Calibration c = calibrate_runs(runs, fast_options());
  ASSERT_EQ(c.entries.size(), 2U);
  for (const auto& e : c.entries) {
    EXPECT_TRUE(e.reached);
    EXPECT_NEAR(e.bound, 1.0 / 21, 1e-12);
    EXPECT_LT(e.threshold, 0.06);  // 2% instance noise over 6 instances a side
    EXPECT_LE(e.slower + e.faster, 4U);
  }
}

TEST(CompareCalibration, RaisesTheThresholdOfCalibratedRowsOnly) {
  std::mt19937_64 rng(5);
  // B is 4% slower on both benchmarks, with enough instances to call it at a 1% threshold.
  const auto a1 = synthetic("fast", "A", 1.0, 30, 5, rng),
             b1 = synthetic("fast", "B", 1.04, 30, 5, rng);
  const auto a2 = synthetic("slow", "A", 5.0, 30, 5, rng),
             b2 = synthetic("slow", "B", 5.2, 30, 5, rng);
  const Side a{"A", {&a1, &a2}}, b{"B", {&b1, &b2}};
  CompareOptions o = fast_options();
  const CompareReport plain = compare_sides(a, b, o);
  ASSERT_EQ(plain.metrics.size(), 1U);
  for (const auto& row : plain.metrics[0].rows) {
    EXPECT_EQ(row.result.verdict, stats::Verdict::kSlower) << row.benchmark;
    EXPECT_DOUBLE_EQ(row.result.threshold, 0.01);
  }

  Calibration cal;
  cal.path = "cal.json";
  cal.statistic = "trimmed mean";
  CalibrationEntry e;
  e.benchmark = "fast";
  e.metric = "wall_time";
  e.threshold = 0.08;  // A/A changes of up to 8% on this machine
  e.instances = 30;
  cal.entries.push_back(e);
  o.calibration = &cal;
  const CompareReport calibrated = compare_sides(a, b, o);
  const auto& rows = calibrated.metrics[0].rows;
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].calibrated, &cal.entries[0]);
  EXPECT_DOUBLE_EQ(rows[0].result.threshold, 0.08);
  EXPECT_NE(rows[0].result.verdict, stats::Verdict::kSlower);  // 4% is within A/A noise here
  EXPECT_EQ(rows[1].calibrated, nullptr);
  EXPECT_DOUBLE_EQ(rows[1].result.threshold, 0.01);
  EXPECT_EQ(rows[1].result.verdict, stats::Verdict::kSlower);
  // The uncalibrated row is named in a warning; a smaller calibrated threshold never lowers it.
  bool named = false;
  for (const auto& w : calibrated.warnings)
    named = named || w.find("no entry for 1") != std::string::npos;
  EXPECT_TRUE(named);
  cal.entries[0].threshold = 0.001;
  EXPECT_DOUBLE_EQ(compare_sides(a, b, o).metrics[0].rows[0].result.threshold, 0.01);
}

TEST(CompareCalibration, WarnsWhenTheStatisticOrInstancesDiffer) {
  std::mt19937_64 rng(6);
  const auto a1 = synthetic("fast", "A", 1.0, 5, 5, rng),
             b1 = synthetic("fast", "B", 1.0, 5, 5, rng);
  const Side a{"A", {&a1}}, b{"B", {&b1}};
  Calibration cal;
  cal.path = "cal.json";
  cal.statistic = "median";
  CalibrationEntry e;
  e.benchmark = "fast";
  e.metric = "wall_time";
  e.threshold = 0.03;
  e.instances = 20;  // calibrated with more instances than compared
  cal.entries.push_back(e);
  CompareOptions o = fast_options();
  o.calibration = &cal;
  const CompareReport r = compare_sides(a, b, o);
  bool statistic = false;
  for (const auto& w : r.warnings) statistic = statistic || w.find("median") != std::string::npos;
  EXPECT_TRUE(statistic);
  bool instances = false;
  for (const auto& w : r.metrics[0].rows[0].result.warnings)
    instances = instances || w.find("calibrated with 20 instances") != std::string::npos;
  EXPECT_TRUE(instances);
}

}  // namespace
}  // namespace benchguard::analysis
