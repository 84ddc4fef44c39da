// How an instance is started, for tests and diagnostics: Child::start() picks a vfork-style clone,
// or fork + exec when hardware counters are wanted and available. Forcing the fork path,
// or other perf events (software ones work in VMs without a PMU), exercises the counter
// machinery where hardware counters are missing.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "measure/counters.hpp"
#include "measure/memory_group.hpp"
#include "measure/memory_sampler.hpp"
#include "measure/process.hpp"

namespace benchguard::measure {

enum class LaunchMethod { kAuto, kVfork, kFork };

struct LaunchOptions {
  LaunchMethod method = LaunchMethod::kAuto;
  // Opened with the fork method and reported as instructions, cycles, then the counts named
  // kHardwareCounts (in this order).
  // Unset: hardware_counter_events() when spec.counters and counters_available().
  std::optional<std::vector<CounterEvent>> events;
  // How often the tree's memory is sampled while wait() waits.
  std::chrono::nanoseconds sample_interval = kMemorySampleInterval;
  // Where the peak memory comes from. Unset: BENCHGUARD_MEMORY_SOURCE (auto when unset).
  std::optional<MemorySourceRequest> memory_source;
};

Result<std::unique_ptr<Child>> start_child(const LaunchSpec& spec, const LaunchOptions& options);

}  // namespace benchguard::measure
