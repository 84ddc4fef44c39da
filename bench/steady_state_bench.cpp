// Throughput of steady-state classification: a suite's worth of benchmarks, each with many
// instances of many iterations, as `summary` would analyse after a run.
// Usage: steady_state_bench [benchmarks instances iterations]   (default 144 50 50)
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "stats/steady_state.hpp"

namespace {

using benchguard::stats::BenchmarkSteadyState;
using benchguard::stats::SteadyClass;

// A mix of shapes: flat, a decaying warm-up, a late step, and an occasional spike.
std::vector<double> make_instance(std::mt19937_64& gen, std::size_t iterations, int shape) {
  std::normal_distribution<double> noise(0.0, 0.01);
  std::vector<double> x(iterations);
  for (std::size_t i = 0; i < iterations; ++i) {
    double level = 1.0;
    if (shape == 1) level += 2.0 * std::exp(-static_cast<double>(i) / 2.0);
    if (shape == 2 && i >= iterations * 3 / 4) level = 1.2;
    x[i] = level + noise(gen);
  }
  if (shape == 3 && iterations > 10) x[iterations / 2] *= 5;
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t benchmarks = 144, instances = 50, iterations = 50;
  if (argc == 4) {
    benchmarks = std::strtoul(argv[1], nullptr, 10);
    instances = std::strtoul(argv[2], nullptr, 10);
    iterations = std::strtoul(argv[3], nullptr, 10);
  }

  std::mt19937_64 gen(42);
  std::vector<std::vector<std::vector<double>>> data(benchmarks);
  for (std::size_t b = 0; b < benchmarks; ++b)
    for (std::size_t i = 0; i < instances; ++i)
      data[b].push_back(make_instance(gen, iterations, static_cast<int>((b + i) % 4)));

  std::size_t counts[benchguard::stats::kSteadyClassCount] = {};
  std::size_t burn_in_total = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& bench : data) {
    const BenchmarkSteadyState r = benchguard::stats::classify_benchmark(bench);
    for (std::size_t c = 0; c < benchguard::stats::kSteadyClassCount; ++c)
      counts[c] += r.summary.counts[c];
    burn_in_total += r.summary.recommended_burn_in.value_or(0);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::size_t series = benchmarks * instances;
  std::printf("steady_state_bench: %zu benchmarks x %zu instances x %zu iterations\n", benchmarks,
              instances, iterations);
  std::printf("  classified %zu instances in %.3f ms (%.2f us per instance)\n", series,
              seconds * 1e3, series ? seconds * 1e6 / static_cast<double>(series) : 0.0);
  std::printf("  flat %zu, warmup %zu, slowdown %zu, no steady state %zu; sum of burn-ins %zu\n",
              counts[static_cast<int>(SteadyClass::kFlat)],
              counts[static_cast<int>(SteadyClass::kWarmup)],
              counts[static_cast<int>(SteadyClass::kSlowdown)],
              counts[static_cast<int>(SteadyClass::kNoSteadyState)], burn_in_total);
  return 0;
}
