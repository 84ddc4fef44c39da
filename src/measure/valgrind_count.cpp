#include "measure/valgrind_count.hpp"

#include <stdlib.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "measure/exec_resolve.hpp"

namespace benchguard::measure {

namespace fs = std::filesystem;

namespace {

Result<std::string> find_valgrind(const char* path_env) {
  auto valgrind = resolve_executable("valgrind", path_env, "");
  if (!valgrind.ok())
    return Error{
        "measure: instructions needs Valgrind, which is not installed here "
        "(apt-get install valgrind)"};
  return valgrind;
}

}  // namespace

Status valgrind_available(const char* path_env) {
  BG_TRY(find_valgrind(path_env));
  return ok_status();
}

Result<ValgrindRun> ValgrindRun::prepare(const char* path_env) {
  BG_ASSIGN(std::string valgrind, find_valgrind(path_env));
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  std::string dir = ((ec ? fs::path("/tmp") : base) / "benchguard-vg-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr)
    return Error{"cannot make a directory for Valgrind's counts in " + base.string()};
  return ValgrindRun(std::move(valgrind), std::move(dir));
}

ValgrindRun::ValgrindRun(ValgrindRun&& other) noexcept
    : valgrind_(std::move(other.valgrind_)), dir_(std::move(other.dir_)) {
  other.dir_.clear();
}

ValgrindRun::~ValgrindRun() {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::vector<std::string> ValgrindRun::wrap(const std::vector<std::string>& argv) const {
  // callgrind rather than cachegrind: Valgrind 3.19's cachegrind has no client requests, and
  // the per-iteration counts need its dumps. Positions by function only (no line tables), to
  // keep its files small.
  std::vector<std::string> out = {valgrind_,
                                  "--tool=callgrind",
                                  "--dump-line=no",
                                  "--trace-children=yes",
                                  "--callgrind-out-file=" + prefix() + ".%p",
                                  "-q",
                                  "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

Result<int64_t> parse_valgrind_summary(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("summary:")) continue;
    std::size_t at = 8;
    while (at < line.size() && line[at] == ' ') ++at;
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(line.data() + at, line.data() + line.size(), n);
    if (ec != std::errc() || end == line.data() + at || n < 0)
      return Error{"its summary line '" + line + "' holds no count"};
    return n;
  }
  return Error{"it has no summary line"};
}

Result<int64_t> ValgrindRun::instructions() const {
  int64_t total = 0;
  int files = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    std::ifstream f(e.path());
    std::stringstream text;
    text << f.rdbuf();
    auto n = parse_valgrind_summary(text.str());
    // A process killed before it exited leaves a file without its summary.
    if (!n.ok())
      return Error{"Valgrind's count " + e.path().filename().string() + ": " + n.error().message +
                   " (was a process of the benchmark killed?)"};
    total += *n;
    ++files;
  }
  if (files == 0)
    return Error{
        "valgrind wrote no instruction count: it could not run the benchmark (run it "
        "with --show-output to see why)"};
  return total;
}

}  // namespace benchguard::measure
