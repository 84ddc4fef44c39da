// Asking git about the working directory.
#pragma once

#include <string>

namespace benchguard::vcs {

// The full commit a revision (branch, tag, HEAD~2, abbreviated hash) names in the repository
// at `dir`; empty when git is missing, `dir` is not a repository or the name is unknown.
std::string rev_parse(const std::string& dir, const std::string& rev);

// True when the repository at `dir` is a shallow clone (its history cut short).
bool is_shallow(const std::string& dir);

}  // namespace benchguard::vcs
