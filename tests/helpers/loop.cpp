// Runs a loop a given number of times, the same instructions on every run: bg_loop COUNT
// (what an instruction count measures exactly; a 0.5% larger COUNT is about 0.5% more).
#include <cstdlib>

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 1000000;
  volatile unsigned long x = 0;
  for (long i = 0; i < count; ++i) x = x * 3 + 1;
  return x == 42 ? 1 : 0;
}
