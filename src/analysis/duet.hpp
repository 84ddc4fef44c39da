// From stored duet runs to the pairs the duet analysis works on, and an injected slowdown
// that keeps a duet run's timeline realistic.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/samples.hpp"
#include "stats/duet.hpp"

namespace benchguard::analysis {

struct DuetPairing {
  std::vector<stats::DuetRun> runs;  // one per concurrent pair of instances, in run order
  // Per run: the CPUs B's instance was pinned to, and whether B was started second.
  std::vector<std::string> b_cpus;
  std::vector<bool> b_started_second;
  std::size_t paired = 0;      // iterations of each side that found a partner
  std::size_t unpaired_a = 0;  // usable iterations of A without a partner
  std::size_t unpaired_b = 0;
  std::size_t burn_in = 0;  // leading iterations left out per instance beyond the flagged ones
};

inline constexpr double kDefaultMinOverlap = 0.4;

// The concurrent pairs of instances of `a` and `b` (schedule duet or sync-duet, the same
// `order`, both successful) and, within each, the iterations of `metric` that overlap by at
// least `min_overlap` of each. Burn-in is left out as `policy` says (under kAuto, the larger
// of the two sides' detected burn-in); failed iterations never pair.
DuetPairing pair_duet(const VariantData& a, const VariantData& b, const std::string& metric,
                      const BurnInPolicy& policy, double min_overlap = kDefaultMinOverlap);

// Whether the machine favoured a side in a duet: the estimated slowdown of the side on one CPU
// set against the other, and of the side started second against the one started first
// (stats::side_effect). The schedule balances both over the pairs, so they cancel in the
// estimate; a clear effect says the machine is not symmetric.
struct DuetBalance {
  std::string benchmark;
  std::size_t runs = 0;
  std::string cpus_first, cpus_second;  // the two CPU sets (cpus_second "" when B never moved)
  stats::SideEffect cpu;                // the side on cpus_second against cpus_first
  stats::SideEffect start;              // the side started second against the one first
};
DuetBalance duet_balance(const VariantData& a, const VariantData& b, const std::string& metric,
                         const BurnInPolicy& policy, double confidence = 0.95);

// True when the two variants have at least two concurrent pairs of instances.
bool has_duet_pairs(const VariantData& a, const VariantData& b);

// The variant as if it were `slowdown` slower (0.05: 5%): every iteration's `metrics` are
// multiplied by 1 + slowdown, and each iteration is stretched by the same factor with the
// later iterations (and the instance's end) shifted by the time gained, so that within a duet
// run the overlaps with the other side move as they would have.
VariantData with_slowdown(const VariantData& v, double slowdown,
                          const std::vector<std::string>& metrics = {"wall_time"});

}  // namespace benchguard::analysis
