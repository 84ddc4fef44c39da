// Writes N iteration lines to $BENCHGUARD_RESULTS: bg_protocol_writer N [--truncate]
// With --truncate it then writes half a line and dies by SIGKILL, as a benchmark killed
// while reporting would.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static long long now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 3;
  const char* path = std::getenv("BENCHGUARD_RESULTS");
  if (path == nullptr) return 2;
  FILE* f = std::fopen(path, "a");
  if (f == nullptr) return 3;
  for (int i = 0; i < n; ++i) {
    const long long start = now_ns();
    volatile double x = 0;
    for (int k = 0; k < 10000; ++k) x = x + k;
    const long long end = now_ns();
    std::fprintf(f,
                 "{\"iteration\":%d,\"start_ns\":%lld,\"end_ns\":%lld,\"burn_in\":%s,"
                 "\"metrics\":{\"items\":%d}}\n",
                 i, start, end, i == 0 ? "true" : "false", i * 10);
  }
  if (argc > 2 && std::strcmp(argv[2], "--truncate") == 0) {
    std::fprintf(f, "{\"iteration\":%d,\"start_ns\":%lld,\"end", n, now_ns());
    std::fflush(f);
    kill(getpid(), SIGKILL);
  }
  std::fclose(f);
  return 0;
}
