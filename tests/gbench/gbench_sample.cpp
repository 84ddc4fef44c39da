// A Google Benchmark binary for the tests of `run -- BINARY` and `format: google-benchmark`:
// three short benchmarks, one with a rate counter.
#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

void BM_Spin(benchmark::State& state) {
  for (auto _ : state) {
    uint64_t x = 0;
    for (int64_t i = 0; i < state.range(0); ++i) benchmark::DoNotOptimize(x += i);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Spin)->Arg(1000)->Arg(32000)->MinTime(0.005);

void BM_Other(benchmark::State& state) {
  for (auto _ : state) {
    uint64_t x = 1;
    for (int i = 0; i < 500; ++i) benchmark::DoNotOptimize(x *= 3);
  }
}
BENCHMARK(BM_Other)->MinTime(0.005);

}  // namespace

BENCHMARK_MAIN();
