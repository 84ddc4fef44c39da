// Unit tests for src/vcs/worktree.cpp, worktree_cache.cpp and the commit lists of log.cpp.
// Commits read from a database reach git as revisions, never as options: a stored commit named
// `--output=F` (which `git rev-list` would take as "write to F") is read after
// --end-of-options. The worktree cache keeps its limit, least recently used out first, never
// one a command holds. The commits `run --commits` measures: a range on the first-parent line,
// a file of hashes, thinned by --every and --last.
#include "vcs/worktree.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.hpp"
#include "vcs/git.hpp"
#include "vcs/log.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::sh;
using testing::TempDir;
using testing::write_file;

// PATH with a `git` first that logs its arguments (one a line, each call ending with a line
// "."), then runs the real one; the old PATH again when the object dies.
class LoggedGit {
 public:
  explicit LoggedGit(const TempDir& dir) : log_(dir.file("git.log")) {
    const char* path = std::getenv("PATH");
    old_ = path != nullptr ? path : "/usr/bin:/bin";
    fs::create_directories(dir.file("shim"));
    write_file(dir.file("shim/git"), "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" +
                                         log_ + "'; done\necho . >> '" + log_ + "'\nPATH='" + old_ +
                                         "' exec git \"$@\"\n");
    fs::permissions(dir.file("shim/git"), fs::perms::owner_all);
    setenv("PATH", (dir.file("shim") + ":" + old_).c_str(), 1);
  }
  ~LoggedGit() { setenv("PATH", old_.c_str(), 1); }
  LoggedGit(const LoggedGit&) = delete;
  LoggedGit& operator=(const LoggedGit&) = delete;

  // Each call's arguments.
  std::vector<std::vector<std::string>> calls() const {
    std::vector<std::vector<std::string>> out(1);
    std::istringstream in(fs::exists(log_) ? read_file(log_) : "");
    for (std::string line; std::getline(in, line);) {
      if (line == ".") {
        out.emplace_back();
      } else {
        out.back().push_back(line);
      }
    }
    out.pop_back();
    return out;
  }

 private:
  std::string log_;
  std::string old_;
};

TEST(VcsWorktree, AStoredCommitNamedLikeAnOptionIsReadAsARevision) {
  TempDir dir;
  const std::string repo = dir.file("repo");
  sh("git init -q -b main " + repo + " && cd " + repo +
     " && git -c user.email=t@example.com -c user.name=t commit -q --allow-empty -m a"
     " && git -c user.email=t@example.com -c user.name=t commit -q --allow-empty -m b"
     " && git rev-parse HEAD > " +
     dir.file("head"));
  std::string head = read_file(dir.file("head"));
  head = head.substr(0, head.find('\n'));
  const std::string planted = dir.file("F");
  {
    const LoggedGit git(dir);
    for (const auto& [good, bad] : std::vector<std::pair<std::string, std::string>>{
             {"--output=" + planted, head}, {head, "--output=" + planted}}) {
      EXPECT_FALSE(vcs::commits_between(repo, good, bad).ok());
    }
    EXPECT_FALSE(vcs::checkout(repo, "--output=" + planted).ok());
    const auto calls = git.calls();
    ASSERT_FALSE(calls.empty());
    for (const auto& args : calls) {
      bool options = true;
      for (const auto& a : args) {
        if (a == "--end-of-options") options = false;
        if (a.find("--output=") != std::string::npos) {
          EXPECT_FALSE(options) << "git reads " << a << " as an option";
        }
      }
    }
  }
  EXPECT_FALSE(fs::exists(planted));
}

// A repository of `n` commits, each changing f.txt; their hashes, oldest first.
std::vector<std::string> cache_commits(const std::string& repo, int n) {
  testing::git_init(repo);
  std::vector<std::string> hashes;
  for (int k = 0; k < n; ++k) {
    write_file(repo + "/f.txt", std::to_string(k) + "\n");
    hashes.push_back(testing::git_commit_all(repo, k));
  }
  return hashes;
}

// The worktrees git knows of, by path.
std::string git_worktrees(const std::string& repo) {
  return testing::run_program({"/usr/bin/git", "-C", repo, "worktree", "list", "--porcelain"}, {})
      .out;
}

