// Burns CPU in user space: bg_spin MS [CHILDREN]
// The parent and each of CHILDREN forked children spin for MS milliseconds of CPU time.
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

static void spin(long ms) {
  const auto cpu_ns = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
  };
  const long long until = cpu_ns() + ms * 1000000LL;
  volatile unsigned long x = 0;
  while (cpu_ns() < until)
    for (int i = 0; i < 1000; ++i) x = x * 3 + 1;
}

int main(int argc, char** argv) {
  const long ms = argc > 1 ? std::atol(argv[1]) : 50;
  const int children = argc > 2 ? std::atoi(argv[2]) : 0;
  for (int i = 0; i < children; ++i) {
    if (fork() == 0) {
      spin(ms);
      return 0;
    }
  }
  spin(ms);
  while (wait(nullptr) > 0) {
  }
  return 0;
}
