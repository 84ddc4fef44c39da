// Counting executed instructions under Valgrind's cachegrind: the same count on every run of
// the same program and input, where time moves by percents (docs/measurement.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::measure {

// Where the counts of one instance go: a fresh directory, removed with the object.
class CachegrindRun {
 public:
  // Finds valgrind in `path_env` and makes the directory; an Error says what to install.
  static Result<CachegrindRun> prepare(const char* path_env);
  CachegrindRun(CachegrindRun&& other) noexcept;
  CachegrindRun& operator=(CachegrindRun&&) = delete;
  CachegrindRun(const CachegrindRun&) = delete;
  ~CachegrindRun();

  // `argv` run under cachegrind, following every exec'd child (one count file per process).
  std::vector<std::string> wrap(const std::vector<std::string>& argv) const;
  // The instructions executed by every process of the tree, summed; an Error when no process
  // wrote its count (valgrind could not run the program, or it was killed).
  Result<int64_t> instructions() const;

 private:
  CachegrindRun(std::string valgrind, std::string dir)
      : valgrind_(std::move(valgrind)), dir_(std::move(dir)) {}
  std::string valgrind_;
  std::string dir_;
};

// Whether valgrind is on `path_env`; the Error says what to install.
Status cachegrind_available(const char* path_env);

// The count in one cachegrind output file's text: its `summary:` line's first figure (Ir,
// the event cachegrind lists first). An Error names what is missing.
Result<int64_t> parse_cachegrind_summary(const std::string& text);

}  // namespace benchguard::measure
