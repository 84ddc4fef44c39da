// An in-process benchmark: sorts a fresh shuffled vector each iteration and reports every
// iteration to benchguard through the client. `--scale S` repeats the work S times (a
// fractional part sorts that share of one more vector), so a variant with --scale 1.1 does
// about 10% more work: a known slowdown to check benchguard's verdicts against.
//
//   sort_bench [--n N] [--scale S] [--iterations K]
#include <algorithm>
#include <benchguard/client.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace {

unsigned sort_once(std::vector<unsigned>& v, size_t count, std::mt19937& rng) {
  std::shuffle(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(count), rng);
  std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(count));
  return v[count / 2];
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 200000;
  double scale = 1.0;
  int fallback_iterations = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) {
      n = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (std::strcmp(argv[i], "--scale") == 0) {
      scale = std::strtod(argv[i + 1], nullptr);
    } else if (std::strcmp(argv[i], "--iterations") == 0) {
      fallback_iterations = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "sort_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (n == 0 || scale <= 0) {
    std::fprintf(stderr, "sort_bench: --n and --scale must be positive\n");
    return 2;
  }

  std::vector<unsigned> data(n);
  std::iota(data.begin(), data.end(), 0U);
  std::mt19937 rng(42);
  const int whole = static_cast<int>(scale);
  const auto part = static_cast<size_t>((scale - whole) * static_cast<double>(n));

  benchguard::Client bg;
  unsigned sink = 0;
  const int iterations = bg.iterations(fallback_iterations);
  for (int it = 0; it < iterations; ++it) {
    const double s = bg.measure([&] {
      for (int r = 0; r < whole; ++r) sink += sort_once(data, n, rng);
      if (part > 1) sink += sort_once(data, part, rng);
    });
    if (!bg.active()) std::printf("iteration %d: %.6f s\n", it, s);
  }
  return sink == 0xFFFFFFFFU ? 1 : 0;  // keeps the work observable
}
