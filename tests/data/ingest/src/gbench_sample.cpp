// A tiny Google Benchmark program whose JSON output is the importer tests' data
// (tests/data/regenerate.sh builds and runs it). Each benchmark shows one thing the
// importer must handle: rates, a user counter, time units, an error, a complexity fit.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

// bytes_per_second, in the default unit (ns).
static void BM_Memcpy(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::vector<char> src(n, 'x'), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Memcpy)->Arg(4096);

// items_per_second and a user counter (not imported), in microseconds.
static void BM_Accumulate(benchmark::State& state) {
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), 0);
  for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 1000);
  state.counters["elements"] = 1000;
}
BENCHMARK(BM_Accumulate)->Unit(benchmark::kMicrosecond);

// Milliseconds.
static void BM_StringBuild(benchmark::State& state) {
  for (auto _ : state) {
    std::string s;
    for (int i = 0; i < 20000; ++i) s += std::to_string(i);
    benchmark::DoNotOptimize(s.data());
  }
}
BENCHMARK(BM_StringBuild)->Unit(benchmark::kMillisecond);

// A benchmark that reports an error: a failed instance.
static void BM_Unavailable(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("device not found");
    break;
  }
}
BENCHMARK(BM_Unavailable);

// Sorting at several sizes, with a complexity fit (the _BigO and _RMS rows).
static void BM_Sort(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::vector<unsigned> data(n);
  for (auto _ : state) {
    state.PauseTiming();
    unsigned x = 12345;
    for (auto& d : data) d = x = x * 1103515245u + 12345u;
    state.ResumeTiming();
    std::sort(data.begin(), data.end());
    benchmark::DoNotOptimize(data.data());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_Sort)->RangeMultiplier(4)->Range(64, 4096)->Complexity(benchmark::oNLogN);

BENCHMARK_MAIN();
