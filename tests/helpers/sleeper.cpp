// A parent and a forked child that both sleep: bg_sleeper SECONDS [PIDFILE] [FLAG]
// The child writes its pid to PIDFILE (atomically, via rename). FLAG --ignore-term: both
// ignore SIGTERM, so only SIGKILL ends them; --parent-exits: the parent exits as soon as
// the child has written its pid, leaving the child behind.
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

static void sleep_for(double seconds) {
  timespec ts{static_cast<time_t>(seconds),
              static_cast<long>((seconds - static_cast<long>(seconds)) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10;
  const std::string pidfile = argc > 2 ? argv[2] : "";
  const std::string flag = argc > 3 ? argv[3] : "";
  if (flag == "--ignore-term") signal(SIGTERM, SIG_IGN);
  const pid_t child = fork();
  if (child == 0) {
    if (!pidfile.empty()) {
      const std::string tmp = pidfile + ".tmp";
      if (FILE* f = std::fopen(tmp.c_str(), "w")) {
        std::fprintf(f, "%d\n", static_cast<int>(getpid()));
        std::fclose(f);
        std::rename(tmp.c_str(), pidfile.c_str());
      }
    }
    sleep_for(seconds);
    return 0;
  }
  if (flag == "--parent-exits") {
    while (access(pidfile.c_str(), F_OK) != 0) sleep_for(0.001);
    return 0;
  }
  sleep_for(seconds);
  waitpid(child, nullptr, 0);
  return 0;
}
