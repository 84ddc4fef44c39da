// Shared test helpers: temporary directories, paths of helper programs, running the CLI.
#pragma once

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

// Runs argv[0] with argv (no shell, no PATH search), in `cwd` when given, with this process's
// environment changed by `env`: "KEY=VALUE" sets KEY, "KEY" removes it. Captures output.
CliResult run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& cwd = "");

}  // namespace benchguard::testing
