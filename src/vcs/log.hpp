// The history of a branch, as `benchguard history --repo` and `detect --repo` order series by,
// and the commits `run --commits` measures.
#pragma once

#include <cstddef>
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

// The commits `range` names on the first-parent line, oldest first, as `git rev-list
// --first-parent` reads it: `A..B` (after A, up to and including B), or one revision (its whole
// first-parent history). An Error naming `range` when git cannot read it or it holds no commit.
Result<std::vector<std::string>> first_parent_range(const std::string& dir,
                                                    const std::string& range);

// The commits the file at `path` lists, in its order, each once and as its full hash: the
// first word of each line (so `git log --oneline` output will do), blank lines and `#`
// comments left out. An Error naming the file and line of one that names no commit.
Result<std::vector<std::string>> commits_in_file(const std::string& dir, const std::string& path);

// `commits` (oldest first) thinned: with `every` above 1, the newest and every every-th
// before it; then, with `last` above 0, only the newest `last` of those.
std::vector<std::string> thin_commits(std::vector<std::string> commits, std::size_t every,
                                      std::size_t last);

// The local branch `rev` names ("main" for main or refs/heads/main); empty when it names none.
std::string branch_named(const std::string& dir, const std::string& rev);

}  // namespace benchguard::vcs
