// The history of a branch, as `benchguard history --repo` and `detect --repo` order series by.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::vcs {

struct Commit {
  std::string hash;     // full hash
  int64_t time_ns = 0;  // committer time, unix ns
};

// The first-parent history of `rev` (a branch, tag or hash; "HEAD" when empty) in the
// repository at `dir`, oldest first: the commits a branch's tip went through, merges counted
// once, side branches left out (`git rev-list --first-parent`). An Error naming the repository
// when git is missing, `dir` is not a repository or `rev` names no commit.
Result<std::vector<Commit>> first_parent_history(const std::string& dir, const std::string& rev);

}  // namespace benchguard::vcs
