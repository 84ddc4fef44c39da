#include "cluster/shard.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "schedule/order.hpp"

namespace benchguard::cluster {

using schedule::shuffle;

Result<Suite> sharded_suite(const Suite& suite, const std::string& schedule) {
  return schedule::pair_variants(suite, schedule);
}

Result<std::vector<Unit>> suite_units(const Suite& suite, const std::string& schedule,
                                      uint64_t seed) {
  BG_ASSIGN(const auto order, schedule::make_order(suite, schedule, seed));
  std::vector<Unit> units;
  for (const auto& step : order) {
    if (step.warmup()) continue;
    for (const auto& slot : step.slots)
      units.push_back({slot.benchmark, slot.variant, slot.instance, -1});
  }
  return units;
}

std::vector<Unit> assign_tasks(std::vector<Unit> units, int tasks, uint64_t seed) {
  tasks = std::max(tasks, 1);
  std::mt19937_64 rng(seed ^ 0x5bd1e9955bd1e995ULL);
  std::vector<int> task_order(static_cast<size_t>(tasks));
  for (int t = 0; t < tasks; ++t) task_order[static_cast<size_t>(t)] = t;
  shuffle(task_order, rng);

  // Rounds by benchmark, in benchmark order; within a benchmark by instance index.
  std::map<int, std::set<int>> rounds;
  for (const auto& u : units) rounds[u.benchmark].insert(u.instance);
  std::map<std::pair<int, int>, int> task_of;  // (benchmark, instance) -> task
  size_t next = 0;
  for (const auto& [benchmark, indices] : rounds) {
    std::vector<int> dealt(indices.begin(), indices.end());
    shuffle(dealt, rng);
    for (const int instance : dealt)
      task_of[{benchmark, instance}] = task_order[next++ % task_order.size()];
  }
  for (auto& u : units) u.task = task_of[{u.benchmark, u.instance}];
  return units;
}

int useful_tasks(const std::vector<Unit>& units, int wanted) {
  std::set<std::pair<int, int>> rounds;
  for (const auto& u : units) rounds.insert({u.benchmark, u.instance});
  return std::max(1, std::min(wanted, static_cast<int>(rounds.size())));
}

}  // namespace benchguard::cluster
