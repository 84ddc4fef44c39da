#include "core/units.hpp"

#include <gtest/gtest.h>

namespace benchguard {
namespace {

TEST(CoreUnits, ParseDuration) {
  EXPECT_DOUBLE_EQ(*parse_duration("30s"), 30);
  EXPECT_DOUBLE_EQ(*parse_duration("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(*parse_duration("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_duration("2m"), 120);
  EXPECT_DOUBLE_EQ(*parse_duration("1h"), 3600);
  EXPECT_DOUBLE_EQ(*parse_duration("250us"), 250e-6);
  for (const char* bad : {"", "abc", "5 parsecs", "-1s", "1x"}) {
    auto r = parse_duration(bad);
    EXPECT_FALSE(r.ok()) << bad;
  }
  EXPECT_NE(parse_duration("1x").error().message.find("'1x'"), std::string::npos);
}

TEST(CoreUnits, FormatDurationUsesMinutesAndHours) {
  EXPECT_EQ(format_duration(0.5), "500.000 ms");
  EXPECT_EQ(format_duration(59), "59.000 s");
  EXPECT_EQ(format_duration(90), "1.5 min");
  EXPECT_EQ(format_duration(4350), "1.21 h");
}

TEST(CoreUnits, ParseFraction) {
  EXPECT_DOUBLE_EQ(*parse_fraction("5%", "--target"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_fraction("0.05", "--target"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_fraction("95%", "--power"), 0.95);
  EXPECT_DOUBLE_EQ(*parse_fraction("150%", "--simulate-slowdown"), 1.5);
  EXPECT_DOUBLE_EQ(*parse_fraction("0", "--threshold"), 0);
  for (const char* bad : {"", "-1%", "5 %", "x", "10", "nan", "1000%", "inf%"}) {
    auto r = parse_fraction(bad, "--alpha");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("--alpha"), std::string::npos);
  }
}

// A bare number of 1 or more is no fraction: read as one, a 5 would be 500%.
TEST(CoreUnits, ParseFractionRefusesABareNumberOfOneOrMore) {
  EXPECT_EQ(parse_fraction("5", "--threshold").error().message,
            "--threshold 5 would mean 500%; write 5%");
  EXPECT_EQ(parse_fraction("1.5", "--simulate-slowdown").error().message,
            "--simulate-slowdown 1.5 would mean 150%; write 1.5%");
  EXPECT_EQ(parse_fraction("1", "--power").error().message,
            "--power 1 would mean 100%; write 1% or 100%");
  EXPECT_DOUBLE_EQ(*parse_fraction("0.999", "--confidence"), 0.999);
}

TEST(CoreUnits, FormatSecondsPicksTheLargestFittingUnit) {
  EXPECT_EQ(format_seconds(1.5), "1.500 s");
  EXPECT_EQ(format_seconds(0.0123), "12.300 ms");
  EXPECT_EQ(format_seconds(4.5e-6), "4.500 µs");
  EXPECT_EQ(format_seconds(3e-9), "3.000 ns");
  EXPECT_EQ(format_seconds(0), "0 s");
}

TEST(CoreUnits, FormatBytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(200.0 * 1024 * 1024), "200.0 MiB");
}

TEST(CoreUnits, DatesRoundTripInUtc) {
  auto t = parse_date("2026-11-21 13:46:22");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(format_time(*t), "2026-11-21 13:46:22");
  EXPECT_EQ(format_iso8601(*t + 5'000'000), "2026-11-21T13:46:22.005Z");
  EXPECT_EQ(*parse_date("1970-01-02"), 86400LL * 1000000000);
  EXPECT_EQ(*parse_date("2026-11-21T13:46"), *parse_date("2026-11-21 13:46:00"));
  EXPECT_FALSE(parse_date("21/11/2026").ok());
  EXPECT_FALSE(parse_date("2026-13-01").ok());
}

}  // namespace
}  // namespace benchguard
