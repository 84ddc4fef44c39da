// Tests for src/analysis/sequential.cpp: the record a sequential run stores, read back, and
// what a damaged one gives.
#include "analysis/sequential.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace benchguard::analysis {
namespace {

RunRecord with_record(const std::string& text) {
  RunRecord r;
  r.uuid = "0123456789abcdef";
  r.artifacts.emplace_back(kSequentialArtifact, text);
  return r;
}

TEST(AnalysisSequential, TheRecordReadsBackAsWritten) {
  SequentialSetup setup;
  setup.plan.round = 2;
  setup.plan.spending = stats::Spending::kOBrienFleming;
  setup.verdict.threshold = 0.03;
  setup.metric = "cpu_time";
  SequentialOutcome o;
  o.benchmark = "spin";
  o.max_instances = 20;
  o.out_of_time = true;
  o.look.look = 2;
  o.look.instances_a = o.look.instances_b = 5;
  o.look.ratio = 1.1;
  o.look.ci = {1.05, 1.15};
  o.look.level = 0.99;
  o.look.dof = 4;
  o.look.p_fixed = 0.001;
  o.look.p_value = 0.004;
  o.look.decision = stats::SequentialDecision::kSlower;
  o.look.reason = "why";
  o.looks = {o.look, o.look};
  o.looks[0].look = 1;
  o.looks[0].decision = stats::SequentialDecision::kContinue;

  const auto read = read_sequential_record(with_record(sequential_record(setup, {o}, 4, 0.9875)));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->has_value());
  const auto& r = **read;
  EXPECT_EQ(r.setup.plan.round, 2u);
  EXPECT_EQ(r.setup.plan.spending, stats::Spending::kOBrienFleming);
  EXPECT_DOUBLE_EQ(r.setup.verdict.threshold, 0.03);
  EXPECT_EQ(r.setup.metric, "cpu_time");
  EXPECT_EQ(r.family, 4u);
  EXPECT_DOUBLE_EQ(r.benchmark_confidence, 0.9875);
  EXPECT_DOUBLE_EQ(r.setup.plan.confidence, 0.95);
  const auto* back = r.find("spin");
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(r.find("other"), nullptr);
  EXPECT_EQ(back->max_instances, 20u);
  EXPECT_TRUE(back->out_of_time);
  EXPECT_EQ(back->look.decision, stats::SequentialDecision::kSlower);
  EXPECT_DOUBLE_EQ(back->look.ci.upper, 1.15);
  EXPECT_EQ(back->look.reason, "why");
  EXPECT_DOUBLE_EQ(back->look.dof, 4);
  EXPECT_DOUBLE_EQ(back->look.p_fixed, 0.001);
  EXPECT_DOUBLE_EQ(back->look.p_value, 0.004);
  ASSERT_EQ(back->looks.size(), 2u);
  EXPECT_EQ(back->looks[0].decision, stats::SequentialDecision::kContinue);
}

// A record written before the split and the repeated p-values reads as one benchmark's
// family, the p-values unknown.
TEST(AnalysisSequential, AnOlderRecordHasAFamilyOfOneAndNoRepeatedPValue) {
  const auto read = read_sequential_record(with_record(
      R"({"confidence": 0.95, "min_instances": 3, "benchmarks": [{"benchmark": "spin",
          "look": 4, "ratio": 1.2, "ci": [1.1, 1.3], "decision": "slower"}]})"));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->family, 1u);
  EXPECT_DOUBLE_EQ((*read)->benchmark_confidence, 0.95);
  EXPECT_EQ((*read)->setup.plan.min_instances, 3u);
  const auto* o = (*read)->find("spin");
  ASSERT_NE(o, nullptr);
  EXPECT_TRUE(std::isnan(o->look.p_value));
  EXPECT_TRUE(std::isnan(o->look.p_fixed));
}

TEST(AnalysisSequential, NoRecordIsNotSequentialAndADamagedOneIsAnError) {
  const auto none = read_sequential_record(RunRecord{});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  for (const std::string text :
       {"not json", "[]", "{\"benchmarks\": 3}", "{\"benchmarks\": [], \"round\": \"two\"}",
        "{\"benchmarks\": [{\"max_instances\": \"x\"}]}"}) {
    const auto r = read_sequential_record(with_record(text));
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().message.find("run 01234567: its sequential record"), std::string::npos)
        << r.error().message;
  }
}

}  // namespace
}  // namespace benchguard::analysis
