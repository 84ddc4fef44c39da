#include "measure/capture.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "measure/environment.hpp"
#include "measure/exec_resolve.hpp"
#include "measure/spawn.hpp"

namespace benchguard::measure {

Result<Captured> capture_output(const std::vector<std::string>& argv, const std::string& cwd,
                                const KeyValues& env) {
  if (argv.empty()) return Error{"cannot run an empty command"};
  BG_TRY(validate_env(env));
  const ChildEnvironment child_env(env);
  BG_ASSIGN(const std::string path, resolve_executable(argv[0], child_env.get("PATH"), cwd));
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    return Error{"cannot run '" + argv[0] + "': pipe: " + std::strerror(errno)};
  SpawnRequest req;
  req.program = &argv[0];
  req.path = path.c_str();
  req.argv = args.data();
  req.envp = child_env.envp();
  req.cwd = cwd.empty() ? nullptr : cwd.c_str();
  req.stdin_fd = devnull_fd();
  req.stdout_fd = pipe_fds[1];
  req.stderr_fd = devnull_fd();
  auto spawned = spawn_vfork(req);
  close(pipe_fds[1]);
  if (!spawned.ok()) {
    close(pipe_fds[0]);
    return spawned.error();
  }
  Captured c;
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    c.out.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(spawned->pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) c.exit_code = WEXITSTATUS(status);
  return c;
}

}  // namespace benchguard::measure
