#include "support/test_support.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "cli/app.hpp"

extern char** environ;

namespace benchguard::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "bgtest-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string helper(const std::string& name) {
  return std::string(BG_HELPER_DIR) + "/bg_" + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

std::string schema_problem(const std::string& json_text) {
  char dir[] = "/tmp/bg-schema-XXXXXX";
  if (mkdtemp(dir) == nullptr) return "cannot make a temporary folder";
  const std::string file = std::string(dir) + "/out.json";
  write_file(file, json_text);
  const CliResult r = run_program(
      {"/usr/bin/python3", std::string(BG_SOURCE_DIR) + "/tests/golden/check_schema.py", file}, {});
  std::remove(file.c_str());
  rmdir(dir);
  if (r.exit_code == 0) return "";
  return r.out + r.err + " (exit " + std::to_string(r.exit_code) + ")";
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

namespace {

std::vector<char*> cli_argv(std::vector<std::string>& argv_s) {
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

int start_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s{BG_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  auto argv = cli_argv(argv_s);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

CliResult run_cli(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<std::string> argv{BG_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, {}, cwd);
}

CliResult run_cli_in_process(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CliResult r;
  r.exit_code = cli::run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

CliResult run_program(const std::vector<std::string>& argv_s, const std::vector<std::string>& env,
                      const std::string& cwd) {
  TempDir io;
  const std::string out_path = io.file("out");
  const std::string err_path = io.file("err");
  std::vector<std::string> args = argv_s;
  auto argv = cli_argv(args);

  // The environment: this process's, less the keys `env` names, plus what it sets.
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    bool changed = false;
    for (const auto& change : env) changed = changed || change.substr(0, change.find('=')) == key;
    if (!changed) env_s.push_back(entry);
  }
  for (const auto& change : env)
    if (change.find('=') != std::string::npos) env_s.push_back(change);
  auto envp = cli_argv(env_s);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = 0;
  CliResult r;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    r.err = "spawn failed";
    return r;
  }
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

void sh(const std::string& command) {
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

void git_init(const std::string& repo) {
  sh("git init -q -b main " + repo + " && git -C " + repo +
     " config user.email t@example.com && git -C " + repo + " config user.name t");
}

std::string git_commit_all(const std::string& repo, int k) {
  const std::string date =
      "2026-01-01T00:" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ":00Z";
  sh("cd " + repo + " && git add -A && GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date +
     " git commit -q -m c" + std::to_string(k));
  const CliResult head = run_program({"/usr/bin/git", "-C", repo, "rev-parse", "HEAD"}, {});
  return head.out.substr(0, head.out.find('\n'));
}

std::string cost_suite(const std::string& name, int instances, const std::string& cwd,
                       const std::string& steady_metric) {
  const std::string steady = steady_metric.empty() ? "" : ", \\\"" + steady_metric + "\\\": %.3f";
  const std::string steady_value =
      steady_metric.empty() ? "" : ", 1000 * (1 + 0.002 * (rand() - 0.5))";
  return "name: " + name + "\n" + (cwd.empty() ? "" : "cwd: " + cwd + "\n") +
         "instances: " + std::to_string(instances) +
         R"SUITE(
benchmarks:
  - name: work
    shell: true
    iterations: 5
    command: >-
      awk -v c="$(cat built-cost.txt)" -v s="$(cat seed.txt)$BENCHGUARD_INSTANCE"
      -v n="$BENCHGUARD_ITERATIONS" 'BEGIN { srand(s); for (i = 0; i < n; i++)
      printf "{\"metrics\": {\"wall_time\": %.9f)SUITE" +
         steady + R"SUITE(}}\n", c * (1 + 0.02 * (rand() - 0.5)))SUITE" + steady_value +
         R"SUITE( }'
      >> "$BENCHGUARD_RESULTS"
)SUITE";
}

}  // namespace benchguard::testing
