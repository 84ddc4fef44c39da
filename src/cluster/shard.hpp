// Which array task runs which unit of a suite. A unit is one measured instance of a benchmark
// variant, as the whole run would number it. Pure: the same units, task count and seed give
// the same assignment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::cluster {

struct Unit {
  int benchmark = 0;  // index into Suite::benchmarks (after schedule::pair_variants)
  int variant = 0;    // index into BenchmarkSpec::variants
  int instance = 0;   // the instance index the whole run gives it
  int task = -1;      // array task; -1 before assignment
  friend bool operator==(const Unit&, const Unit&) = default;
};

// The suite as its array tasks run it: schedule::pair_variants applied (an A/A duet's
// single variant becomes A and B).
Result<Suite> sharded_suite(const Suite& suite, const std::string& schedule);

// Every measured instance of `suite` (as sharded_suite returns it) under `schedule` and
// `seed`, in the whole run's order; task -1.
Result<std::vector<Unit>> suite_units(const Suite& suite, const std::string& schedule,
                                      uint64_t seed);

// Deals units to `tasks` tasks. A round, the instances of one index of all variants of a
// benchmark, goes to one task: each task holds as many A as B instances of a benchmark, so
// what a machine does to one side it does to the other, and a duet pair stays together. The
// rounds of a benchmark are shuffled and dealt in turn over the tasks in a shuffled task
// order that goes on from one benchmark to the next: the rounds of a benchmark spread evenly
// (counts differ by at most one between tasks), and so do all units when the rounds are of
// one size. `tasks` is at least 1.
std::vector<Unit> assign_tasks(std::vector<Unit> units, int tasks, uint64_t seed);

// The number of tasks worth starting for `units`: at most `wanted`, at most one a round.
int useful_tasks(const std::vector<Unit>& units, int wanted);

}  // namespace benchguard::cluster
