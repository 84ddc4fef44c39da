// The floor for harness overhead: a bare posix_spawn + wait4 loop with nothing measured
// or stored. Prints the total wall time in seconds for N launches of a program.
//   spawn_floor N PROGRAM [ARGS...]
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: spawn_floor N PROGRAM [ARGS...]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  timespec t0{}, t1{};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; ++i) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[2], &fa, nullptr, argv + 2, environ) != 0) {
      std::perror("posix_spawn");
      return 1;
    }
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  std::printf("%.6f\n", static_cast<double>(t1.tv_sec - t0.tv_sec) +
                            static_cast<double>(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
