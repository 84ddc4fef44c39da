// Shared test helpers: temporary directories, paths of helper programs, running the CLI.
#pragma once

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace benchguard::testing {

// A fresh directory removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Three standard errors of a proportion p estimated from `trials` trials: the margin a
// simulated rate (false alarms, coverage) is checked against.
inline double three_se(double p, int trials) {
  return 3.0 * std::sqrt(p * (1.0 - p) / trials);
}

// Path of a helper program built from tests/helpers/NAME.cpp.
std::string helper(const std::string& name);

void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Newline-terminated lines in s.
int count_lines(const std::string& s);

// Starts the benchguard binary with args, output discarded; returns its pid (or -1).
int start_cli(const std::vector<std::string>& args);

// Runs the benchguard binary with args (no shell), in `cwd` when given; captures output.
CliResult run_cli(const std::vector<std::string>& args, const std::string& cwd = "");
// The same command line through cli::run in this process (what a test arms in-process, such
// as a faulty file system, applies to it).
CliResult run_cli_in_process(const std::vector<std::string>& args);

// Runs argv[0] with argv (no shell, no PATH search), in `cwd` when given, with this process's
// environment changed by `env`: "KEY=VALUE" sets KEY, "KEY" removes it. Captures output.
CliResult run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& cwd = "");

// What is wrong with `json_text`, a command's --format json output, against its schema in
// docs/schema (tests/golden/check_schema.py); "" when it conforms.
std::string schema_problem(const std::string& json_text);

// ---- git repositories for the tests of the CI loop (ab, bisect, gate, history)

// Runs a shell command; a non-zero exit fails the test (the caller goes on).
void sh(const std::string& command);
// A new repository on branch main, with a committer.
void git_init(const std::string& repo);
// Commits everything as commit `k` (dated 2026-01-01 00:kk UTC, so that commit times order
// the commits too); returns its full hash.
std::string git_commit_all(const std::string& repo, int k);
// A suite of one benchmark `work` that reports, through the iteration protocol, the cost its
// build copied into built-cost.txt, with +-1% noise seeded by seed.txt and the instance:
// timings that no load on the machine can move. `cwd`: the suite's, when given.
// `steady_metric`: also a metric of that name, 1000 +-0.1%, that no commit moves.
std::string cost_suite(const std::string& name, int instances, const std::string& cwd = "",
                       const std::string& steady_metric = "");

}  // namespace benchguard::testing
