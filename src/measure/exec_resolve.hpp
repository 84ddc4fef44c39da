// Finding the file a command names, the way execvp does, and saying in one line why it
// cannot run: a missing program is a usage error, never a benchmark failure.
#pragma once

#include <string>

#include "core/result.hpp"

namespace benchguard::measure {

// Searches `path_env` (a PATH value; nullptr means execvp's default "/bin:/usr/bin") unless
// `program` contains a '/'. The child changes to `cwd` (when not empty) before it execs, so
// relative names are checked relative to it; the returned name is not rewritten.
Result<std::string> resolve_executable(const std::string& program, const char* path_env,
                                       const std::string& cwd);

// The same with this process's PATH, as execvp would resolve argv[0] here.
Result<std::string> resolve_executable(const std::string& program);

// The Error for a failed exec of `program` with errno `err`.
Error exec_error(const std::string& program, int err, const std::string& cwd = "");

}  // namespace benchguard::measure
