// Peak and average resident memory of process trees, sampled about every 10 ms by one
// background thread shared by all instances (duet runs two at once). The launching thread
// only registers and unregisters a tree: an instance shorter than one interval is never
// sampled and costs two short critical sections.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "measure/process_table.hpp"

namespace benchguard::measure {

struct MemoryStats {
  int64_t peak_bytes = 0;
  double avg_bytes = 0;
  int samples = 0;
};

class MemorySampler {
 public:
  explicit MemorySampler(std::chrono::nanoseconds interval = std::chrono::milliseconds(10));
  ~MemorySampler();  // stops and joins the thread
  MemorySampler(const MemorySampler&) = delete;
  MemorySampler& operator=(const MemorySampler&) = delete;

  // The process-wide sampler that launches use.
  static MemorySampler& shared();

  // Starts sampling the tree rooted at `root` (which leads its own process group); the first
  // sample is taken one interval from now. Returns a ticket for unwatch().
  uint64_t watch(pid_t root);
  // Stops sampling that tree and returns what was seen (samples = 0 if none was taken).
  MemoryStats unwatch(uint64_t ticket);

 private:
  using Clock = std::chrono::steady_clock;
  struct Watch {
    uint64_t ticket = 0;
    pid_t root = 0;
    Clock::time_point due;
    bool done = false;  // the root exited: later samples would only see the remains
    MemoryStats stats;
    double sum = 0;
  };
  void run();
  void take_samples(std::unique_lock<std::mutex>& lock);

  const std::chrono::nanoseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Watch> watches_;
  uint64_t next_ticket_ = 1;
  bool idle_ = false;  // the thread waits without a deadline and needs a notify
  bool stop_ = false;
  std::thread thread_;
  ProcessTable table_;  // used by the sampler thread only
};

}  // namespace benchguard::measure
