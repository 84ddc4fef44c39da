// Reports one iteration to the file named by BENCHGUARD_RESULTS, as a benchmark run by
// `benchguard run` does.
#include <benchguard/client.hpp>

int main() {
  benchguard::Client bg;
  volatile int sink = 0;
  bg.measure([&] {
    for (int i = 0; i < 1000; ++i) sink = sink + i;
  });
  return bg.active() ? 0 : 3;
}
