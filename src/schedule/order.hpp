// The order of instances in a run: which (benchmark, variant, instance) goes when.
// Pure: the same suite, schedule and seed give the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::schedule {

struct Slot {
  int benchmark = 0;  // index into Suite::benchmarks
  int variant = 0;    // index into BenchmarkSpec::variants
  int instance = 0;   // 0-based; warmup instances are negative (-warmup .. -1)
  bool warmup() const { return instance < 0; }
};

// Schedules implemented by the sequential runner.
bool is_known_schedule(const std::string& name);

// sequential: benchmark by benchmark, variant by variant, instance by instance.
// alternate:  benchmark by benchmark, instances of the variants interleaved (ABAB).
// randomized: every measured instance of the suite shuffled (seeded); warmups stay first
//             for their benchmark and variant.
Result<std::vector<Slot>> make_order(const Suite& suite, const std::string& schedule,
                                     uint64_t seed);

}  // namespace benchguard::schedule
