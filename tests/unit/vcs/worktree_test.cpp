// Commits read from a database reach git as revisions, never as options: a stored commit
// named `--output=F` (which `git rev-list` would take as "write to F") is read after
// --end-of-options. The commits `run --commits` measures: a range on the first-parent line, a
// file of hashes, thinned by --every and --last.
#include "vcs/worktree.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
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
