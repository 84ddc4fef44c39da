// Launching instances: exit status, signals, the environment a child starts in, errors.
// Every test runs through both start paths (vfork, and fork + exec used for counters).
#include "measure/process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <string>

#include "launch_test_util.hpp"
#include "measure/spawn.hpp"

extern char** environ;

namespace benchguard::measure {
namespace {

using benchguard::testing::helper;
using benchguard::testing::launch_with;
using benchguard::testing::read_file;
using benchguard::testing::TempDir;

// "key=value" lines, as bg_show_context writes them.
std::map<std::string, std::string> parse_context(const std::string& text) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl - pos);
    if (const size_t eq = line.find('='); eq != std::string::npos)
      out[line.substr(0, eq)] = line.substr(eq + 1);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

class MeasureLaunchTest : public ::testing::TestWithParam<LaunchMethod> {
 protected:
  Result<LaunchResult> run(const LaunchSpec& spec) { return launch_with(spec, GetParam()); }
};

TEST_P(MeasureLaunchTest, RecordsExitCodes) {
  for (int code : {0, 7}) {
    LaunchSpec spec;
    spec.argv = {helper("exit_code"), std::to_string(code)};
    auto r = run(spec);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->exit_code, code);
    EXPECT_EQ(r->signal, 0);
    EXPECT_FALSE(r->timed_out);
    EXPECT_GT(r->end_ns, r->start_ns);
    EXPECT_GT(r->started_at, 0);
    EXPECT_GT(r->max_rss_bytes, 100 * 1024);  // KiB were turned into bytes
  }
}

TEST_P(MeasureLaunchTest, RecordsTerminatingSignal) {
  LaunchSpec spec;
  spec.argv = {helper("kill_self"), std::to_string(SIGKILL)};
  auto killed = run(spec);
  ASSERT_TRUE(killed.ok()) << killed.error().message;
  EXPECT_EQ(killed->signal, SIGKILL);
  EXPECT_EQ(killed->exit_code, -1);

  spec.argv = {helper("segfault")};
  auto segv = run(spec);
  ASSERT_TRUE(segv.ok()) << segv.error().message;
  EXPECT_EQ(segv->signal, SIGSEGV);
  EXPECT_EQ(segv->exit_code, -1);
}

TEST_P(MeasureLaunchTest, ChildStartsInACleanContext) {
  TempDir dir;
  const std::string out = dir.file("context");
  LaunchSpec spec;
  spec.argv = {helper("show_context"), out, "BG_TEST_VAR"};
  spec.cwd = dir.path().string();
  spec.env = {{"BG_TEST_VAR", "first"}, {"BG_TEST_VAR", "hello world"}};
  // Ignored and blocked signals of benchguard must not leak into the benchmark: a common
  // one, and ones nothing in benchguard touches (a real-time signal among them).
  const int ignored[] = {SIGPIPE, SIGWINCH, SIGRTMIN + 3};
  struct sigaction ignore {};
  struct sigaction old_actions[3]{};
  ignore.sa_handler = SIG_IGN;
  for (int k = 0; k < 3; ++k) sigaction(ignored[k], &ignore, &old_actions[k]);
  sigset_t block;
  sigset_t old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigaddset(&block, SIGRTMIN + 4);
  pthread_sigmask(SIG_BLOCK, &block, &old_mask);
  auto r = run(spec);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  for (int k = 0; k < 3; ++k) sigaction(ignored[k], &old_actions[k], nullptr);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);

  auto ctx = parse_context(read_file(out));
  EXPECT_EQ(ctx["cwd"], dir.path().string());
  EXPECT_EQ(ctx["env"], "hello world");
  EXPECT_EQ(ctx["own_group"], "1");
  EXPECT_EQ(ctx["sigmask_empty"], "1");
  EXPECT_EQ(ctx["ignored_signals"], "0");
  EXPECT_EQ(ctx["stdin"], "/dev/null");
  EXPECT_EQ(ctx["extra_fds"], "0");
}

TEST_P(MeasureLaunchTest, InheritsEnvironmentAndLooksUpPath) {
  setenv("BG_INHERITED", "from parent", 1);
  TempDir dir;
  const std::string out = dir.file("context");
  LaunchSpec spec;
  // Found through PATH, as execvp would, with PATH from the instance's environment.
  spec.argv = {"bg_show_context", out, "BG_INHERITED"};
  spec.env = {{"PATH", std::string(BG_HELPER_DIR) + ":/usr/bin:/bin"}};
  auto r = run(spec);
  unsetenv("BG_INHERITED");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(parse_context(read_file(out))["env"], "from parent");
}

