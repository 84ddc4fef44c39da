// The order of instances in a run: which (benchmark, variant, instance) goes when, and which
// instances run as an A/B pair. Pure: the same suite, schedule and seed give the same order.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::schedule {

// Shuffles `v` with `rng`. std::shuffle's algorithm is unspecified; this Fisher-Yates over
// mt19937_64 gives the same order for the same seed on every standard library.
template <class T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
  for (size_t i = v.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(rng() % i);
    std::swap(v[i - 1], v[j]);
  }
}

struct Slot {
  int benchmark = 0;  // index into Suite::benchmarks
  int variant = 0;    // index into BenchmarkSpec::variants
  int instance = 0;   // 0-based; warmup instances are negative (-warmup .. -1)
  bool warmup() const { return instance < 0; }
};

// One step of a run: a single instance, or an A/B pair (one instance of each variant, with
// the same index) listed in start order.
struct Step {
  std::vector<Slot> slots;  // 1, or 2 for a pair
  // Recorded with the instances: interleaved | sequential | alternate | randomized | duet |
  // sync-duet.
  std::string schedule;
  // A concurrent pair: B takes the first CPU set and A the second, instead of A the first.
  bool swap_cpus = false;
  bool concurrent() const { return schedule == "duet" || schedule == "sync-duet"; }
  bool synchronized() const { return schedule == "sync-duet"; }
  bool pair() const { return slots.size() == 2; }
  bool warmup() const { return slots.front().warmup(); }
  // "AB" or "BA" for a pair (by variant position), "" for a single instance.
  std::string start_order() const;
};

// The schedules, as a message lists them; the first is the default.
inline constexpr const char* kKnownSchedules =
    "interleaved, sequential, alternate, randomized, duet, sync-duet";
bool is_known_schedule(const std::string& name);

// True when the benchmark runs as A/B pairs: under duet or sync-duet, or with a mixed plan.
bool runs_in_pairs(const BenchmarkSpec& b, const std::string& schedule);

// A/A: a benchmark that runs in pairs but declares a single variant runs against itself; the
// two copies become variants "A" and "B" with the same command. An error names a paired
// benchmark with more than two variants.
Result<Suite> pair_variants(const Suite& suite, const std::string& schedule);

// interleaved (the default): benchmark by benchmark, in rounds of one instance of each
//             variant, each round in a seeded random order; with two variants AB and BA
//             rounds are dealt equally often. One variant: instance by instance.
// sequential: benchmark by benchmark, variant by variant, instance by instance.
// alternate:  benchmark by benchmark, instances of the variants interleaved (ABAB).
// randomized: every measured instance of the suite shuffled (seeded); warmups stay first
//             for their benchmark and variant.
// duet, sync-duet: benchmark by benchmark, `instances` pairs. Which side starts first and
//             which side gets which CPU set are balanced: the four combinations are dealt
//             out equally (up to one when the count is not a multiple of four) in a seeded
//             random order, so neither the CPU nor the start order can favour a side.
// A benchmark with a mixed plan runs its duet, sync and sequential pairs in a seeded random
// order, in its place under sequential and alternate, after the shuffled instances under
// randomized. Paired benchmarks must have exactly two variants (see pair_variants).
Result<std::vector<Step>> make_order(const Suite& suite, const std::string& schedule,
                                     uint64_t seed);

}  // namespace benchguard::schedule