std::vector<std::string> cached_commits(const std::string& repo) {
  const auto listed = vcs::list_cache(repo);
  EXPECT_TRUE(listed.ok()) << listed.error().message;
  std::vector<std::string> out;
  if (listed.ok())
    for (const auto& w : *listed) out.push_back(w.commit);
  return out;
}

TEST(VcsWorktreeCache, PastItsLimitTheLeastRecentlyUsedGoAndTheOneInUseStays) {
  TempDir dir;
  const std::string repo = dir.file("repo");
  const auto c = cache_commits(repo, 7);
  const vcs::CacheLimit limit{3, 0};
  // Times of use a file system can tell apart.
  const auto later = [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };

  // The oldest is checked out first and held all along, as a command measuring it would.
  auto held = vcs::checkout(repo, c[0], limit);
  ASSERT_TRUE(held.ok()) << held.error().message;
  std::string built_path;
  for (int k = 1; k <= 5; ++k) {
    later();
    const auto w = vcs::checkout(repo, c[k], limit);
    ASSERT_TRUE(w.ok()) << w.error().message;
    if (k == 1) {
      built_path = w->path;
      const auto b = vcs::build(repo, c[1], w->path, "echo built");
      ASSERT_TRUE(b.ok() && b->ok);
    }
  }  // each lease ends with its command
  EXPECT_EQ(cached_commits(repo), (std::vector<std::string>{c[5], c[4], c[0]}));
  const std::string known = git_worktrees(repo);
  for (int k = 1; k <= 3; ++k) {
    EXPECT_EQ(known.find(c[k].substr(0, 40)), std::string::npos) << "git still lists " << k;
  }
  EXPECT_NE(known.find(held->path), std::string::npos) << known;
  EXPECT_FALSE(fs::exists(built_path));
  const std::string state = fs::path(held->path).parent_path().parent_path().string();
  EXPECT_FALSE(fs::exists(state + "/builds/" + c[1] + ".ok")) << "the build stamp goes with it";
  EXPECT_FALSE(fs::exists(state + "/builds/" + c[1] + ".log"));

  // Use, not age, orders them: c4 used again, then c6 made: c5 goes, c0 stays.
  later();
  ASSERT_TRUE(vcs::checkout(repo, c[4], limit).ok());
  later();
  ASSERT_TRUE(vcs::checkout(repo, c[6], limit).ok());
  const auto listed = vcs::list_cache(repo);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].commit, c[6]);
  EXPECT_EQ((*listed)[1].commit, c[4]);
  EXPECT_EQ((*listed)[2].commit, c[0]);
  EXPECT_TRUE((*listed)[2].in_use);
  EXPECT_FALSE((*listed)[0].in_use);
  EXPECT_GT((*listed)[0].bytes, 0u);

  // Emptied: all but the one in use; then that one too once its command is done.
  const auto cleared = vcs::clear_cache(repo);
  ASSERT_TRUE(cleared.ok()) << cleared.error().message;
  EXPECT_EQ(cleared->commits.size(), 2u);
  EXPECT_EQ(cleared->in_use, 1u);
  EXPECT_EQ(cached_commits(repo), std::vector<std::string>{c[0]});
  held->lease.reset();
  ASSERT_TRUE(vcs::clear_cache(repo).ok());
  EXPECT_TRUE(cached_commits(repo).empty());
  EXPECT_EQ(git_worktrees(repo).find("benchguard/worktrees"), std::string::npos)
      << git_worktrees(repo);
}

