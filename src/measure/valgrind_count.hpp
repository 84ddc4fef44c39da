// Counting executed instructions under Valgrind (its callgrind tool): the same count on every
// run of the same program and input, where time moves by percents (docs/measurement.md).
// A program using the C++ client (include/benchguard/client.hpp) finds where to read its own
// per-iteration counts in BENCHGUARD_CALLGRIND_OUT.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::measure {

// Where the counts of one instance go: a fresh directory, removed with the object.
class ValgrindRun {
 public:
  // Finds valgrind in `path_env` and makes the directory; an Error says what to install.
  static Result<ValgrindRun> prepare(const char* path_env);
  ValgrindRun(ValgrindRun&& other) noexcept;
  ValgrindRun& operator=(ValgrindRun&&) = delete;
  ValgrindRun(const ValgrindRun&) = delete;
  ~ValgrindRun();

  // `argv` run under callgrind, following every exec'd child: each process writes its count
  // to `prefix().PID`, and one more file `prefix().PID.K` each time it asks for a dump
  // (CALLGRIND_DUMP_STATS: the count since the previous dump, then zeroed).
  std::vector<std::string> wrap(const std::vector<std::string>& argv) const;
  // What BENCHGUARD_CALLGRIND_OUT tells the program: the path of the files without ".PID".
  std::string prefix() const { return dir_ + "/cg"; }
  // The instructions executed by every process of the tree, summed over its files (dumps
  // split a process's count, never repeat it); an Error when no process wrote its count
  // (valgrind could not run the program, or it was killed).
  Result<int64_t> instructions() const;

 private:
  ValgrindRun(std::string valgrind, std::string dir)
      : valgrind_(std::move(valgrind)), dir_(std::move(dir)) {}
  std::string valgrind_;
  std::string dir_;
};

// Whether valgrind is on `path_env`; the Error says what to install.
Status valgrind_available(const char* path_env);

// The count in one callgrind (or cachegrind) output file's text: its `summary:` line's first
// figure (Ir, the event listed first). An Error names what is missing.
Result<int64_t> parse_valgrind_summary(const std::string& text);

}  // namespace benchguard::measure
