// benchguard in-process harness: register C++ benchmarks in a program, run them alone (a
// table) or under `benchguard run` (iterations through the protocol, docs/protocol.md).
//
//   #include <benchguard/benchguard.hpp>
//
//   BENCHGUARD_BENCHMARK(vector_push_back) {        // the body is one operation
//     std::vector<int> v;
//     for (int i = 0; i < 100; ++i) v.push_back(i);
//     benchguard::do_not_optimize(v.data());
//   }
//
//   int main(int argc, char** argv) { return benchguard::run_benchmarks(argc, argv); }
//
// Each sample (one benchguard iteration) runs the operation `batch` times back to back; the
// batch is calibrated once per process so that a sample lasts at least the sample time
// (default 10 ms), as Google Benchmark and nanobench do for code too short to time alone.
// The reported wall_time is the time per operation; the iteration's timestamps are those of
// the whole sample, so duet analysis can pair concurrent samples.
//
// Options: --filter TEXT (the benchmark named TEXT, else those whose name contains it), --list,
// --samples N (when run alone; under benchguard the suite's iterations count), --sample-time
// SECONDS. Under benchguard exactly one benchmark must be selected (give --filter), because one
// instance reports the iterations of one benchmark.
//
// Header-only; the Linux C library and the C++ standard library only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "benchguard/client.hpp"

namespace benchguard {

// Makes the compiler assume `value` is read (and may be written) here, so the computation
// that produced it cannot be optimized away.
template <class T>
inline void do_not_optimize(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}
template <class T>
inline void do_not_optimize(T& value) {
#if defined(__clang__)
  asm volatile("" : "+r,m"(value) : : "memory");
#else
  asm volatile("" : "+m,r"(value) : : "memory");
#endif
}

// Makes the compiler assume all memory may have been read and written here.
inline void clobber_memory() {
  asm volatile("" : : : "memory");
}

struct Benchmark {
  std::string name;
  std::function<void()> op;
};

inline std::vector<Benchmark>& registry() {
  static std::vector<Benchmark> benchmarks;
  return benchmarks;
}

// Registers a benchmark; returns true so it can initialize a static.
inline bool add_benchmark(std::string name, std::function<void()> op) {
  registry().push_back({std::move(name), std::move(op)});
  return true;
}

#define BENCHGUARD_CONCAT_INNER(a, b) a##b
#define BENCHGUARD_CONCAT(a, b) BENCHGUARD_CONCAT_INNER(a, b)
// Defines and registers a benchmark whose body is one operation.
#define BENCHGUARD_BENCHMARK(name)                                                     \
  static void BENCHGUARD_CONCAT(benchguard_op_, name)();                               \
  [[maybe_unused]] static const bool BENCHGUARD_CONCAT(benchguard_registered_, name) = \
      ::benchguard::add_benchmark(#name, &BENCHGUARD_CONCAT(benchguard_op_, name));    \
  static void BENCHGUARD_CONCAT(benchguard_op_, name)()

struct HarnessOptions {
  std::string filter;           // substring of the names to run; empty: all
  int samples = 10;             // per benchmark when run alone
  double sample_time_s = 0.01;  // a sample lasts at least this long
  bool list = false;
};

// The batch: how many operations make one sample of at least `sample_time_s`. Grows the
// batch tenfold from 1 while a trial is far too short, then scales it to the target with 20%
// to spare, and repeats until a trial of the batch lasts the sample time (the first trials
// run on cold caches and are often slower). A trial that lasts the sample time is run once
// more and the shorter of the two counts: a trial the scheduler interrupted (a busy machine)
// would otherwise end calibration with far too small a batch. `now_ns` is the clock
// (injectable for tests).
template <class Op, class Clock>
uint64_t calibrate_batch(Op&& op, double sample_time_s, Clock&& now_ns) {
  const auto target = static_cast<int64_t>(sample_time_s * 1e9);
  uint64_t batch = 1;
  const auto trial = [&] {
    const int64_t start = now_ns();
    for (uint64_t k = 0; k < batch; ++k) op();
    return now_ns() - start;
  };
  for (;;) {
    int64_t took = trial();
    if (took >= target) took = std::min(took, trial());
    if (took >= target) return batch;
    if (took <= 0 || took < target / 100) {
      // Tens of millions of operations in under 1% of the sample time: an empty operation.
      if (batch >= (uint64_t{1} << 24)) return batch;
      batch *= 10;
      continue;
    }
    const double scaled =
        static_cast<double>(batch) * 1.2 * static_cast<double>(target) / static_cast<double>(took);
    batch = std::max<uint64_t>(batch + 1, static_cast<uint64_t>(std::ceil(scaled)));
  }
}

struct SampleStats {
  double median_s = 0;  // per operation
  double min_s = 0;
  double mad_relative = 0;  // median absolute deviation / median
};

inline SampleStats summarize_samples(std::vector<double> per_op) {
  SampleStats s;
  if (per_op.empty()) return s;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  s.median_s = median(per_op);
  s.min_s = *std::min_element(per_op.begin(), per_op.end());
  std::vector<double> dev;
  dev.reserve(per_op.size());
  for (double x : per_op) dev.push_back(std::abs(x - s.median_s));
  s.mad_relative = s.median_s > 0 ? median(dev) / s.median_s : 0;
  return s;
}

// "12.3 ns", "4.56 us", ...
inline std::string format_op_time(double s) {
  char buf[32];
  if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.2f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// Parses the options above; on a bad one writes a line to `err` and returns false.
inline bool parse_harness_args(int argc, char** argv, HarnessOptions& o, std::FILE* err) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--list") {
      o.list = true;
    } else if (arg == "--filter" && has_value) {
      o.filter = argv[++i];
    } else if (arg == "--samples" && has_value) {
      o.samples = std::atoi(argv[++i]);
      if (o.samples < 1) {
        std::fprintf(err, "%s: --samples must be at least 1\n", argv[0]);
        return false;
      }
    } else if (arg == "--sample-time" && has_value) {
      char* end = nullptr;
      o.sample_time_s = std::strtod(argv[++i], &end);
      if (end == nullptr || *end != '\0' || !(o.sample_time_s > 0)) {
        std::fprintf(err, "%s: --sample-time takes seconds, e.g. 0.01\n", argv[0]);
        return false;
      }
    } else {
      std::fprintf(err,
                   "%s: unknown option '%s' (options: --filter TEXT, --list, --samples N, "
                   "--sample-time SECONDS)\n",
                   argv[0], arg.c_str());
      return false;
    }
  }
  return true;
}

