// Dies by the signal given: bg_kill_self SIGNAL
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

int main(int argc, char** argv) {
  const int sig = argc > 1 ? std::atoi(argv[1]) : SIGKILL;
  signal(sig, SIG_DFL);
  kill(getpid(), sig);
  pause();
  return 0;
}
