#include "schedule/order.hpp"

#include <algorithm>
#include <random>

namespace benchguard::schedule {

namespace {

Step single(int bi, int v, int instance, const std::string& schedule) {
  return Step{{Slot{bi, v, instance}}, schedule};
}

void append_warmups(const BenchmarkSpec& b, int bi, const std::string& schedule,
                    std::vector<Step>& out) {
  for (int v = 0; v < static_cast<int>(b.variants.size()); ++v)
    for (int w = b.warmup; w > 0; --w) out.push_back(single(bi, v, -w, schedule));
}

// Bit 0: B starts first; bit 1: the CPU sets are swapped.
Step pair(int bi, int instance, const std::string& kind, unsigned design) {
  Slot a{bi, 0, instance}, b{bi, 1, instance};
  Step step = (design & 1U) != 0 ? Step{{b, a}, kind} : Step{{a, b}, kind};
  step.swap_cpus = (design & 2U) != 0;
  return step;
}

// n designs: each of the four (start order x CPU sets) combinations n / 4 times, the
// remainder drawn without repeats, in a random order.
std::vector<unsigned> balanced_designs(int n, std::mt19937_64& rng) {
  std::vector<unsigned> extra{0, 1, 2, 3};
  shuffle(extra, rng);
  std::vector<unsigned> designs;
  designs.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    designs.push_back(i < n - n % 4 ? static_cast<unsigned>(i % 4) : extra[i % 4]);
  shuffle(designs, rng);
  return designs;
}

// Warmup pairs first, then the measured pairs.
void append_pairs(const BenchmarkSpec& b, int bi, const std::string& schedule, std::mt19937_64& rng,
                  std::vector<Step>& out) {
  std::vector<std::string> kinds;
  if (b.mixed_plan()) {
    kinds.insert(kinds.end(), b.duet_repetitions, "duet");
    kinds.insert(kinds.end(), b.sync_repetitions, "sync-duet");
    kinds.insert(kinds.end(), b.sequential_repetitions, "sequential");
    shuffle(kinds, rng);
  } else {
    kinds.assign(b.instances, schedule);
  }
  if (kinds.empty()) return;
  for (int w = b.warmup; w > 0; --w)
    out.push_back(pair(bi, -w, kinds.front(), static_cast<unsigned>(rng() & 3U)));
  // Balanced within each kind of pair, so that every kind's estimate is.
  std::vector<unsigned> designs(kinds.size());
  for (const char* kind : {"duet", "sync-duet", "sequential"}) {
    std::vector<size_t> at;
    for (size_t i = 0; i < kinds.size(); ++i)
      if (kinds[i] == kind) at.push_back(i);
    const auto dealt = balanced_designs(static_cast<int>(at.size()), rng);
    for (size_t k = 0; k < at.size(); ++k) designs[at[k]] = dealt[k];
  }
  for (int i = 0; i < static_cast<int>(kinds.size()); ++i)
    out.push_back(pair(bi, i, kinds[i], designs[static_cast<size_t>(i)]));
}

// interleaved: `instances` rounds of one instance of each variant, each round in its own
// seeded random order. With two variants the rounds are AB or BA equally often (up to one
// when the count is odd), dealt in a random order: a drift over the benchmark's instances
// falls on both sides alike, and no periodic disturbance can line up with one side.
void append_interleaved(const BenchmarkSpec& b, int bi, std::mt19937_64& rng,
                        std::vector<Step>& out) {
  append_warmups(b, bi, "interleaved", out);
  const int nv = static_cast<int>(b.variants.size());
  std::vector<int> order(static_cast<size_t>(nv));
  std::vector<unsigned> b_first;  // 1: the round starts with B
  if (nv == 2) {
    for (int i = 0; i < b.instances; ++i) b_first.push_back(static_cast<unsigned>(i % 2));
    if (b.instances % 2 == 1) b_first.back() = static_cast<unsigned>(rng() & 1U);
    shuffle(b_first, rng);
  }
  for (int i = 0; i < b.instances; ++i) {
    for (int v = 0; v < nv; ++v) order[static_cast<size_t>(v)] = v;
    if (nv == 2 && b_first[static_cast<size_t>(i)] != 0) std::swap(order[0], order[1]);
    if (nv > 2) shuffle(order, rng);
    for (const int v : order) out.push_back(single(bi, v, i, "interleaved"));
  }
}

}  // namespace

std::string Step::start_order() const {
  if (!pair()) return "";
  return slots[0].variant == 0 ? "AB" : "BA";
}

bool is_known_schedule(const std::string& name) {
  return name == "interleaved" || name == "sequential" || name == "alternate" ||
         name == "randomized" || name == "duet" || name == "sync-duet";
}

bool runs_in_pairs(const BenchmarkSpec& b, const std::string& schedule) {
  return b.mixed_plan() || schedule == "duet" || schedule == "sync-duet";
}

Result<Suite> pair_variants(const Suite& suite, const std::string& schedule) {
  Suite out = suite;
  for (auto& b : out.benchmarks) {
    if (!runs_in_pairs(b, schedule)) continue;
    if (b.variants.size() == 1) {
      VariantSpec a = b.variants[0], copy = b.variants[0];
      a.name = "A";
      copy.name = "B";
      b.variants = {a, copy};
    } else if (b.variants.size() != 2) {
      return Error{"benchmark '" + b.name + "' has " + std::to_string(b.variants.size()) +
                   " variants; a duet or mixed plan compares exactly two (A and B), or one "
                   "against itself"};
    }
  }
  return out;
}

Result<std::vector<Step>> make_order(const Suite& suite, const std::string& schedule,
                                     uint64_t seed) {
  if (!is_known_schedule(schedule))
    return Error{"unknown schedule '" + schedule + "' (known: " + std::string(kKnownSchedules) +
                 ")"};
  for (const auto& b : suite.benchmarks)
    if (runs_in_pairs(b, schedule) && b.variants.size() != 2)
      return Error{"benchmark '" + b.name + "' runs in A/B pairs but has " +
                   std::to_string(b.variants.size()) + " variants"};

  // Two streams: the shuffle of `randomized` keeps the order earlier versions gave a seed.
  std::mt19937_64 shuffle_rng(seed);
  std::mt19937_64 pair_rng(seed ^ 0x9e3779b97f4a7c15ULL);
  std::mt19937_64 round_rng(seed ^ 0xbf58476d1ce4e5b9ULL);
  std::vector<Step> order;
  std::vector<Step> shuffled;  // randomized: the measured single instances
  const int nb = static_cast<int>(suite.benchmarks.size());
  for (int bi = 0; bi < nb; ++bi) {
    const auto& b = suite.benchmarks[bi];
    const int nv = static_cast<int>(b.variants.size());
    if (runs_in_pairs(b, schedule)) {
      if (schedule != "randomized") append_pairs(b, bi, schedule, pair_rng, order);
      continue;
    }
    if (schedule == "interleaved") {
      append_interleaved(b, bi, round_rng, order);
    } else if (schedule == "sequential") {
      for (int v = 0; v < nv; ++v) {
        for (int w = b.warmup; w > 0; --w) order.push_back(single(bi, v, -w, schedule));
        for (int i = 0; i < b.instances; ++i) order.push_back(single(bi, v, i, schedule));
      }
    } else if (schedule == "alternate") {
      append_warmups(b, bi, schedule, order);
      for (int i = 0; i < b.instances; ++i)
        for (int v = 0; v < nv; ++v) order.push_back(single(bi, v, i, schedule));
    } else {  // randomized
      append_warmups(b, bi, schedule, order);
      for (int v = 0; v < nv; ++v)
        for (int i = 0; i < b.instances; ++i) shuffled.push_back(single(bi, v, i, schedule));
    }
  }
  if (schedule == "randomized") {
    shuffle(shuffled, shuffle_rng);
    // Instance indices within a (benchmark, variant) follow execution order.
    std::vector<std::vector<int>> next(nb);
    for (int bi = 0; bi < nb; ++bi) next[bi].assign(suite.benchmarks[bi].variants.size(), 0);
    for (auto& s : shuffled) s.slots[0].instance = next[s.slots[0].benchmark][s.slots[0].variant]++;
    order.insert(order.end(), shuffled.begin(), shuffled.end());
    for (int bi = 0; bi < nb; ++bi)
      if (runs_in_pairs(suite.benchmarks[bi], schedule))
        append_pairs(suite.benchmarks[bi], bi, schedule, pair_rng, order);
  }
  return order;
}

}  // namespace benchguard::schedule
