#include "measure/hook.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "measure/clock.hpp"
#include "measure/environment.hpp"
#include "measure/spawn.hpp"

namespace benchguard::measure {

namespace {

// The last non-empty line of `text`, without its line end (and at most 500 bytes of it).
std::string last_line(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' ')) --end;
  const std::size_t nl = text.find_last_of('\n', end == 0 ? 0 : end - 1);
  std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
  if (end - begin > 500) begin = end - 500;
  return text.substr(begin, end - begin);
}

}  // namespace

std::string HookResult::failure(const std::string& which) const {
  std::string out = which;
  if (!start_error.empty()) return out + " could not start: " + start_error;
  if (signal != 0)
    out += " killed by signal " + std::to_string(signal);
  else
    out += " exited " + std::to_string(exit_code);
  if (!last_error_line.empty()) out += ": " + last_error_line;
  return out;
}

Result<HookResult> run_hook(const std::string& script, const std::string& cwd, const KeyValues& env,
                            bool show_output) {
  BG_TRY(validate_env(env));
  const ChildEnvironment child_env(env);
  static const std::string kShell = "/bin/sh";
  std::string dash_c = "-c";
  std::string text = script;
  char* argv[] = {const_cast<char*>(kShell.c_str()), dash_c.data(), text.data(), nullptr};

  // Standard error goes to an unnamed file, not a pipe: a hook that starts a server in the
  // background leaves it running with the descriptor open, and a pipe would never end.
  const UniqueFd err(
      open(std::filesystem::temp_directory_path().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (err.get() < 0)
    return Error{std::string("cannot run a hook: a temporary file: ") + std::strerror(errno)};
  SpawnRequest req;
  req.program = &kShell;
  req.path = kShell.c_str();
  req.argv = argv;
  req.envp = child_env.envp();
  req.cwd = cwd.empty() ? nullptr : cwd.c_str();
  req.stdin_fd = devnull_fd();
  req.stdout_fd = show_output ? -1 : devnull_fd();
  req.stderr_fd = err.get();
  HookResult result;
  const int64_t start = monotonic_ns();
  BG_ASSIGN(const Spawned spawned, spawn_vfork(req));
  int status = 0;
  while (waitpid(spawned.pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.seconds = static_cast<double>(monotonic_ns() - start) * 1e-9;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);

  // Only the tail matters for the failure text; with show_output all of it is copied out.
  const off_t size = lseek(err.get(), 0, SEEK_END);
  const off_t from = show_output || size < 4096 ? 0 : size - 4096;
  std::string text_err;
  char buf[4096];
  for (off_t at = from; at < size;) {
    const ssize_t n = pread(err.get(), buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (show_output) (void)!write(STDERR_FILENO, buf, static_cast<size_t>(n));
    text_err.append(buf, static_cast<size_t>(n));
    if (text_err.size() > 8192) text_err.erase(0, text_err.size() - 4096);
    at += n;
  }
  result.last_error_line = last_line(text_err);
  return result;
}

HookResult run_hook_or_fail(const std::string& script, const std::string& cwd, const KeyValues& env,
                            bool show_output) {
  auto ran = run_hook(script, cwd, env, show_output);
  if (ran.ok()) return std::move(ran.value());
  HookResult failed;
  failed.start_error = ran.error().message;
  return failed;
}

}  // namespace benchguard::measure
