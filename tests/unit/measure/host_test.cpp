#include "measure/host.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <map>

#include "core/version.hpp"
#include "measure/capture.hpp"
#include "measure/exec_resolve.hpp"
#include "support/test_support.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::TempDir;
using benchguard::testing::write_file;

TEST(HostArtifacts, RecordsTheMachine) {
  const KeyValues kv = host_artifacts();
  std::map<std::string, std::string> m(kv.begin(), kv.end());
  EXPECT_EQ(m.size(), kv.size()) << "duplicate keys";
  EXPECT_EQ(m["hostname"], hostname());
  EXPECT_FALSE(m["kernel"].empty());
  EXPECT_GT(std::stoll(m["cpu_count"]), 0);
  EXPECT_GT(std::stoll(m["mem_total_bytes"]), 1LL << 26);
  EXPECT_TRUE(m.count("load_avg_1m") && m.count("load_avg_5m") && m.count("load_avg_15m"));
  EXPECT_EQ(m["benchguard_version"], kVersion);
  EXPECT_FALSE(m["compiler"].empty());
  for (const auto& [k, v] : kv) EXPECT_FALSE(v.empty()) << k;
}

TEST(HostArtifacts, CiUrlFromEachCiSystem) {
  const auto from = [](std::map<std::string, std::string> env) {
    return ci_url([&env](const char* name) -> const char* {
      auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    });
  };
  EXPECT_EQ(from({}), "");
  EXPECT_EQ(from({{"GITHUB_SERVER_URL", "https://github.example"},
                  {"GITHUB_REPOSITORY", "org/repo"},
                  {"GITHUB_RUN_ID", "42"}}),
            "https://github.example/org/repo/actions/runs/42");
  EXPECT_EQ(from({{"GITHUB_REPOSITORY", "org/repo"}, {"GITHUB_RUN_ID", "42"}}),
            "https://github.com/org/repo/actions/runs/42");
  EXPECT_EQ(from({{"CI_JOB_URL", "https://gitlab.example/g/p/-/jobs/7"}}),
            "https://gitlab.example/g/p/-/jobs/7");
  EXPECT_EQ(from({{"BUILD_URL", "https://jenkins.example/job/x/3/"}}),
            "https://jenkins.example/job/x/3/");
  EXPECT_EQ(from({{"BUILDKITE_BUILD_URL", "https://buildkite.com/o/p/builds/9"}}),
            "https://buildkite.com/o/p/builds/9");
  EXPECT_EQ(from({{"CIRCLE_BUILD_URL", "https://circleci.com/gh/o/p/5"}}),
            "https://circleci.com/gh/o/p/5");
}

TEST(HostArtifacts, ParsesOsReleaseAndCpuinfo) {
  EXPECT_EQ(os_pretty_name("NAME=Debian\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"),
            "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(os_pretty_name("PRETTY_NAME='Say \\\"hi\\\"'\n"), "Say \"hi\"");
  EXPECT_EQ(os_pretty_name("NAME=x\n"), "");
  EXPECT_EQ(cpu_model_name("processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: fpu\n"),
            "AMD EPYC 7B13");
  EXPECT_EQ(cpu_model_name("processor\t: 0\ncpu\t\t: POWER9 (raw)\n"), "POWER9 (raw)");
}

class HostGitTest : public ::testing::Test {
 protected:
  void git(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"git", "-C", dir_.path().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = capture_output(argv, "",
                            {{"GIT_AUTHOR_NAME", "t"},
                             {"GIT_AUTHOR_EMAIL", "t@example.com"},
                             {"GIT_COMMITTER_NAME", "t"},
                             {"GIT_COMMITTER_EMAIL", "t@example.com"},
                             {"GIT_CONFIG_GLOBAL", "/dev/null"}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->exit_code, 0) << args[0];
  }
  TempDir dir_;
};

TEST_F(HostGitTest, CommitBranchAndDirty) {
  if (!resolve_executable("git").ok()) GTEST_SKIP() << "git is not installed";
  EXPECT_TRUE(git_info(dir_.path().string()).commit.empty()) << "not a repository yet";
  git({"init", "-q", "-b", "trunk"});
  write_file(dir_.file("a.txt"), "one\n");
  git({"add", "a.txt"});
  git({"commit", "-q", "-m", "first"});
  GitInfo clean = git_info(dir_.path().string());
  EXPECT_EQ(clean.commit.size(), 40u);
  EXPECT_EQ(clean.branch, "trunk");
  EXPECT_FALSE(clean.dirty);
  EXPECT_EQ(clean.author, "t <t@example.com>");
  EXPECT_GT(clean.commit_time, 0);
  write_file(dir_.file("untracked.txt"), "x\n");
  EXPECT_FALSE(git_info(dir_.path().string()).dirty) << "untracked files do not count";
  write_file(dir_.file("a.txt"), "two\n");
  GitInfo dirty = git_info(dir_.path().string());
  EXPECT_TRUE(dirty.dirty);
  EXPECT_EQ(dirty.commit, clean.commit);
}

// A git that does not know --no-ahead-behind (older than 2.17: usage, exit 129) still gives
// the commit, the branch and whether the tree is dirty.
TEST_F(HostGitTest, AGitWithoutNoAheadBehindIsAskedAgainWithoutIt) {
  const auto real = resolve_executable("git");
  if (!real.ok()) GTEST_SKIP() << "git is not installed";
  git({"init", "-q", "-b", "trunk"});
  write_file(dir_.file("a.txt"), "one\n");
  git({"add", "a.txt"});
  git({"commit", "-q", "-m", "first"});
  write_file(dir_.file("a.txt"), "two\n");
  TempDir bin;
  write_file(bin.file("git"),
             "#!/bin/sh\nfor a in \"$@\"; do\n  [ \"$a\" = --no-ahead-behind ] && "
             "{ echo \"error: unknown option\" >&2; exit 129; }\ndone\nexec " +
                 *real + " \"$@\"\n");
  ASSERT_EQ(::chmod(bin.file("git").c_str(), 0755), 0);
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", (bin.path().string() + ":" + path).c_str(), 1);
  const GitInfo info = git_info(dir_.path().string());
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(info.commit.size(), 40u);
  EXPECT_EQ(info.branch, "trunk");
  EXPECT_TRUE(info.dirty);
}

TEST(HostCapture, CollectsStdoutAndExitCode) {
  auto r = capture_output({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(capture_output({"bg-no-such-program"}).error().message,
            "cannot run 'bg-no-such-program': not found in PATH");
}

}  // namespace
}  // namespace benchguard::measure
