// git run for its output in a repository, as the files of vcs/ run it.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::vcs {

// What git runs with: no optional locks (a command beside an editor's git), messages in C.
extern const KeyValues kGitEnv;

// git's standard output for `args` in `dir`, its trailing newlines dropped, or an Error saying
// that git cannot `what`.
Result<std::string> git(const std::string& dir, std::vector<std::string> args,
                        const std::string& what);

// Where the worktrees and build stamps of the repository at `dir` live:
// <git-common-dir>/benchguard, shared by all its worktrees.
Result<std::string> state_dir(const std::string& dir);

}  // namespace benchguard::vcs