TEST_P(MeasureLaunchTest, CapturesOutputWhenAsked) {
  TempDir dir;
  LaunchSpec spec;
  spec.argv = {helper("show_context"), dir.file("context")};
  spec.stdout_path = dir.file("stdout");
  auto r = run(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(read_file(dir.file("stdout")), "to stdout\n");
}

// --layout fixed: the child alone runs without address randomization; benchguard keeps its own.
TEST_P(MeasureLaunchTest, AFixedLayoutTurnsOffRandomizationInTheChildOnly) {
  TempDir dir;
  LaunchSpec spec;
  spec.argv = {"/bin/cat", "/proc/self/personality"};
  spec.stdout_path = dir.file("personality");
  spec.fixed_layout = true;
  const int before = personality(0xffffffff);
  auto r = run(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0);
  const unsigned long child = std::stoul(read_file(dir.file("personality")), nullptr, 16);
  EXPECT_NE(child & ADDR_NO_RANDOMIZE, 0U);
  EXPECT_EQ(personality(0xffffffff), before);
}

TEST_P(MeasureLaunchTest, PinsToRequestedCpus) {
  TempDir dir;
  LaunchSpec spec;
  spec.argv = {helper("show_context"), dir.file("context")};
  spec.cpus = {0};
  cpu_set_t before;
  sched_getaffinity(0, sizeof before, &before);
  auto r = run(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(parse_context(read_file(dir.file("context")))["cpus"], "0");
  cpu_set_t after;
  sched_getaffinity(0, sizeof after, &after);
  EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "the launching thread's affinity was not restored";
}

TEST_P(MeasureLaunchTest, MissingExecutableIsAUsageError) {
  LaunchSpec spec;
  spec.argv = {"bg-no-such-program-xyz"};
  auto r = run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot run 'bg-no-such-program-xyz': not found in PATH");
  EXPECT_EQ(r.error().code, ExitCode::kInput);

  spec.argv = {"/nonexistent/bench"};
  r = run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot run '/nonexistent/bench': no such file");

  TempDir dir;
  benchguard::testing::write_file(dir.file("script"), "echo hi\n");
  spec.argv = {dir.file("script")};
  r = run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot run '" + dir.file("script") + "': not executable");

  benchguard::testing::write_file(dir.file("orphan"), "#!/nonexistent/interpreter\n");
  chmod(dir.file("orphan").c_str(), 0755);
  spec.argv = {dir.file("orphan")};
  r = run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "cannot run '" + dir.file("orphan") + "': its #! interpreter or ELF loader is missing");

  spec.argv = {helper("exit_code")};
  spec.cwd = dir.file("missing");
  r = run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("working directory"), std::string::npos);
}

TEST_P(MeasureLaunchTest, ChildCanBeStartedAndWaitedSeparately) {
  LaunchSpec a;
  a.argv = {helper("exit_code"), "3"};
  LaunchSpec b;
  b.argv = {helper("exit_code"), "4"};
  LaunchOptions options;
  options.method = GetParam();
  auto ca = start_child(a, options);
  auto cb = start_child(b, options);
  ASSERT_TRUE(ca.ok() && cb.ok());
  EXPECT_NE((*ca)->pid(), (*cb)->pid());
  auto rb = (*cb)->wait();
  auto ra = (*ca)->wait();
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(ra->exit_code, 3);
  EXPECT_EQ(rb->exit_code, 4);
  EXPECT_FALSE((*ca)->wait().ok()) << "a second wait must not reap someone else";
}

INSTANTIATE_TEST_SUITE_P(Measure, MeasureLaunchTest,
                         ::testing::Values(LaunchMethod::kVfork, LaunchMethod::kFork),
                         [](const auto& info) {
                           return benchguard::testing::method_name(info.param);
                         });

TEST(MeasureLaunch, LaunchUsesTheDefaultPath) {
  LaunchSpec spec;
  spec.argv = {"true"};
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_GT(r->wall_s(), 0.0);
}

// The default path hands over the child's pidfd from clone itself (no pidfd_open), closed on
// exec, readable once the child has exited; a child that cannot exec is reaped, not left.
TEST(MeasureSpawn, TheChildComesWithAPidfdThatTellsItsExit) {
  const std::string program = "/bin/true";
  const std::string path = program;
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  SpawnRequest req;
  req.program = &program;
  req.path = path.c_str();
  req.argv = argv;
  req.envp = environ;
  auto spawned = spawn_vfork(req);
  ASSERT_TRUE(spawned.ok()) << spawned.error().message;
  const int pidfd = spawned->pidfd.get();
  ASSERT_GE(pidfd, 0);
  EXPECT_EQ(fcntl(pidfd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  pollfd p{pidfd, POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 10000), 1);
  int status = -1;
  ASSERT_EQ(waitpid(spawned->pid, &status, 0), spawned->pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  const std::string missing = "/nonexistent/bench";
  char* missing_argv[] = {const_cast<char*>(missing.c_str()), nullptr};
  req.program = &missing;
  req.path = missing.c_str();
  req.argv = missing_argv;
  auto failed = spawn_vfork(req);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "cannot run '/nonexistent/bench': no such file");
  // No zombie of ours (a child of another test may still run: 0).
  EXPECT_LE(waitpid(-1, &status, WNOHANG), 0) << "the failed child was left unreaped";
}

TEST(MeasureLaunch, EmptyCommandIsAnError) {
  auto r = launch(LaunchSpec{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot run an empty command");
}

TEST(MeasureLaunch, BadEnvironmentNameIsAnError) {
  LaunchSpec spec;
  spec.argv = {"true"};
  spec.env = {{"A=B", "1"}};
  auto r = launch(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "invalid environment variable name 'A=B'");
}

}  // namespace
}  // namespace benchguard::measure
