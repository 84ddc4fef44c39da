// Reports iterations through include/benchguard/client.hpp: as many as benchguard asks for
// (BENCHGUARD_ITERATIONS), else argv[1]. Each iteration spins for about 200 µs, or for
// argv[2] microseconds.
#include <benchguard/client.hpp>
#include <cstdlib>

int main(int argc, char** argv) {
  const int fallback = argc > 1 ? std::atoi(argv[1]) : 3;
  const long spin_us = argc > 2 ? std::atol(argv[2]) : 200;
  benchguard::Client bg;
  const int n = bg.iterations(fallback);
  for (int i = 0; i < n; ++i) {
    bg.measure([&] {
      const int64_t until = benchguard::Client::now_ns() + spin_us * 1000;
      while (benchguard::Client::now_ns() < until) {
      }
    });
  }
  return 0;
}
