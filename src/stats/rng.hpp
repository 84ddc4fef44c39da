// Reproducible random numbers for parallel statistics.
//
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) maps
// (key, counter) to 128 random bits with no hidden state, so the start of any stream can be
// computed from (seed, stream) alone. The bootstrap gives resample b the stream b: the numbers
// a resample sees do not depend on which thread ran it or in what order, so one seed gives
// identical results on any thread count.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace benchguard::stats {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

// One Philox4x32 block with 10 rounds (the Random123 default; passes BigCrush).
constexpr PhiloxCounter philox4x32_10(PhiloxCounter ctr, PhiloxKey key) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    const uint64_t p0 = uint64_t{kM0} * ctr[0];
    const uint64_t p1 = uint64_t{kM1} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return ctr;
}

// Two Philox4x32-10 blocks under one key, computed side by side: bit for bit philox4x32_10 of
// each, in half the time (the rounds of one block wait on its multiplications; the other's fill
// the gaps). An Rng is seeded from two blocks, once per bootstrap resample.
inline std::array<PhiloxCounter, 2> philox4x32_10_x2(PhiloxCounter a, PhiloxCounter b,
                                                     PhiloxKey key) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  uint32_t k0 = key[0], k1 = key[1];
  uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  uint32_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
#pragma GCC unroll 10
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    const uint64_t pa0 = uint64_t{kM0} * a0, pa1 = uint64_t{kM1} * a2;
    const uint64_t pb0 = uint64_t{kM0} * b0, pb1 = uint64_t{kM1} * b2;
    a0 = static_cast<uint32_t>(pa1 >> 32) ^ a1 ^ k0;
    a2 = static_cast<uint32_t>(pa0 >> 32) ^ a3 ^ k1;
    a1 = static_cast<uint32_t>(pa1);
    a3 = static_cast<uint32_t>(pa0);
    b0 = static_cast<uint32_t>(pb1 >> 32) ^ b1 ^ k0;
    b2 = static_cast<uint32_t>(pb0 >> 32) ^ b3 ^ k1;
    b1 = static_cast<uint32_t>(pb1);
    b3 = static_cast<uint32_t>(pb0);
  }
  return {PhiloxCounter{a0, a1, a2, a3}, PhiloxCounter{b0, b1, b2, b3}};
}

// SplitMix64 finalizer: a bijective 64-bit mix. Used only to derive independent seeds
// (per benchmark, per side of a comparison) from one user seed.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A seed for a sub-task `tag` of the task seeded with `seed`.
constexpr uint64_t derive_seed(uint64_t seed, uint64_t tag) {
  return mix64(seed ^ mix64(tag));
}

// A stream of random numbers identified by (seed, stream). Two Philox blocks at counters
// (0, stream) and (1, stream) under the key `seed` give the 256-bit state of a xoshiro256++
// generator (Blackman & Vigna, "Scrambled linear pseudorandom number generators", TOMS 2021),
// which then runs sequentially: Philox makes every stream directly addressable and independent
// of the others, xoshiro makes each draw cost a few cycles. Cheap to construct; make one per
// resample rather than sharing one across threads.
class Rng {
 public:
  Rng(uint64_t seed, uint64_t stream) {
    const PhiloxKey key{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
    const auto lo = static_cast<uint32_t>(stream), hi = static_cast<uint32_t>(stream >> 32);
    const auto [b0, b1] = philox4x32_10_x2({0, 0, lo, hi}, {1, 0, lo, hi}, key);
    state_ = {join(b0[0], b0[1]), join(b0[2], b0[3]), join(b1[0], b1[1]), join(b1[2], b1[3])};
    // xoshiro must not start from all zeros; Philox yields that with probability 2^-256.
    if ((state_[0] | state_[1] | state_[2] | state_[3]) == 0) state_[0] = 1;
  }

  // A generator started from an explicit xoshiro256++ state (not all zero), to reproduce
  // reference sequences.
  static Rng from_state(const std::array<uint64_t, 4>& state) {
    Rng rng;
    rng.state_ = state;
    return rng;
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(state_[0] + state_[3], 23) + state_[0];
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // The upper half of a 64-bit draw (the better-mixed bits).
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }

  // Uniform integer in [0, n), n > 0, without modulo bias (Lemire, "Fast random integer
  // generation in an interval", TOMACS 2019): rejection happens with probability < n / 2^32.
  uint32_t below(uint32_t n) {
    uint64_t m = uint64_t{next_u32()} * n;
    auto low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = (0u - n) % n;
      while (low < threshold) {
        m = uint64_t{next_u32()} * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Standard normal by Box-Muller; the second variate of each pair is kept for the next call.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

  double normal(double mean, double sd) { return mean + sd * normal(); }

  // exp(N(mu, sigma^2)).
  double lognormal(double mu, double sigma) { return std::exp(normal(mu, sigma)); }

 private:
  Rng() = default;
  static constexpr uint64_t join(uint32_t lo, uint32_t hi) { return (uint64_t{hi} << 32) | lo; }
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<uint64_t, 4> state_{};
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace benchguard::stats
