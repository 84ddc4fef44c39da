// Short operations measured in-process with include/benchguard/benchguard.hpp.
//   inprocess_bench                       # a table of every benchmark
//   inprocess_bench --filter sort_1k      # one of them
//   benchguard run -- ./inprocess_bench --filter sort_1k   # its samples stored as iterations
#include <benchguard/benchguard.hpp>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::vector<int> shuffled(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  uint32_t x = 12345;
  for (auto& e : v) e = static_cast<int>(x = x * 1664525U + 1013904223U);
  return v;
}

const std::vector<int> kInput = shuffled(1000);

}  // namespace

BENCHGUARD_BENCHMARK(sum_1k) {
  long long sum = std::accumulate(kInput.begin(), kInput.end(), 0LL);
  benchguard::do_not_optimize(sum);
}

BENCHGUARD_BENCHMARK(sort_1k) {
  std::vector<int> v = kInput;
  std::sort(v.begin(), v.end());
  benchguard::do_not_optimize(v.data());
  benchguard::clobber_memory();
}

BENCHGUARD_BENCHMARK(string_append_64) {
  std::string s;
  for (int i = 0; i < 64; ++i) s += static_cast<char>('a' + i % 26);
  benchguard::do_not_optimize(s.data());
}

int main(int argc, char** argv) {
  return benchguard::run_benchmarks(argc, argv);
}
