#include "schedule/order.hpp"

#include <algorithm>
#include <random>

namespace benchguard::schedule {

namespace {

void append_warmups(const BenchmarkSpec& b, int bi, std::vector<Slot>& out) {
  for (int v = 0; v < static_cast<int>(b.variants.size()); ++v)
    for (int w = b.warmup; w > 0; --w) out.push_back({bi, v, -w});
}

}  // namespace

bool is_known_schedule(const std::string& name) {
  return name == "sequential" || name == "alternate" || name == "randomized";
}

Result<std::vector<Slot>> make_order(const Suite& suite, const std::string& schedule,
                                     uint64_t seed) {
  std::vector<Slot> order;
  const int nb = static_cast<int>(suite.benchmarks.size());
  if (schedule == "sequential") {
    for (int bi = 0; bi < nb; ++bi) {
      const auto& b = suite.benchmarks[bi];
      for (int v = 0; v < static_cast<int>(b.variants.size()); ++v) {
        for (int w = b.warmup; w > 0; --w) order.push_back({bi, v, -w});
        for (int i = 0; i < b.instances; ++i) order.push_back({bi, v, i});
      }
    }
  } else if (schedule == "alternate") {
    for (int bi = 0; bi < nb; ++bi) {
      const auto& b = suite.benchmarks[bi];
      append_warmups(b, bi, order);
      for (int i = 0; i < b.instances; ++i)
        for (int v = 0; v < static_cast<int>(b.variants.size()); ++v) order.push_back({bi, v, i});
    }
  } else if (schedule == "randomized") {
    std::vector<Slot> measured;
    for (int bi = 0; bi < nb; ++bi) {
      const auto& b = suite.benchmarks[bi];
      append_warmups(b, bi, order);
      for (int v = 0; v < static_cast<int>(b.variants.size()); ++v)
        for (int i = 0; i < b.instances; ++i) measured.push_back({bi, v, i});
    }
    // std::shuffle's algorithm is unspecified; a hand-rolled Fisher-Yates over mt19937_64
    // keeps the order identical across standard libraries for the same seed.
    std::mt19937_64 rng(seed);
    for (size_t i = measured.size(); i > 1; --i) {
      const size_t j = static_cast<size_t>(rng() % i);
      std::swap(measured[i - 1], measured[j]);
    }
    // Instance indices within a (benchmark, variant) follow execution order.
    std::vector<std::vector<int>> next(nb);
    for (int bi = 0; bi < nb; ++bi) next[bi].assign(suite.benchmarks[bi].variants.size(), 0);
    for (auto& s : measured) s.instance = next[s.benchmark][s.variant]++;
    order.insert(order.end(), measured.begin(), measured.end());
  } else if (schedule == "duet" || schedule == "sync-duet") {
    return Error{"schedule '" + schedule +
                 "' is not available in this version of benchguard (available: sequential, "
                 "alternate, randomized)"};
  } else {
    return Error{"unknown schedule '" + schedule + "' (known: sequential, alternate, randomized)"};
  }
  return order;
}

}  // namespace benchguard::schedule
