// The in-process harness of include/benchguard/benchguard.hpp: calibration on a fake clock,
// sample statistics, option parsing.
#include <gtest/gtest.h>

#include "benchguard/benchguard.hpp"

namespace benchguard {
namespace {

// Each operation advances a fake clock by `ns`.
struct FakeClock {
  int64_t now = 0;
};

TEST(Harness, CalibrationMakesASampleLastAtLeastTheSampleTime) {
  for (const int64_t op_ns : {1, 7, 100, 3000, 2'000'000}) {
    FakeClock clock;
    const uint64_t batch =
        calibrate_batch([&] { clock.now += op_ns; }, 0.01, [&] { return clock.now; });
    const double sample_s = static_cast<double>(batch) * static_cast<double>(op_ns) * 1e-9;
    EXPECT_GE(sample_s, 0.01) << op_ns << " ns per op, batch " << batch;
    // Not wastefully long: within 1.5x the target, unless one operation is longer already.
    if (op_ns < 10'000'000) {
      EXPECT_LE(sample_s, 0.015) << op_ns << " ns per op, batch " << batch;
    }
  }
  // A first trial interrupted for 20 ms (a busy machine) does not end calibration at a batch
  // of one: the shorter of two trials counts.
  FakeClock busy;
  int calls = 0;
  const uint64_t batch = calibrate_batch([&] { busy.now += (calls++ == 0) ? 20'000'000 : 100; },
                                         0.01, [&] { return busy.now; });
  EXPECT_GE(static_cast<double>(batch) * 100e-9, 0.01) << batch;
  // An operation longer than the sample time runs once per sample.
  FakeClock slow;
  EXPECT_EQ(calibrate_batch([&] { slow.now += 50'000'000; }, 0.01, [&] { return slow.now; }), 1u);
}

TEST(Harness, CalibrationOfAnEmptyOperationStops) {
  // A clock that never moves: the batch grows tenfold until it passes 2^24, then stops.
  uint64_t calls = 0;
  const uint64_t batch = calibrate_batch([&] { ++calls; }, 0.01, [] { return int64_t{0}; });
  EXPECT_EQ(batch, 100'000'000u);
  EXPECT_EQ(calls, 111'111'111u);  // 1 + 10 + ... + 10^8
}

TEST(Harness, SampleStatsAreMedianMinAndRelativeMad) {
  const SampleStats s = summarize_samples({1.0, 2.0, 3.0, 4.0, 100.0});
  EXPECT_DOUBLE_EQ(s.median_s, 3.0);
  EXPECT_DOUBLE_EQ(s.min_s, 1.0);
  // deviations 2, 1, 0, 1, 97 -> median 1
  EXPECT_DOUBLE_EQ(s.mad_relative, 1.0 / 3.0);
  EXPECT_EQ(format_op_time(12.345e-9), "12.35 ns");
  EXPECT_EQ(format_op_time(4.5e-6), "4.500 us");
  EXPECT_EQ(format_op_time(0.25), "250.000 ms");
}

TEST(Harness, OptionsParseAndBadOnesAreOneLine) {
  const char* good[] = {"prog", "--filter", "sort", "--samples", "7", "--sample-time", "0.002"};
  HarnessOptions o;
  ASSERT_TRUE(parse_harness_args(7, const_cast<char**>(good), o, stderr));
  EXPECT_EQ(o.filter, "sort");
  EXPECT_EQ(o.samples, 7);
  EXPECT_DOUBLE_EQ(o.sample_time_s, 0.002);
  std::FILE* sink = std::tmpfile();
  const char* bad[] = {"prog", "--samples", "0"};
  HarnessOptions b;
  EXPECT_FALSE(parse_harness_args(3, const_cast<char**>(bad), b, sink));
  const char* unknown[] = {"prog", "--frobnicate"};
  EXPECT_FALSE(parse_harness_args(2, const_cast<char**>(unknown), b, sink));
  std::fclose(sink);
}

}  // namespace
}  // namespace benchguard
