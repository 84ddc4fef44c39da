// Commits checked out in worktrees of their own and built there, for `ab`, `bisect`, `confirm`
// and `gate --confirm` (docs/bisect.md). Worktrees and build stamps live in the repository's
// git directory (<git-common-dir>/benchguard/), are made once per commit and reused by later
// commands, up to the cache's limit (vcs/worktree_cache.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "vcs/worktree_cache.hpp"

namespace benchguard::vcs {

// The top-level directory of the repository `dir` is in.
Result<std::string> toplevel(const std::string& dir);

// The full hash of the commit `rev` names in the repository at `dir`; an Error naming `rev`
// when it names none.
Result<std::string> resolve_commit(const std::string& dir, const std::string& rev);

// The first-parent commits after `good` up to and including `bad`, oldest first (the last is
// `bad`). An Error when `good` is not an ancestor of `bad`.
Result<std::vector<std::string>> commits_between(const std::string& dir, const std::string& good,
                                                 const std::string& bad);

// The first parent of `commit`; an Error when it has none.
Result<std::string> parent_of(const std::string& dir, const std::string& commit);

// A worktree checked out for a command, and its hold on it: the cache keeps it while the lease
// lives (vcs/worktree_cache.hpp).
struct Worktree {
  std::string path;
  std::shared_ptr<WorktreeLease> lease;
};

// A detached worktree of `commit` (a full hash), made with `git worktree add` the first time
// and reused after (its use recorded); making one removes the least recently used worktrees
// no command holds beyond `limit` (default: cache_limit(), an Error when it is malformed).
Result<Worktree> checkout(const std::string& dir, const std::string& commit);
Result<Worktree> checkout(const std::string& dir, const std::string& commit,
                          const CacheLimit& limit);

struct BuildOutcome {
  bool ok = false;
  bool cached = false;  // an earlier build of this commit with this command decided it
  int exit_code = 0;
  std::string log;  // its output, standard error included
};

// Runs `command` through /bin/sh -c in `worktree` unless an earlier build of `commit` with the
// same command succeeded or failed (a stamp in the git directory). An Error only when the
// shell cannot be started; a failed build is an outcome.
Result<BuildOutcome> build(const std::string& dir, const std::string& commit,
                           const std::string& worktree, const std::string& command);

}  // namespace benchguard::vcs