TEST(VcsWorktreeCache, TheLimitComesFromTheEnvironment) {
  const auto set = [](const char* key, const char* value) {
    if (value != nullptr)
      setenv(key, value, 1);
    else
      unsetenv(key);
  };
  set("BENCHGUARD_WORKTREES", nullptr);
  set("BENCHGUARD_WORKTREES_SIZE", nullptr);
  auto limit = vcs::cache_limit();
  ASSERT_TRUE(limit.ok());
  EXPECT_EQ(limit->worktrees, 20u);
  EXPECT_EQ(limit->bytes, 0u);
  set("BENCHGUARD_WORKTREES", "0");
  set("BENCHGUARD_WORKTREES_SIZE", "1.5G");
  limit = vcs::cache_limit();
  ASSERT_TRUE(limit.ok());
  EXPECT_EQ(limit->worktrees, 0u);
  EXPECT_EQ(limit->bytes, 1536ull * 1024 * 1024);
  set("BENCHGUARD_WORKTREES", "many");
  limit = vcs::cache_limit();
  ASSERT_FALSE(limit.ok());
  EXPECT_NE(limit.error().message.find("BENCHGUARD_WORKTREES must be a count"), std::string::npos);
  set("BENCHGUARD_WORKTREES", nullptr);
  set("BENCHGUARD_WORKTREES_SIZE", "lots");
  EXPECT_FALSE(vcs::cache_limit().ok());
  set("BENCHGUARD_WORKTREES_SIZE", nullptr);
}

// run --commits: --every keeps the newest and every N-th before it, --last the newest N of
// those.
TEST(VcsCommitList, ThinningKeepsTheNewest) {
  const std::vector<std::string> c = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"};
  EXPECT_EQ(vcs::thin_commits(c, 0, 0), c);
  EXPECT_EQ(vcs::thin_commits(c, 1, 0), c);
  EXPECT_EQ(vcs::thin_commits(c, 3, 0), (std::vector<std::string>{"c2", "c5", "c8"}));
  EXPECT_EQ(vcs::thin_commits(c, 0, 3), (std::vector<std::string>{"c6", "c7", "c8"}));
  EXPECT_EQ(vcs::thin_commits(c, 2, 2), (std::vector<std::string>{"c6", "c8"}));
  EXPECT_EQ(vcs::thin_commits(c, 20, 0), (std::vector<std::string>{"c8"}));
  EXPECT_EQ(vcs::thin_commits(c, 0, 20), c);
}

// A range is the first-parent line, oldest first; a file lists commits in its order, each
// once, by the first word of a line, comments and blank lines left out.
TEST(VcsCommitList, ARangeAndAFileOfHashes) {
  TempDir dir;
  const std::string repo = dir.file("repo");
  testing::git_init(repo);
  std::vector<std::string> c;
  for (int k = 1; k <= 4; ++k) {
    write_file(repo + "/f.txt", std::to_string(k) + "\n");
    c.push_back(testing::git_commit_all(repo, k));
  }
  // A side branch merged into main: its commit is not on the first-parent line.
  sh("cd " + repo + " && git checkout -q -b side " + c[1] +
     " && echo s > s.txt && git add s.txt && git commit -q -m side && git checkout -q main &&"
     " git merge -q --no-ff -m merge side");
  const std::string merge = vcs::rev_parse(repo, "HEAD");
  const auto range = vcs::first_parent_range(repo, c[0] + "..main");
  ASSERT_TRUE(range.ok()) << range.error().message;
  EXPECT_EQ(*range, (std::vector<std::string>{c[1], c[2], c[3], merge}));
  EXPECT_EQ(vcs::branch_named(repo, "main"), "main");
  EXPECT_EQ(vcs::branch_named(repo, "HEAD~1"), "");
  EXPECT_EQ(vcs::branch_named(repo, c[2]), "");

  const auto unknown = vcs::first_parent_range(repo, "nope..main");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("'nope..main' is no range of commits"), std::string::npos)
      << unknown.error().message;
  const auto empty = vcs::first_parent_range(repo, "main..main");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("holds no commit"), std::string::npos);

  const std::string list = dir.file("commits.txt");
  write_file(list, "# the commits to measure\n" + c[2].substr(0, 10) + " c3\n\n" + c[0] +
                       "  # the first\n" + c[2] + "\n");
  const auto listed = vcs::commits_in_file(repo, list);
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_EQ(*listed, (std::vector<std::string>{c[2], c[0]}));
  write_file(list, c[0] + "\nnot-a-commit\n");
  const auto bad = vcs::commits_in_file(repo, list);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.error().message.starts_with(list + ":2: 'not-a-commit' names no commit"))
      << bad.error().message;
}

}  // namespace
}  // namespace benchguard
