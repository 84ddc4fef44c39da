// Commits read from a database reach git as revisions, never as options: a stored commit
// named `--output=F` (which `git rev-list` would take as "write to F") is read after
// --end-of-options.
#include "vcs/worktree.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.hpp"

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

}  // namespace
}  // namespace benchguard
