// Tests for src/stats/rng.hpp.
#include "stats/rng.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace benchguard::stats {
namespace {

// Known-answer vectors of Random123's kat_vectors for philox4x32 with 10 rounds.
TEST(StatsRng, PhiloxMatchesKnownAnswers) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// The reference vector of xoshiro256plusplus.c from state {1, 2, 3, 4}.
TEST(StatsRng, XoshiroMatchesReferenceSequence) {
  auto rng = Rng::from_state({1, 2, 3, 4});
  for (uint64_t expected : {41943041ull, 58720359ull, 3588806011781223ull, 3591011842654386ull,
                            9228616714210784205ull, 9973669472204895162ull}) {
    EXPECT_EQ(rng.next_u64(), expected);
  }
}

// The two blocks side by side are bit for bit two single blocks, over 100,000 counters and keys
// drawn from SplitMix64 (every bit of each word exercised), and the known answers above.
TEST(StatsRng, TwoBlocksAtOnceEqualTwoSingleBlocks) {
  uint64_t x = 1;
  auto word = [&] { return static_cast<uint32_t>(mix64(x++)); };
  for (int i = 0; i < 100000; ++i) {
    const PhiloxCounter a{word(), word(), word(), word()}, b{word(), word(), word(), word()};
    const PhiloxKey key{word(), word()};
    const auto both = philox4x32_10_x2(a, b, key);
    ASSERT_EQ(both[0], philox4x32_10(a, key)) << i;
    ASSERT_EQ(both[1], philox4x32_10(b, key)) << i;
  }
  const auto known =
      philox4x32_10_x2({0, 0, 0, 0}, {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0, 0});
  EXPECT_EQ(known[0], philox4x32_10({0, 0, 0, 0}, {0, 0}));
  EXPECT_EQ(known[0], (PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
}

// A stream starts from the Philox blocks at counters (0, stream) and (1, stream).
TEST(StatsRng, StreamStateComesFromPhilox) {
  const uint64_t seed = 0x299f31d0a4093822ull, stream = 0x0370734413198a2eull;
  const PhiloxKey key{0xa4093822, 0x299f31d0};
  const auto b0 = philox4x32_10({0, 0, 0x13198a2e, 0x03707344}, key);
  const auto b1 = philox4x32_10({1, 0, 0x13198a2e, 0x03707344}, key);
  auto join = [](uint32_t lo, uint32_t hi) { return (uint64_t{hi} << 32) | lo; };
  auto expected = Rng::from_state(
      {join(b0[0], b0[1]), join(b0[2], b0[3]), join(b1[0], b1[1]), join(b1[2], b1[3])});
  Rng rng(seed, stream);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(rng.next_u64(), expected.next_u64());
}

TEST(StatsRng, SameSeedAndStreamRepeat) {
  Rng a(42, 7), b(42, 7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
}

TEST(StatsRng, StreamsAndSeedsDiffer) {
  Rng base(42, 7), other_stream(42, 8), other_seed(43, 7);
  int same_stream = 0, same_seed = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = base.next_u64();
    same_stream += x == other_stream.next_u64();
    same_seed += x == other_seed.next_u64();
  }
  EXPECT_EQ(same_stream, 0);
  EXPECT_EQ(same_seed, 0);
}

TEST(StatsRng, DeriveSeedSeparatesTags) {
  EXPECT_NE(derive_seed(1, 0), derive_seed(1, 1));
  EXPECT_NE(derive_seed(1, 0), derive_seed(2, 0));
  EXPECT_EQ(derive_seed(5, 3), derive_seed(5, 3));
}

TEST(StatsRng, BelowStaysInRange) {
  Rng rng(1, 0);
  EXPECT_EQ(rng.below(1), 0u);
  for (int i = 0; i < 10000; ++i) ASSERT_LT(rng.below(7), 7u);
}

// For n = 3 * 2^30, multiply-shift without rejection maps two 32-bit inputs onto every value
// divisible by 3 and one onto the others, so half the draws would be divisible by 3. Lemire's
// rejection step restores the uniform third.
TEST(StatsRng, BelowIsUnbiasedWhereMultiplyShiftIsNot) {
  Rng rng(2024, 1);
  const uint32_t n = 3u << 30;
  const int draws = 60000;
  int divisible = 0;
  for (int i = 0; i < draws; ++i) divisible += rng.below(n) % 3 == 0;
  EXPECT_NEAR(static_cast<double>(divisible) / draws, 1.0 / 3.0, 0.01);
}

TEST(StatsRng, BelowIsUniformOverSmallRange) {
  Rng rng(9, 3);
  std::vector<int> counts(10, 0);
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) ++counts[rng.below(10)];
  double chi2 = 0.0;
  for (int c : counts) chi2 += (c - draws / 10.0) * (c - draws / 10.0) / (draws / 10.0);
  EXPECT_LT(chi2, 27.88);  // 99.9th percentile of chi-square with 9 degrees of freedom
}

TEST(StatsRng, UniformMomentsAndRange) {
  Rng rng(3, 0);
  double sum = 0.0, sum2 = 0.0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sum2 += u * u;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.003);
  EXPECT_NEAR(sum2 / n - (sum / n) * (sum / n), 1.0 / 12.0, 0.002);
}

TEST(StatsRng, NormalAndLognormalMoments) {
  Rng rng(4, 0);
  const int n = 200000;
  double sum = 0.0, sum2 = 0.0, tail = 0.0, log_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double z = rng.normal();
    sum += z;
    sum2 += z * z;
    tail += z > 1.959964;
    log_sum += rng.lognormal(-0.5 * 0.04, 0.2);
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0, 0.015);
  EXPECT_NEAR(tail / n, 0.025, 0.002);
  EXPECT_NEAR(log_sum / n, 1.0, 0.003);  // exp(mu + sigma^2 / 2) = 1
}

}  // namespace
}  // namespace benchguard::stats
