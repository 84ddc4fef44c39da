#include "measure/wait.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include <algorithm>
#include <cerrno>

#include "measure/clock.hpp"

namespace benchguard::measure {
namespace {

timespec to_timespec(int64_t ns) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1000000000);
  ts.tv_nsec = static_cast<long>(ns % 1000000000);
  return ts;
}

bool exited_now(pid_t pid) {
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
    if (errno != EINTR) return true;  // ECHILD: nothing left to wait for
  }
  return info.si_pid != 0;
}

}  // namespace

bool wait_exit(pid_t pid, int pidfd, int64_t deadline_ns) {
  if (deadline_ns < 0) {
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0) {
      if (errno != EINTR) break;
    }
    return true;
  }
  while (true) {
    const int64_t left = deadline_ns - monotonic_ns();
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      const timespec ts = to_timespec(std::max<int64_t>(left, 0));
      const int rc = ppoll(&p, 1, &ts, nullptr);
      if (rc > 0) return true;
      if (rc == 0) return false;
      if (errno != EINTR) return exited_now(pid);
      continue;
    }
    // No pidfd (kernels before 5.3): poll waitid every millisecond.
    if (exited_now(pid)) return true;
    if (left <= 0) return false;
    const timespec ts = to_timespec(std::min<int64_t>(left, 1000000));
    nanosleep(&ts, nullptr);
  }
}

void signal_group(pid_t pid, int sig) {
  kill(-pid, sig);
  kill(pid, sig);
}

}  // namespace benchguard::measure
