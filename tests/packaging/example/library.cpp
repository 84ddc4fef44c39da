// Uses the library: its version and one of its statistics.
#include <cstdio>
#include <vector>

#include "core/version.hpp"
#include "stats/descriptive.hpp"

int main() {
  const std::vector<double> x{1.0, 2.0, 3.0, 10.0};
  std::printf("benchguard %s median %g\n", benchguard::kVersion, benchguard::stats::median(x));
  return 0;
}
