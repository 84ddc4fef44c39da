// Hardware counters (instructions, cycles) of a whole process tree via perf_event_open:
// user space only, counted from exec on, inherited by every process the instance forks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace benchguard::measure {

struct CounterEvent {
  uint32_t type = 0;  // PERF_TYPE_*
  uint64_t config = 0;
};

// Instructions, cycles, branch misses, then cache misses: the order LaunchResult reports them
// in (instructions, cycles, then counts named kHardwareCounts).
std::vector<CounterEvent> hardware_counter_events();
inline constexpr const char* kHardwareCounts[] = {"branch_misses", "cache_misses"};

// Open perf events on one process. Move-only; closes its descriptors.
class CounterSet {
 public:
  CounterSet() = default;
  CounterSet(CounterSet&& other) noexcept;
  CounterSet& operator=(CounterSet&& other) noexcept;
  CounterSet(const CounterSet&) = delete;
  CounterSet& operator=(const CounterSet&) = delete;
  ~CounterSet();

  // Opens `events` on `pid`, which must not have exec'd yet: each starts counting when it
  // does (enable_on_exec). An event the kernel refuses is reported unset, never an error.
  static CounterSet open_on_exec(pid_t pid, const std::vector<CounterEvent>& events);

  bool empty() const { return fds_.empty(); }
  // Counts in the order the events were given, scaled when the kernel multiplexed them;
  // unset for an event that was refused or never ran.
  std::vector<std::optional<int64_t>> read() const;

 private:
  void close_all();
  std::vector<int> fds_;
};

}  // namespace benchguard::measure
