// Tests for src/analysis/summary.cpp: which median interval `summary` uses and what it holds.
#include "analysis/summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/order_ci.hpp"

namespace benchguard::analysis {
namespace {

VariantData summary_variant(const std::vector<std::vector<double>>& instances) {
  VariantData v;
  v.variant.benchmark = "b";
  for (const auto& values : instances) {
    InstanceRecord rec;
    for (std::size_t k = 0; k < values.size(); ++k) {
      IterationRecord it;
      it.index = static_cast<int>(k);
      it.metrics = {{"wall_time", values[k]}};
      rec.iterations.push_back(it);
    }
    v.instances.push_back(rec);
  }
  return v;
}

SummaryOptions options() {
  SummaryOptions o;
  o.burn_in.mode = BurnInPolicy::Mode::kConfigured;  // keep every iteration
  o.resamples = 2000;
  o.seed = 3;
  return o;
}

bool has_warning(const VariantSummary& s, const std::string& part) {
  return std::any_of(s.warnings.begin(), s.warnings.end(),
                     [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// Commands timed from outside: one iteration per instance. Ten values: [x_(2), x_(9)].
TEST(AnalysisSummary, OneIterationPerInstanceUsesOrderStatistics) {
  const auto s = summarize_variant(
      summary_variant({{1.07}, {1.01}, {1.10}, {0.98}, {1.05}, {1.09}, {1.02}, {1.08}, {1.04}, {1.06}}),
      "wall_time", options());
  EXPECT_EQ(s.median_ci_method, MedianCiMethod::kOrderStatistics);
  EXPECT_DOUBLE_EQ(s.median_ci.ci.lower, 1.01);
  EXPECT_DOUBLE_EQ(s.median_ci.ci.upper, 1.09);
  EXPECT_NEAR(s.median_ci_coverage, 1.0 - 22.0 / 1024.0, 1e-14);
  EXPECT_DOUBLE_EQ(s.median_ci.value, s.median);
  EXPECT_FALSE(has_warning(s, "no interval for the median"));
  EXPECT_STREQ(to_string(s.median_ci_method), "order statistics");
}

// At any count: 40 values give [x_(14), x_(27)].
TEST(AnalysisSummary, OrderStatisticsAtAnyCountOfSingleValues) {
  std::vector<std::vector<double>> inst;
  for (int i = 0; i < 40; ++i) inst.push_back({1.0 + 0.01 * ((i * 17) % 40)});
  const auto s = summarize_variant(summary_variant(inst), "wall_time", options());
  EXPECT_EQ(s.median_ci_method, MedianCiMethod::kOrderStatistics);
  EXPECT_EQ(stats::median_rank(40, 0.95).k, 14u);
  EXPECT_NEAR(s.median_ci.ci.lower, 1.13, 1e-12);
  EXPECT_NEAR(s.median_ci.ci.upper, 1.26, 1e-12);
}

// Five values cannot reach 95%: [min, max] with its 93.75%, and a warning.
TEST(AnalysisSummary, TooFewValuesWarn) {
  const auto s =
      summarize_variant(summary_variant({{1.03}, {1.01}, {1.05}, {0.99}, {1.02}}), "wall_time", options());
  EXPECT_EQ(s.median_ci_method, MedianCiMethod::kOrderStatistics);
  EXPECT_DOUBLE_EQ(s.median_ci.ci.lower, 0.99);
  EXPECT_DOUBLE_EQ(s.median_ci.ci.upper, 1.05);
  EXPECT_NEAR(s.median_ci_coverage, 0.9375, 1e-14);
  EXPECT_TRUE(has_warning(s, "covers it with probability 93.8%"));
}

// Several iterations per instance: the hierarchical bootstrap of the pooled median, at any
// count of instances, not order statistics of the pooled iterations (correlated within an
// instance) nor of the instance medians (an interval for another quantity, see the next test).
TEST(AnalysisSummary, SeveralIterationsUseTheBootstrap) {
  for (int n : {3, 8, 30}) {
    std::vector<std::vector<double>> inst;
    for (int i = 0; i < n; ++i) {
      const double offset = 1.0 + 0.01 * ((i * 7) % n);
      inst.push_back({offset * 0.99, offset, offset * 1.02});
    }
    const auto s = summarize_variant(summary_variant(inst), "wall_time", options());
    EXPECT_EQ(s.median_ci_method, MedianCiMethod::kBootstrap) << n;
    EXPECT_TRUE(std::isnan(s.median_ci_coverage));
    EXPECT_DOUBLE_EQ(s.median_ci.value, s.median);
    EXPECT_TRUE(s.median_ci.ci.contains(s.median)) << n;
    EXPECT_LT(s.median_ci.ci.lower, s.median_ci.ci.upper);
    EXPECT_FALSE(has_warning(s, "no interval for the median"));
  }
  // One instance of several iterations and one of a single iteration: not one value per
  // instance, so the bootstrap.
  const auto mixed = summarize_variant(summary_variant({{1.0, 1.1}, {1.2}}), "wall_time", options());
  EXPECT_EQ(mixed.median_ci_method, MedianCiMethod::kBootstrap);
}

// Why not order statistics of the instance medians: they bracket the median of the instance
// medians, which is not the pooled median. Nine instances have four of seven iterations slow
// (median 2), one has twenty fast iterations: 36 of 83 iterations are slow, so the pooled
// median is 1, while the instance medians' 95% interval [x_(2), x_(9)] is [2, 2]. The
// bootstrap interval of the pooled median holds it.
TEST(AnalysisSummary, InstanceMediansBracketAnotherQuantity) {
  std::vector<std::vector<double>> inst(9, std::vector<double>{1, 1, 1, 2, 2, 2, 2});
  inst.push_back(std::vector<double>(20, 1.0));
  std::vector<double> medians;
  for (const auto& i : inst) medians.push_back(stats::median(i));
  const auto by_instance = stats::median_interval(medians, 0.95);
  EXPECT_DOUBLE_EQ(by_instance.ci.lower, 2.0);
  EXPECT_DOUBLE_EQ(by_instance.ci.upper, 2.0);
  const auto s = summarize_variant(summary_variant(inst), "wall_time", options());
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_EQ(s.median_ci_method, MedianCiMethod::kBootstrap);
  EXPECT_TRUE(s.median_ci.ci.contains(1.0));
}

}  // namespace
}  // namespace benchguard::analysis

namespace benchguard::analysis {
namespace {

// The large-sample bootstrap is how an interval was computed, not a problem: a note, not a
// warning, and only where it was used.
TEST(AnalysisSummary, LargeSampleBootstrapIsANoteWhereItIsUsed) {
  const auto values = [](std::size_t n, double shift) {
    std::vector<double> xs(n);
    for (std::size_t k = 0; k < n; ++k) xs[k] = 1.0 + shift + 1e-3 * static_cast<double>(k % 97);
    return xs;
  };
  const auto note = [](const VariantSummary& s) {
    return std::any_of(s.notes.begin(), s.notes.end(), [](const std::string& n) {
      return n.find("large-sample bootstrap (normal within instances") != std::string::npos;
    });
  };
  const auto large = summarize_variant(
      summary_variant({values(8000, 0), values(8000, 0.01), values(8000, 0.02)}), "wall_time", options());
  EXPECT_EQ(large.mean_ci.method, stats::ResampleMethod::kNormalWithin);
  EXPECT_TRUE(note(large));
  EXPECT_FALSE(has_warning(large, "large-sample"));
  const auto small = summarize_variant(
      summary_variant({values(800, 0), values(800, 0.01), values(800, 0.02)}), "wall_time", options());
  EXPECT_EQ(small.mean_ci.method, stats::ResampleMethod::kFull);
  EXPECT_TRUE(small.notes.empty());
}

}  // namespace
}  // namespace benchguard::analysis
