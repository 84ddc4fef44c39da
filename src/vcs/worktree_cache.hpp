// The worktree cache (docs/bisect.md, "The worktree cache"): the commits that ab, bisect,
// confirm and gate --confirm check out stay in <git-common-dir>/benchguard/worktrees/<commit>,
// their builds' stamps and logs in builds/, for later commands to reuse, up to a limit. A
// command holds a lease on each worktree it uses (a shared flock on used/<commit>, whose
// modification time is the last use); the least recently used worktrees that no command holds
// are removed first, with `git worktree remove`, their builds' stamps and logs with them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::vcs {

struct CacheLimit {
  std::size_t worktrees = 20;  // 0: any number
  std::uint64_t bytes = 0;     // 0: any size
};

// The limit BENCHGUARD_WORKTREES (a count, 0 for any) and BENCHGUARD_WORKTREES_SIZE (20G,
// 512M, bytes; 0 for any) set, over the defaults; an Error names a value that is neither.
Result<CacheLimit> cache_limit();

// A command's hold on the worktree of one commit, in this process or another: while it lives
// the worktree is neither evicted nor cleared.
class WorktreeLease {
 public:
  explicit WorktreeLease(int fd) : fd_(fd) {}
  ~WorktreeLease();
  WorktreeLease(const WorktreeLease&) = delete;
  WorktreeLease& operator=(const WorktreeLease&) = delete;

 private:
  int fd_;
};

// Takes the lease on the worktree of `commit` (a full hash) in the cache `state` (state_dir),
// and records the use; waits while another command removes that worktree.
Result<std::shared_ptr<WorktreeLease>> take_lease(const std::string& state,
                                                  const std::string& commit);

struct CachedWorktree {
  std::string commit;
  std::string path;
  std::uint64_t bytes = 0;    // on disk: the worktree and its build's stamps and log
  std::int64_t last_use = 0;  // unix ns
  bool in_use = false;        // a command holds a lease on it
  std::string build;          // "ok", "failed", or empty: not built
};

// The cache of the repository at `dir`, the most recently used first.
Result<std::vector<CachedWorktree>> list_cache(const std::string& dir);

struct Removed {
  std::vector<std::string> commits;  // the least recently used first
  std::uint64_t bytes = 0;
  std::size_t in_use = 0;  // worktrees kept because a command holds them
};

// Removes the least recently used worktrees that no command holds until what is left fits
// `limit` (or only held ones are left).
Result<Removed> evict(const std::string& dir, const CacheLimit& limit);
// Removes every worktree that no command holds, and the stamps and logs of builds whose
// worktree is gone.
Result<Removed> clear_cache(const std::string& dir);

}  // namespace benchguard::vcs
