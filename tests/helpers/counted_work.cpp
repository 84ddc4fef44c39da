// Reports iterations through include/benchguard/client.hpp, for the per-iteration instruction
// counts: a set-up of argv[1] loop turns outside any iteration, then as many iterations as
// benchguard asks for (else 3), each argv[2] turns of the same loop.
//   counted_work SETUP WORK
#include <benchguard/client.hpp>
#include <cstdlib>

namespace {

volatile long sink = 0;

void spin(long turns) {
  long s = 0;
  for (long i = 0; i < turns; ++i) {
    s += i;
    sink = s;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const long setup = argc > 1 ? std::atol(argv[1]) : 0;
  const long work = argc > 2 ? std::atol(argv[2]) : 100000;
  benchguard::Client bg;
  spin(setup);
  for (int i = 0; i < bg.iterations(3); ++i) bg.measure([&] { spin(work); });
  return 0;
}
