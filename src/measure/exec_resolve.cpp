#include "measure/exec_resolve.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace benchguard::measure {
namespace {

Error cannot_run(const std::string& program, const std::string& why) {
  return Error{"cannot run '" + program + "': " + why};
}

// Where the child will find `name`: relative names are looked up in its working directory.
std::string as_seen_by_child(const std::string& name, const std::string& cwd) {
  if (cwd.empty() || name.empty() || name[0] == '/') return name;
  return cwd + "/" + name;
}

enum class Check { kOk, kMissing, kDirectory, kNotExecutable };

Check check_file(const std::string& file) {
  struct stat st {};
  if (stat(file.c_str(), &st) != 0) return Check::kMissing;
  if (S_ISDIR(st.st_mode)) return Check::kDirectory;
  if (access(file.c_str(), X_OK) != 0) return Check::kNotExecutable;
  return Check::kOk;
}

}  // namespace

Result<std::string> resolve_executable(const std::string& program, const char* path_env,
                                       const std::string& cwd) {
  if (program.empty()) return Error{"cannot run an empty command"};
  if (program.find('/') != std::string::npos) {
    switch (check_file(as_seen_by_child(program, cwd))) {
      case Check::kOk:
        return program;
      case Check::kMissing:
        return cannot_run(program, "no such file");
      case Check::kDirectory:
        return cannot_run(program, "is a directory");
      case Check::kNotExecutable:
        return cannot_run(program, "not executable");
    }
  }
  // As execvp: try each PATH entry in order (an empty entry is the working directory) and
  // skip entries that exist but cannot be executed.
  std::string_view path = path_env != nullptr ? path_env : "/bin:/usr/bin";
  bool found_unexecutable = false;
  while (true) {
    const size_t colon = path.find(':');
    const std::string_view dir = path.substr(0, colon);
    std::string candidate = dir.empty() ? program : std::string(dir) + "/" + program;
    const Check c = check_file(as_seen_by_child(candidate, cwd));
    if (c == Check::kOk) return dir.empty() ? "./" + program : candidate;
    if (c == Check::kNotExecutable) found_unexecutable = true;
    if (colon == std::string_view::npos) break;
    path.remove_prefix(colon + 1);
  }
  return cannot_run(program, found_unexecutable ? "not executable" : "not found in PATH");
}

Error exec_error(const std::string& program, int err, const std::string& cwd) {
  if (!cwd.empty()) {
    // Checked only after a failure: a failed chdir in the child looks like a missing program.
    struct stat st {};
    if (stat(cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return cannot_run(program, "working directory '" + cwd + "' does not exist");
  }
  if (err == ENOENT || err == EACCES) {
    // The checks name the cause better than errno (EACCES covers directories, too).
    auto why = resolve_executable(program, std::getenv("PATH"), cwd);
    if (!why.ok()) return why.error();
    // The file is there, so what exec could not find is what it names to run it with.
    if (err == ENOENT) return cannot_run(program, "its #! interpreter or ELF loader is missing");
  }
  if (err == ENOEXEC) return cannot_run(program, "not an executable format (missing #! line?)");
  return cannot_run(program, std::strerror(err));
}

Result<std::string> resolve_executable(const std::string& program) {
  return resolve_executable(program, std::getenv("PATH"), "");
}

}  // namespace benchguard::measure