// Runs the selected benchmarks: under benchguard, one, reporting each sample as an iteration;
// alone, each for `samples` samples, then a table on `out`. Returns the exit code.
inline int run_benchmarks(const HarnessOptions& o, std::FILE* out, std::FILE* err,
                          const char* program = "benchmark") {
  // A name equal to the filter selects that benchmark alone; otherwise every name that
  // contains the filter.
  std::vector<const Benchmark*> selected;
  for (const auto& b : registry())
    if (b.name == o.filter) selected.push_back(&b);
  if (selected.empty())
    for (const auto& b : registry())
      if (o.filter.empty() || b.name.find(o.filter) != std::string::npos) selected.push_back(&b);
  if (o.list) {
    for (const auto* b : selected) std::fprintf(out, "%s\n", b->name.c_str());
    return 0;
  }
  if (selected.empty()) {
    std::fprintf(err, "%s: no benchmark matches '%s'; --list shows them\n", program,
                 o.filter.c_str());
    return 2;
  }
  Client client;
  if (client.active() && selected.size() != 1) {
    std::fprintf(err,
                 "%s: under benchguard one instance runs one benchmark, but %zu match; select "
                 "one with --filter NAME\n",
                 program, selected.size());
    return 2;
  }
  const int samples = client.iterations(o.samples);
  std::vector<std::pair<const Benchmark*, std::pair<uint64_t, SampleStats>>> rows;
  for (const auto* b : selected) {
    const uint64_t batch = calibrate_batch(b->op, o.sample_time_s, &Client::now_ns);
    std::vector<double> per_op;
    for (int i = 0; i < samples; ++i) per_op.push_back(client.measure_batch(b->op, batch));
    rows.push_back({b, {batch, summarize_samples(per_op)}});
  }
  if (client.active()) return 0;
  std::size_t width = 9;
  for (const auto& r : rows) width = std::max(width, r.first->name.size());
  std::fprintf(out, "%-*s %14s %14s %8s %12s %8s\n", static_cast<int>(width), "benchmark",
               "median/op", "min/op", "+-MAD", "ops/sample", "samples");
  for (const auto& [b, rest] : rows) {
    const auto& [batch, st] = rest;
    std::fprintf(out, "%-*s %14s %14s %7.2f%% %12llu %8d\n", static_cast<int>(width),
                 b->name.c_str(), format_op_time(st.median_s).c_str(),
                 format_op_time(st.min_s).c_str(), 100 * st.mad_relative,
                 static_cast<unsigned long long>(batch), samples);
  }
  return 0;
}

inline int run_benchmarks(int argc, char** argv) {
  HarnessOptions o;
  if (!parse_harness_args(argc, argv, o, stderr)) return 2;
  return run_benchmarks(o, stdout, stderr, argc > 0 ? argv[0] : "benchmark");
}

}  // namespace benchguard
