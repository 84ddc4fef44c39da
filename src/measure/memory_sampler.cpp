#include "measure/memory_sampler.hpp"

#include <algorithm>

namespace benchguard::measure {

MemorySampler::MemorySampler(std::chrono::nanoseconds interval) : interval_(interval) {}

MemorySampler::~MemorySampler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

MemorySampler& MemorySampler::shared() {
  static MemorySampler sampler;
  return sampler;
}

uint64_t MemorySampler::watch(pid_t root) {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t ticket = next_ticket_++;
  watches_.push_back(Watch{ticket, root, Clock::now() + interval_, false, {}, 0});
  if (!thread_.joinable()) {
    thread_ = std::thread([this] { run(); });
  } else if (idle_) {
    // Only an idle thread needs waking: a waiting one has a deadline no later than ours.
    idle_ = false;
    lock.unlock();
    cv_.notify_one();
  }
  return ticket;
}

MemoryStats MemorySampler::unwatch(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(watches_.begin(), watches_.end(),
                         [ticket](const Watch& w) { return w.ticket == ticket; });
  if (it == watches_.end()) return {};
  MemoryStats stats = it->stats;
  if (stats.samples > 0) stats.avg_bytes = it->sum / stats.samples;
  // Order does not matter; swap-and-pop keeps this O(1) after the search.
  *it = watches_.back();
  watches_.pop_back();
  return stats;
}

void MemorySampler::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    Clock::time_point due = Clock::time_point::max();
    for (const auto& w : watches_)
      if (!w.done) due = std::min(due, w.due);
    if (due == Clock::time_point::max()) {
      // Nothing to sample: sleep until watch() wakes us.
      idle_ = true;
      cv_.wait(lock, [this] { return stop_ || !idle_; });
      continue;
    }
    if (Clock::now() < due) {
      cv_.wait_until(lock, due);
      continue;
    }
    take_samples(lock);
  }
}

void MemorySampler::take_samples(std::unique_lock<std::mutex>& lock) {
  const Clock::time_point now = Clock::now();
  std::vector<uint64_t> tickets;
  std::vector<pid_t> roots;
  for (const auto& w : watches_) {
    if (w.done || w.due > now) continue;
    tickets.push_back(w.ticket);
    roots.push_back(w.root);
  }
  // /proc is read without the lock, so that launches and unwatch() never wait for it.
  lock.unlock();
  const std::vector<int64_t> rss = table_.sample(roots);
  lock.lock();
  const Clock::time_point after = Clock::now();
  for (size_t i = 0; i < tickets.size(); ++i) {
    auto it = std::find_if(watches_.begin(), watches_.end(),
                           [&](const Watch& w) { return w.ticket == tickets[i]; });
    if (it == watches_.end()) continue;  // unwatched meanwhile
    if (rss[i] < 0) {
      it->done = true;
      continue;
    }
    it->stats.peak_bytes = std::max(it->stats.peak_bytes, rss[i]);
    it->sum += static_cast<double>(rss[i]);
    ++it->stats.samples;
    // Keep the cadence, but never schedule in the past after a slow scan.
    it->due = std::max(it->due + interval_, after);
  }
}

}  // namespace benchguard::measure
