// The A/A form of a suite and the calibration file (core/suite.hpp, core/calibration.hpp).
#include "core/calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/suite.hpp"
#include "suite_test_util.hpp"

namespace benchguard {
namespace {

const char* kAb = R"(name: ab
schedule: duet
instances: 4
benchmarks:
  - name: sort
    command: [old-sort]
    variants:
      old: {}
      new: {command: [new-sort]}
  - name: solo
    command: [solo]
)";

TEST(NullSuite, RunsTheFirstVariantAgainstItself) {
  const Suite s = suite_test::parse(kAb);
  auto n = null_suite(s, "");
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(n->schedule, "duet");
  ASSERT_EQ(n->benchmarks.size(), 2U);
  const auto& sort = n->benchmarks[0];
  EXPECT_EQ(sort.instances, 4);
  ASSERT_EQ(sort.variants.size(), 2U);
  EXPECT_EQ(sort.variants[0].name, "old");
  EXPECT_EQ(sort.variants[1].name, "old.again");
  EXPECT_EQ(sort.variants[0].command, sort.variants[1].command);
  EXPECT_EQ(sort.variants[1].command.front(), "old-sort");
  EXPECT_EQ(n->benchmarks[1].variants[1].name, "default.again");
}

TEST(NullSuite, ANamedVariantMustExistInEveryBenchmark) {
  const Suite s = suite_test::parse(kAb);
  auto n = null_suite(s, "new");
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().message.find("/proj/suite.yml:"), std::string::npos) << n.error().message;
  EXPECT_NE(n.error().message.find("'solo' has no variant 'new' (it has: default)"),
            std::string::npos)
      << n.error().message;
}

Calibration sample() {
  Calibration c;
  c.suite = "ab";
  c.host = "box";
  c.schedule = "duet";
  c.variant = "old";
  c.statistic = "trimmed mean";
  c.repetitions = 20;
  c.repetitions_with_alarm = 2;
  c.family_rate_lower = 0.0123;
  c.family_rate_upper = 0.317;
  c.runs = {"u1", "u2"};
  CalibrationEntry e;
  e.benchmark = "sort";
  e.metric = "wall_time";
  e.comparisons = 20;
  e.slower = 1;
  e.faster = 1;
  e.rate = 0.1;
  e.rate_lower = 0.0123;
  e.rate_upper = 0.317;
  e.max_change = 0.031;
  e.threshold = 0.031;
  e.bound = 1.0 / 21;
  e.reached = true;
  e.instances = 4;
  c.entries.push_back(e);
  e.metric = "max_rss";
  e.threshold = std::nan("");
  c.entries.push_back(e);
  return c;
}

TEST(CalibrationFile, RoundTrips) {
  const Calibration c = sample();
  auto back = parse_calibration(format_calibration(c), "cal.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->path, "cal.json");
  EXPECT_EQ(back->suite, "ab");
  EXPECT_EQ(back->schedule, "duet");
  EXPECT_EQ(back->statistic, "trimmed mean");
  EXPECT_EQ(back->repetitions, 20U);
  EXPECT_EQ(back->repetitions_with_alarm, 2U);
  EXPECT_DOUBLE_EQ(back->family_rate_upper, 0.317);
  EXPECT_EQ(back->runs, c.runs);
  ASSERT_EQ(back->entries.size(), 2U);
  const CalibrationEntry* e = back->find("sort", "wall_time");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->slower, 1U);
  EXPECT_DOUBLE_EQ(e->threshold, 0.031);
  EXPECT_DOUBLE_EQ(e->bound, 1.0 / 21);
  EXPECT_TRUE(e->reached);
  EXPECT_EQ(e->instances, 4U);
  EXPECT_TRUE(std::isnan(back->find("sort", "max_rss")->threshold));  // null stays "none"
  EXPECT_EQ(back->find("sort", "cpu_time"), nullptr);
}

// calibrate --randomize-layout: the fixed layout's figures beside the randomized ones.
TEST(CalibrationFile, LayoutFiguresRoundTrip) {
  Calibration c = sample();
  c.layout = "randomized";
  c.entries[0].spread = 0.0368;
  c.entries[0].fixed_comparisons = 20;
  c.entries[0].fixed_alarms = 7;
  c.entries[0].spread_fixed = 0.0127;
  c.entries[0].layout_share = 0.881;
  auto back = parse_calibration(format_calibration(c), "cal.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->layout, "randomized");
  const CalibrationEntry* e = back->find("sort", "wall_time");
  ASSERT_NE(e, nullptr);
  EXPECT_DOUBLE_EQ(e->spread, 0.0368);
  EXPECT_EQ(e->fixed_comparisons, 20U);
  EXPECT_EQ(e->fixed_alarms, 7U);
  EXPECT_DOUBLE_EQ(e->spread_fixed, 0.0127);
  EXPECT_DOUBLE_EQ(e->layout_share, 0.881);
  // Without a randomized layout the file has no layout figures, and reads as before.
  const Calibration plain = sample();
  EXPECT_EQ(format_calibration(plain).find("\"layout\""), std::string::npos);
  auto old = parse_calibration(format_calibration(plain), "cal.json");
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(std::isnan(old->entries[0].layout_share));
  EXPECT_EQ(old->entries[0].fixed_comparisons, 0U);
}

TEST(CalibrationFile, BadFilesSayWhatIsWrong) {
  auto not_json = parse_calibration("{\"calibration\": 1,", "c.json");
  ASSERT_FALSE(not_json.ok());
  EXPECT_NE(not_json.error().message.find("c.json:1: not valid JSON"), std::string::npos)
      << not_json.error().message;
  auto huge = parse_calibration("{\"calibration\": 1,\n\"threshold\": 1e999}", "c.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message,
            "c.json:2: not valid JSON: number 1e999 is beyond the range of a double");
  auto other = parse_calibration(R"({"metrics": []})", "c.json");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("not a calibration file"), std::string::npos);
  auto version = parse_calibration(R"({"calibration": 2, "entries": []})", "c.json");
  ASSERT_FALSE(version.ok());
  EXPECT_NE(version.error().message.find("must be 1"), std::string::npos);
  auto bad = parse_calibration(
      R"({"calibration": 1, "entries": [{"benchmark": "x", "metric": "wall_time", "threshold": "big"}]})",
      "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("c.json: entries[0].threshold must be a number"),
            std::string::npos)
      << bad.error().message;
  auto negative = parse_calibration(
      R"({"calibration": 1, "entries": [{"benchmark": "x", "metric": "m", "threshold": -0.1}]})",
      "c.json");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().message.find("must not be negative"), std::string::npos);
  auto interval = parse_calibration(
      R"({"calibration": 1, "entries": [{"benchmark": "x", "metric": "m", "rate_ci": [0.1]}]})",
      "c.json");
  ASSERT_FALSE(interval.ok());
  EXPECT_NE(interval.error().message.find("c.json: entries[0].rate_ci must be two numbers"),
            std::string::npos)
      << interval.error().message;
  auto family =
      parse_calibration(R"({"calibration": 1, "entries": [], "family_rate_ci": "x"})", "c.json");
  ASSERT_FALSE(family.ok());
  EXPECT_NE(family.error().message.find("c.json: family_rate_ci must be two numbers"),
            std::string::npos)
      << family.error().message;
  auto missing = load_calibration("/nonexistent/cal.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read /nonexistent/cal.json"), std::string::npos);
}

}  // namespace
}  // namespace benchguard
