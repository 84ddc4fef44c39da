// A compute-bound in-process benchmark whose work is exactly proportional to --work: each
// iteration runs that many thousand steps of a dependent multiply-add chain, so the time
// scales linearly and a variant with 1.1x the work is 10% slower. Used by examples/ab.yml.
//
//   spin_bench [--work K] [--iterations N]
#include <benchguard/client.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  double work_k = 2000;  // thousands of steps per iteration
  int fallback_iterations = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--work") == 0) {
      work_k = std::strtod(argv[i + 1], nullptr);
    } else if (std::strcmp(argv[i], "--iterations") == 0) {
      fallback_iterations = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "spin_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (work_k <= 0) {
    std::fprintf(stderr, "spin_bench: --work must be positive\n");
    return 2;
  }
  const auto steps = static_cast<uint64_t>(work_k * 1000);
  benchguard::Client bg;
  uint64_t x = 88172645463325252ULL;
  const int iterations = bg.iterations(fallback_iterations);
  for (int it = 0; it < iterations; ++it) {
    const double s = bg.measure([&] {
      // Each step depends on the last: no vectorization, no reordering across steps.
      for (uint64_t k = 0; k < steps; ++k) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    });
    if (!bg.active()) std::printf("iteration %d: %.6f s\n", it, s);
  }
  return x == 42 ? 1 : 0;  // keeps the chain observable
}
