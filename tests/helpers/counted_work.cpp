// Reports iterations through include/benchguard/client.hpp, for the per-iteration instruction
// counts: a set-up of argv[1] loop turns outside any iteration, then as many iterations as
// benchguard asks for (else 3), each argv[2] turns of the same loop, timed by Client::measure
// (MODE measure, the default), by the caller (report: begin_count, end_count and report), or as
// a batch of 4 calls of the work (batch: measure_batch, which reports one call's share).
//   counted_work SETUP WORK [MODE]
#include <benchguard/client.hpp>
#include <cstdlib>
#include <string>

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
  const std::string mode = argc > 3 ? argv[3] : "measure";
  benchguard::Client bg;
  spin(setup);
  for (int i = 0; i < bg.iterations(3); ++i) {
    if (mode == "report") {
      bg.sync();
      const int64_t start = benchguard::Client::now_ns();
      bg.begin_count();
      spin(work);
      const auto counted = bg.end_count();
      const int64_t end = benchguard::Client::now_ns();
      bg.report(start, end, counted);
    } else if (mode == "batch") {
      bg.measure_batch([&] { spin(work); }, 4);
    } else {
      bg.measure([&] { spin(work); });
    }
  }
  return 0;
}
