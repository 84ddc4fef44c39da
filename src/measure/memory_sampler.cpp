#include "measure/memory_sampler.hpp"

#include <algorithm>

#include "measure/clock.hpp"

namespace benchguard::measure {
namespace {

// What one thread learnt of /proc between samples (process_table.hpp). Each waiting thread
// keeps its own, so no lock is taken while a benchmark runs.
ProcessTable& thread_table() {
  thread_local ProcessTable table;
  return table;
}

}  // namespace

TreeSampler::TreeSampler(pid_t root, int64_t start_ns, std::chrono::nanoseconds interval)
    : root_(root), interval_ns_(interval.count()), due_ns_(start_ns + interval.count()) {}

void TreeSampler::sample() {
  if (done_) return;
  const int64_t rss = thread_table().sample({root_})[0];
  if (rss < 0) {
    done_ = true;
    return;
  }
  stats_.peak_bytes = std::max(stats_.peak_bytes, rss);
  sum_ += static_cast<double>(rss);
  ++stats_.samples;
  // Keep the cadence, but never schedule in the past after a slow scan.
  due_ns_ = std::max(due_ns_ + interval_ns_, monotonic_ns());
}

MemoryStats TreeSampler::stats() const {
  MemoryStats out = stats_;
  if (out.samples > 0) out.avg_bytes = sum_ / out.samples;
  return out;
}

}  // namespace benchguard::measure
