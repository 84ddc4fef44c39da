// One side of a duet: reports iterations through include/benchguard/client.hpp (synchronized
// under sync-duet, unless argv[2] is "nosync"), each spinning for argv[1] microseconds (default
// 2000), with the CPUs it may run on as the metric `affinity` (a bit mask) and the side's
// iteration count as asked.
#include <sched.h>

#include <benchguard/client.hpp>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const long spin_us = argc > 1 ? std::atol(argv[1]) : 2000;
  const bool sync = !(argc > 2 && std::strcmp(argv[2], "nosync") == 0);
  benchguard::Client bg;
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  double mask = 0;
  for (int c = 0; c < 52; ++c)
    if (CPU_ISSET(c, &set)) mask += static_cast<double>(int64_t{1} << c);
  const int n = bg.iterations(3);
  for (int i = 0; i < n; ++i) {
    if (sync) bg.sync();
    const int64_t start = benchguard::Client::now_ns();
    const int64_t until = start + spin_us * 1000;
    while (benchguard::Client::now_ns() < until) {
    }
    bg.report(start, benchguard::Client::now_ns(), {{"affinity", mask}});
  }
  return 0;
}
