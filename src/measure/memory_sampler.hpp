// Peak and average resident memory of one process tree, sampled about every 10 ms by the
// thread that waits for the instance: it sleeps in poll on the child's pidfd until the next
// sample is due, so no other thread runs beside a benchmark. An instance shorter than one
// interval is never sampled and costs nothing. Duet schedules wait for each side on a
// thread of its own, so both trees are sampled.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>

#include "measure/process_table.hpp"

namespace benchguard::measure {

struct MemoryStats {
  int64_t peak_bytes = 0;
  double avg_bytes = 0;
  int samples = 0;
};

inline constexpr std::chrono::nanoseconds kMemorySampleInterval = std::chrono::milliseconds(10);

class TreeSampler {
 public:
  // Samples the tree rooted at `root` (which leads its own process group), the first sample
  // one interval after `start_ns` (CLOCK_MONOTONIC).
  TreeSampler(pid_t root, int64_t start_ns,
              std::chrono::nanoseconds interval = kMemorySampleInterval);

  // When the next sample is due (CLOCK_MONOTONIC ns); -1 once the root has exited.
  int64_t due_ns() const { return done_ ? -1 : due_ns_; }
  // Takes a sample now. Once the root has exited (a zombie or gone) no sample is counted,
  // so that time after the end is not averaged in, and due_ns() turns -1.
  void sample();
  MemoryStats stats() const;

 private:
  pid_t root_;
  int64_t interval_ns_;
  int64_t due_ns_;
  bool done_ = false;
  MemoryStats stats_;
  double sum_ = 0;
};

}  // namespace benchguard::measure
