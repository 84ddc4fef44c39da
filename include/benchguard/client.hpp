// benchguard client: lets a C++ program report its iterations to benchguard.
//
//   #include <benchguard/client.hpp>
//   int main() {
//     benchguard::Client bg;                       // reads BENCHGUARD_* from the environment
//     for (int i = 0; i < bg.iterations(10); ++i)  // 10 when run outside benchguard
//       bg.measure([&] { work(); });
//   }
//
// Under `benchguard run` each measured iteration becomes one JSON line in the file named
// by BENCHGUARD_RESULTS (the iteration protocol, docs/protocol.md). Outside benchguard the
// client measures just the same and reports nothing. Under a sync-duet schedule measure()
// first waits for the other side (BENCHGUARD_BARRIER, barrier.hpp), so that both sides start
// every iteration together. Under `--measure instructions` each measured iteration also
// reports the instructions it executed (instruction_count.hpp, with Valgrind's headers when
// they are installed); where hardware counters work, it reports its own instructions, cycles,
// branch and cache misses (iteration_counters.hpp). Header-only, no other dependencies.
#pragma once

#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "benchguard/barrier.hpp"
#include "benchguard/instruction_count.hpp"
#include "benchguard/iteration_counters.hpp"

namespace benchguard {

class Client {
 public:
  Client() {
    shift_heap();
    if (const char* path = std::getenv("BENCHGUARD_RESULTS"); path != nullptr && *path != '\0')
      out_ = std::fopen(path, "a");
    iterations_ = env_int("BENCHGUARD_ITERATIONS", -1);
    burn_in_ = env_int("BENCHGUARD_BURN_IN", 0);
    if (const char* name = std::getenv("BENCHGUARD_BARRIER"); name != nullptr && *name != '\0')
      barrier_ = SharedBarrier::attach(name);
    // Under Valgrind the simulation counts; hardware counters would count the simulator.
    if (count_.active()) counters_ = IterationCounters(nullptr);
  }
  ~Client() {
    if (out_ != nullptr) std::fclose(out_);
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // True when running under benchguard.
  bool active() const { return out_ != nullptr; }

  // Iterations to run (burn-in included): what benchguard asks for, else `fallback`.
  int iterations(int fallback) const { return iterations_ > 0 ? iterations_ : fallback; }
  int burn_in() const { return burn_in_; }

  static int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  }

  // Under a sync-duet, waits until the other side is ready for its next iteration too;
  // otherwise returns at once. measure() calls it; call it yourself before an iteration
  // you time and report() on your own.
  void sync() { barrier_.wait(); }

  // Times one call of f as the next iteration and reports it. Returns the seconds taken.
  // Under `--measure instructions` the iteration also reports the instructions f executed
  // (instruction_count.hpp); where hardware counters work, the counts of its events
  // (iteration_counters.hpp).
  template <class F>
  double measure(F&& f) {
    return measure_batch(std::forward<F>(f), 1);
  }

  // Runs `batch` calls of f back to back as the next iteration, and reports the seconds one
  // call took as its wall_time, and its counts (instructions under `--measure instructions`,
  // hardware counters where they work) as one call's share of the batch's. Returns the
  // seconds per call.
  template <class F>
  double measure_batch(F&& f, uint64_t batch) {
    sync();
    // The counters are read outside the timed span, so that their cost is not timed.
    counters_.begin();
    const int64_t start = now_ns();
    count_.begin();
    for (uint64_t k = 0; k < batch; ++k) f();
    const auto counted = count_.end();
    const int64_t end = now_ns();
    std::vector<std::pair<std::string, double>> metrics;
    counters_.end(metrics, batch);
    const double n = static_cast<double>(batch == 0 ? 1 : batch);
    const double per_op = static_cast<double>(end - start) * 1e-9 / n;
    if (counted) metrics.emplace_back("instructions", static_cast<double>(*counted) / n);
    write(start, end, per_op, metrics);
    return per_op;
  }

  // For an iteration timed by the caller: just before and just after its work. end_count()
  // gives what the work counted, to pass on to report(): the instructions it executed under
  // `--measure instructions`, the counts of the hardware counters where they work, and
  // nothing otherwise.
  void begin_count() {
    counters_.begin();
    count_.begin();
  }
  std::vector<std::pair<std::string, double>> end_count() {
    std::vector<std::pair<std::string, double>> metrics;
    if (const auto counted = count_.end())
      metrics.emplace_back("instructions", static_cast<double>(*counted));
    counters_.end(metrics);
    return metrics;
  }

  // Reports an iteration timed by the caller, with optional extra metrics
  // (name, value); wall_time is derived from the timestamps.
  void report(int64_t start_ns, int64_t end_ns,
              const std::vector<std::pair<std::string, double>>& metrics = {}) {
    write(start_ns, end_ns, static_cast<double>(end_ns - start_ns) * 1e-9, metrics);
  }

 private:
  void write(int64_t start_ns, int64_t end_ns, double wall_time,
             const std::vector<std::pair<std::string, double>>& metrics) {
    const int index = next_++;
    if (out_ == nullptr) return;
    std::fprintf(out_,
                 "{\"iteration\":%d,\"start_ns\":%lld,\"end_ns\":%lld,\"burn_in\":%s,"
                 "\"metrics\":{\"wall_time\":%.9g",
                 index, static_cast<long long>(start_ns), static_cast<long long>(end_ns),
                 index < burn_in_ ? "true" : "false", wall_time);
    for (const auto& [name, value] : metrics)
      std::fprintf(out_, ",\"%s\":%.17g", name.c_str(), value);
    std::fputs("}}\n", out_);
    // One line per iteration reaches the file at once: a crash loses at most this one.
    std::fflush(out_);
  }

  // Under `layout: randomized` (docs/measurement.md): once per process, holds on to
  // BENCHGUARD_HEAP_OFFSET bytes of heap, so that what the benchmark allocates next starts at
  // an offset that differs from instance to instance.
  static void shift_heap() {
    static void* const held = [] {
      const int bytes = env_int("BENCHGUARD_HEAP_OFFSET", 0);
      void* p =
          bytes > 0 && bytes <= 65536 ? std::malloc(static_cast<std::size_t>(bytes)) : nullptr;
      if (p != nullptr) static_cast<volatile char*>(p)[0] = 0;
      return p;
    }();
    (void)held;
  }

  static int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') return fallback;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return (end != nullptr && *end == '\0') ? static_cast<int>(n) : fallback;
  }

  std::FILE* out_ = nullptr;
  SharedBarrier barrier_;
  InstructionCount count_;
  IterationCounters counters_;
  int iterations_ = -1;
  int burn_in_ = 0;
  int next_ = 0;
};

}  // namespace benchguard
