// Running the benchguard binary the way hostile conditions meet it: as another user (root
// ignores file modes, so a read-only file proves nothing to it), or with a file size limit
// standing in for a full disk.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard::testing {

struct ChildLimits {
  // Drop to nobody (uid and gid 65534, no supplementary groups) when running as root.
  bool as_nobody = false;
  // RLIMIT_FSIZE in bytes, SIGXFSZ ignored (writes past it fail with EFBIG); 0: none.
  rlim_t file_size_limit = 0;
};

// Whether this process can run children as another user.
inline bool can_drop_privileges() {
  return ::geteuid() == 0;
}

inline CliResult run_cli_limited(const std::vector<std::string>& args, const ChildLimits& limits) {
  TempDir io;
  const std::string out_path = io.file("out");
  const std::string err_path = io.file("err");
  std::vector<std::string> argv_s{BG_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  CliResult r;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(120);
    if (limits.as_nobody && ::geteuid() == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
        ::_exit(121);
    }
    if (limits.file_size_limit > 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // ignored stays ignored across exec
      const struct rlimit rl { limits.file_size_limit, limits.file_size_limit };
      if (::setrlimit(RLIMIT_FSIZE, &rl) != 0) ::_exit(122);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out);
  ::close(err);
  if (pid < 0) {
    r.err = "fork failed";
    return r;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

}  // namespace benchguard::testing
