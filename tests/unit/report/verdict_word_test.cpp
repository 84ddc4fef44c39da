// Tests for report::verdict_word: a verdict in the words of its metric.
#include <gtest/gtest.h>

#include "report/compare.hpp"

namespace benchguard::report {
namespace {

TEST(ReportVerdictWord, EachMetricGetsItsOwnWords) {
  using stats::Verdict;
  const MetricInfo time{"wall_time", "s", Direction::kLowerIsBetter};
  const MetricInfo memory{"rss_above_start_bytes", "B", Direction::kLowerIsBetter};
  const MetricInfo rate{"tasks_per_s", "1/s", Direction::kHigherIsBetter};
  const MetricInfo count{"instructions", "", Direction::kLowerIsBetter};
  const MetricInfo own{"tokens_per_line", "", Direction::kHigherIsBetter};
  EXPECT_EQ(verdict_word(Verdict::kSlower, time), "slower");
  EXPECT_EQ(verdict_word(Verdict::kFaster, time), "faster");
  EXPECT_EQ(verdict_word(Verdict::kSlower, memory), "more memory");
  EXPECT_EQ(verdict_word(Verdict::kFaster, memory), "less memory");
  EXPECT_EQ(verdict_word(Verdict::kSlower, rate), "slower");
  EXPECT_EQ(verdict_word(Verdict::kSlower, count), "slower");
  EXPECT_EQ(verdict_word(Verdict::kSlower, own), "worse");
  EXPECT_EQ(verdict_word(Verdict::kFaster, own), "better");
  EXPECT_EQ(verdict_word(Verdict::kUnchanged, memory), "unchanged");
  EXPECT_EQ(verdict_word(Verdict::kInconclusive, own), "inconclusive");
}

}  // namespace
}  // namespace benchguard::report
