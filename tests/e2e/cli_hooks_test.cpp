// Hooks end to end (docs/suite.md, "Hooks"): setup, prepare, conclude and cleanup with real
// shell commands, in suites and as run flags, their failures, their times kept out of the
// instance's, and the same in ab (in each ref's worktree).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::CliResult;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// The lines of the file at `path` ("" lines kept out).
std::vector<std::string> hook_log_lines(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

RunData hooks_latest_run(const std::string& db) {
  auto store = store::open_store(db);
  EXPECT_TRUE(store.ok()) << store.error().message;
  if (!store.ok()) return {};
  auto run = (*store)->load_run("latest");
  EXPECT_TRUE(run.ok()) << run.error().message;
  return run.ok() ? std::move(run.value()) : RunData{};
}

// A prepare that sleeps 50 ms runs before each of the 6 instances (warmups too) and is not
// timed; conclude runs after each; setup and cleanup once per variant, around them all.
TEST(CliHooks, PrepareAndConcludeAroundEveryInstanceUntimedSetupAndCleanupOncePerVariant) {
  TempDir dir;
  const std::string log = dir.file("log");
  write_file(dir.file("s.yml"),
             "instances: 5\n"
             "warmup: 1\n"
             "benchmarks:\n"
             "  - name: quick\n"
             "    params: {n: ['1']}\n"
             "    command: [/bin/true]\n"
             "    setup: echo \"setup $BENCHGUARD_VARIANT {n}\" >> " +
                 log +
                 "\n"
                 "    prepare: sleep 0.05; echo \"prepare $BENCHGUARD_VARIANT\" >> " +
                 log +
                 "\n"
                 "    conclude: echo \"conclude $BENCHGUARD_VARIANT\" >> " +
                 log +
                 "\n"
                 "    cleanup: echo \"cleanup $BENCHGUARD_VARIANT\" >> " +
                 log +
                 "\n"
                 "    variants: {A: {}, B: {}}\n");
  const CliResult r = run_cli(
      {"-q", "run", dir.file("s.yml"), "--db", dir.file("bg.db"), "--schedule", "sequential"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Sequential: every instance of A, then of B; each side as setup, 6 x (prepare, conclude),
  // cleanup.
  std::vector<std::string> expected;
  for (const std::string v : {"A", "B"}) {
    expected.push_back("setup " + v + " 1");
    for (int k = 0; k < 6; ++k) {
      expected.push_back("prepare " + v);
      expected.push_back("conclude " + v);
    }
    expected.push_back("cleanup " + v);
  }
  EXPECT_EQ(hook_log_lines(log), expected);

  const RunData run = hooks_latest_run(dir.file("bg.db"));
  ASSERT_EQ(run.variants.size(), 2u);
  for (const auto& v : run.variants) {
    ASSERT_EQ(v.instances.size(), 5u);
    for (const auto& in : v.instances) {
      EXPECT_TRUE(in.ok()) << in.failure;
      // /bin/true takes a millisecond or so; the 50 ms of its prepare are not in it.
      EXPECT_LT(in.end_ns - in.start_ns, 30'000'000) << v.variant.name << " " << in.index;
      EXPECT_LT(*in.iterations.at(0).metric("wall_time"), 0.03);
      // The hooks' own times, beside the instance.
      EXPECT_GE(in.prepare_s, 0.05);
      EXPECT_GT(in.conclude_s, 0.0);
      EXPECT_LT(in.conclude_s, 1.0);
    }
  }
  // Exported with each instance.
  const CliResult exported =
      run_cli({"export", "latest", "--format", "json", "--db", dir.file("bg.db")});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("\"prepare_s\""), std::string::npos);
  EXPECT_NE(exported.out.find("\"conclude_s\""), std::string::npos);
}

// A prepare that fails fails its instance, which does not run, with the hook's exit status and
// the last line it wrote to standard error; a conclude that fails fails the instance it followed.
TEST(CliHooks, AFailingPrepareOrConcludeFailsItsInstanceWithTheHooksMessage) {
  TempDir dir;
  const std::string ran = dir.file("ran");
  write_file(dir.file("s.yml"),
             "instances: 2\n"
             "max_failures: 5\n"
             "benchmarks:\n"
             "  - name: reset\n"
             "    shell: true\n"
             "    command: echo ran >> " +
                 ran +
                 "\n"
                 "    prepare: echo resetting; echo first >&2; echo cannot reset db >&2; exit 3\n"
                 "  - name: check\n"
                 "    command: [/bin/true]\n"
                 "    conclude: echo 'left a core file' >&2; false\n");
  const CliResult r = run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("reset: 2 instance(s) failed; last: prepare exited 3: cannot reset db"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("check: 2 instance(s) failed; last: conclude exited 1: left a core file"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(ran));  // never a measurement of a failed prepare

  const RunData run = hooks_latest_run(dir.file("bg.db"));
  ASSERT_EQ(run.variants.size(), 2u);
  for (const auto& v : run.variants) {
    ASSERT_EQ(v.instances.size(), 2u);
    for (const auto& in : v.instances)
      EXPECT_EQ(in.failure, v.variant.benchmark == "reset" ? "prepare exited 3: cannot reset db"
                                                           : "conclude exited 1: left a core file");
  }
}

// A setup that fails stops its variant (its cleanup does not run) and the run goes on with the
// rest; a cleanup that fails is a note. The run exits 3.
TEST(CliHooks, AFailingSetupStopsItsVariantAndAFailingCleanupIsANote) {
  TempDir dir;
  const std::string log = dir.file("log");
  write_file(dir.file("s.yml"),
             "instances: 2\n"
             "benchmarks:\n"
             "  - name: served\n"
             "    command: [/bin/true]\n"
             "    prepare: echo \"prepare $BENCHGUARD_VARIANT\" >> " +
                 log +
                 "\n"
                 "    cleanup: echo \"cleanup $BENCHGUARD_VARIANT\" >> " +
                 log +
                 "\n"
                 "    variants:\n"
                 "      A: {setup: echo no server >&2; exit 2}\n"
                 "      B: {setup: 'true'}\n"
                 "  - name: other\n"
                 "    command: [/bin/true]\n"
                 "    cleanup: echo still mounted >&2; exit 1\n");
  const CliResult r = run_cli({"-q", "run", dir.file("s.yml"), "--db", dir.file("bg.db")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("served: variant 'A' not run: setup exited 2: no server"), std::string::npos)
      << r.err;
  EXPECT_NE(
      r.err.find("note: benchmark 'other', variant 'default': cleanup exited 1: still mounted"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(hook_log_lines(log), (std::vector<std::string>{"prepare B", "prepare B", "cleanup B"}));
  const RunData run = hooks_latest_run(dir.file("bg.db"));
  for (const auto& v : run.variants) {
    const bool stopped = v.variant.benchmark == "served" && v.variant.name == "A";
    EXPECT_EQ(v.instances.size(), stopped ? 0u : 2u) << v.variant.benchmark << v.variant.name;
  }
}

// The same hooks as flags of `run -- CMD`, over what a suite sets.
TEST(CliHooks, RunFlagsSetTheHooksOfACommandAndOverASuite) {
  TempDir dir;
  const std::string log = dir.file("log");
  const CliResult r = run_cli(
      {"-q", "run", "--db", dir.file("bg.db"), "--instances", "3", "--setup",
       "echo setup >> " + log, "--prepare", "sleep 0.05; echo prepare >> " + log, "--conclude",
       "echo conclude >> " + log, "--cleanup", "echo cleanup >> " + log, "--", "/bin/true"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(hook_log_lines(log),
            (std::vector<std::string>{"setup", "prepare", "conclude", "prepare", "conclude",
                                      "prepare", "conclude", "cleanup"}));
  const RunData run = hooks_latest_run(dir.file("bg.db"));
  ASSERT_EQ(run.variants.size(), 1u);
  for (const auto& in : run.variants[0].instances) EXPECT_LT(in.end_ns - in.start_ns, 30'000'000);

  // A flag replaces the suite's hook of its name, with {param} substituted; the others stay.
  const std::string log2 = dir.file("log2");
  write_file(dir.file("s.yml"),
             "instances: 1\n"
             "benchmarks:\n"
             "  - name: p\n"
             "    params: {n: ['7']}\n"
             "    command: [/bin/true]\n"
             "    prepare: echo suite >> " +
                 log2 + "\n    conclude: echo kept {n} >> " + log2 + "\n");
  const CliResult flagged = run_cli({"-q", "run", dir.file("s.yml"), "--db", dir.file("bg.db"),
                                     "--prepare", "echo flag {n} >> " + log2});
  ASSERT_EQ(flagged.exit_code, 0) << flagged.err;
  EXPECT_EQ(hook_log_lines(log2), (std::vector<std::string>{"flag 7", "kept 7"}));
}

// ab runs the hooks at each ref, in its worktree, as it runs the command.
TEST(CliHooks, AbRunsTheHooksInEachRefsWorktree) {
  TempDir dir;
  const std::string repo = dir.file("repo"), log = dir.file("log");
  testing::git_init(repo);
  write_file(repo + "/suite.yml",
             "instances: 2\n"
             "benchmarks:\n"
             "  - name: t\n"
             "    command: [/bin/true]\n"
             "    setup: echo \"setup $BENCHGUARD_VARIANT $(pwd)\" >> " +
                 log +
                 "\n"
                 "    prepare: echo \"prepare $BENCHGUARD_VARIANT $(pwd)\" >> " +
                 log + "\n");
  const std::string first = testing::git_commit_all(repo, 1);
  write_file(repo + "/other.txt", "x\n");
  testing::git_commit_all(repo, 2);
  const CliResult r = run_cli({"-q", "ab", "suite.yml", "--db", dir.file("bg.db"), "--ref", first,
                               "--ref", "main", "--instances", "2"},
                              repo);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = hook_log_lines(log);
  ASSERT_EQ(lines.size(), 6u) << read_file(log);  // per side: a setup and 2 prepares
  int setups = 0;
  for (const auto& line : lines) {
    // Not the repository's own directory: the ref's worktree.
    EXPECT_NE(line.substr(line.rfind(' ') + 1), repo) << line;
    if (line.starts_with("setup ")) ++setups;
  }
  EXPECT_EQ(setups, 2);
  EXPECT_NE(read_file(log).find("prepare A "), std::string::npos);
  EXPECT_NE(read_file(log).find("prepare B "), std::string::npos);
}

}  // namespace
}  // namespace benchguard
