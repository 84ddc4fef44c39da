#include "vcs/worktree.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "measure/capture.hpp"
#include "vcs/run_git.hpp"

namespace benchguard::vcs {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Status write_file(const fs::path& p, const std::string& text) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  return write_file_atomically(p.string(), text);
}

}  // namespace

Result<std::string> toplevel(const std::string& dir) {
  return git(dir, {"rev-parse", "--show-toplevel"}, "find the top of the repository");
}

Result<std::string> resolve_commit(const std::string& dir, const std::string& rev) {
  auto hash = git(dir, {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"},
                  "resolve '" + rev + "'");
  if (!hash.ok() || hash->empty())
    return Error{
        fmt::format("'{}' names no commit in the repository at {}", rev, dir.empty() ? "." : dir)};
  return hash;
}

// Commits may come from a database (an imported run's, a stored change's): each reaches git
// after --end-of-options, so that one named like an option is read as a revision.
Result<std::vector<std::string>> commits_between(const std::string& dir, const std::string& good,
                                                 const std::string& bad) {
  auto r = measure::capture_output({"git", "-C", dir.empty() ? "." : dir, "merge-base",
                                    "--is-ancestor", "--end-of-options", good, bad},
                                   "", kGitEnv);
  if (!r.ok()) return Error{"cannot run git: " + r.error().message};
  if (r->exit_code != 0)
    return Error{fmt::format("the good commit {} is not an ancestor of the bad commit {}",
                             good.substr(0, 12), bad.substr(0, 12))};
  BG_ASSIGN(
      const std::string out,
      git(dir, {"rev-list", "--first-parent", "--reverse", "--end-of-options", good + ".." + bad},
          "list the commits between good and bad"));
  std::vector<std::string> commits;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) commits.push_back(line);
  if (commits.empty() || commits.back() != bad)
    return Error{fmt::format("the bad commit {} is not on the first-parent history after {}",
                             bad.substr(0, 12), good.substr(0, 12))};
  return commits;
}

Result<std::string> parent_of(const std::string& dir, const std::string& commit) {
  return resolve_commit(dir, commit + "^");
}

Result<Worktree> checkout(const std::string& dir, const std::string& commit) {
  BG_ASSIGN(const CacheLimit limit, cache_limit());
  return checkout(dir, commit, limit);
}

Result<Worktree> checkout(const std::string& dir, const std::string& commit,
                          const CacheLimit& limit) {
  BG_ASSIGN(const fs::path state, state_dir(dir));
  // Held before the worktree is looked at: no other command removes it from here on.
  BG_ASSIGN(auto lease, take_lease(state, commit));
  const fs::path path = state / "worktrees" / commit;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    auto head = git(path.string(), {"rev-parse", "HEAD"}, "read the worktree's commit");
    if (head.ok() && *head == commit) return Worktree{path.string(), std::move(lease)};
    fs::remove_all(path, ec);
  }
  // A worktree deleted by hand leaves an entry that `worktree add` would refuse.
  (void)git(dir, {"worktree", "prune"}, "prune worktrees");
  fs::create_directories(path.parent_path(), ec);
  BG_TRY(git(dir,
             {"worktree", "add", "--detach", "--force", "--end-of-options", path.string(), commit},
             "check out " + commit.substr(0, 12) + " into " + path.string()));
  // Builds decided in a worktree that is gone say nothing of this one.
  fs::remove(state / "builds" / (commit + ".ok"), ec);
  fs::remove(state / "builds" / (commit + ".failed"), ec);
  // The cache grew by one: the least recently used worktrees no command holds make room. The
  // command goes on whatever happens there.
  (void)evict(dir, limit);
  return Worktree{path.string(), std::move(lease)};
}

Result<BuildOutcome> build(const std::string& dir, const std::string& commit,
                           const std::string& worktree, const std::string& command) {
  BG_ASSIGN(const fs::path state, state_dir(dir));
  const fs::path builds = state / "builds";
  const fs::path ok_stamp = builds / (commit + ".ok");
  const fs::path failed_stamp = builds / (commit + ".failed");
  BuildOutcome out;
  out.log = (builds / (commit + ".log")).string();
  std::error_code ec;
  if (fs::exists(ok_stamp, ec) && read_file(ok_stamp) == command) {
    out.ok = out.cached = true;
    return out;
  }
  if (fs::exists(failed_stamp, ec) && read_file(failed_stamp) == command) {
    out.cached = true;
    out.exit_code = 1;
    return out;
  }
  fs::remove(ok_stamp, ec);
  fs::remove(failed_stamp, ec);
  fs::create_directories(builds, ec);
  auto r = measure::capture_output(
      {"/bin/sh", "-c", "exec >\"$BENCHGUARD_BUILD_LOG\" 2>&1\n" + command}, worktree,
      {{"BENCHGUARD_BUILD_LOG", out.log}, {"BENCHGUARD_COMMIT", commit}});
  if (!r.ok()) return Error{"cannot start the build: " + r.error().message};
  out.exit_code = r->exit_code;
  out.ok = r->exit_code == 0;
  BG_TRY(write_file(out.ok ? ok_stamp : failed_stamp, command));
  // A build takes room: a limit of size is checked again.
  if (const auto limit = cache_limit(); limit.ok() && limit->bytes > 0) (void)evict(dir, *limit);
  return out;
}

}  // namespace benchguard::vcs
