// Writes what a launched instance sees to a file: bg_show_context OUTFILE [ENV_VAR]
//   cpus=0-1  cwd=/...  env=VALUE  own_group=1  sigmask_empty=1  ignored_signals=0
//   stdin=/dev/null  extra_fds=0
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static std::string cpu_list() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(c);
    if (last > c) out += '-' + std::to_string(last);
    c = last;
  }
  return out;
}

static int count_fds_above_2() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.' && std::atoi(e->d_name) > 2) ++n;
    closedir(d);
  }
  return n - 1;  // the directory stream itself
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  char cwd[PATH_MAX] = "";
  if (getcwd(cwd, sizeof cwd) == nullptr) return 3;
  const char* var = argc > 2 ? std::getenv(argv[2]) : nullptr;
  sigset_t mask;
  sigprocmask(SIG_SETMASK, nullptr, &mask);
  bool mask_empty = true;
  int ignored = 0;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    if (sigismember(&mask, sig) == 1) mask_empty = false;
    struct sigaction sa;
    if (sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler == SIG_IGN) ++ignored;
  }
  char in[PATH_MAX] = "";
  const ssize_t n = readlink("/proc/self/fd/0", in, sizeof in - 1);
  if (n > 0) in[n] = '\0';
  const int extra_fds = count_fds_above_2();
  FILE* f = std::fopen(argv[1], "w");
  if (f == nullptr) return 4;
  std::fprintf(f, "cpus=%s\ncwd=%s\nenv=%s\nown_group=%d\nsigmask_empty=%d\n", cpu_list().c_str(),
               cwd, var != nullptr ? var : "(unset)", getpgrp() == getpid() ? 1 : 0,
               mask_empty ? 1 : 0);
  std::fprintf(f, "ignored_signals=%d\nstdin=%s\nextra_fds=%d\n", ignored, in, extra_fds);
  std::fclose(f);
  std::puts("to stdout");
  return 0;
}
