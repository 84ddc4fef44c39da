// Per-iteration instruction counts under `benchguard run --measure instructions`
// (docs/measurement.md): benchguard runs the program under Valgrind's callgrind and names, in
// BENCHGUARD_CALLGRIND_OUT, where callgrind writes. begin() and end() bracket one iteration
// with a dump each (CALLGRIND_DUMP_STATS: the instructions since the previous dump go to a
// file of their own, then the count restarts), and end() reads the iteration's file: the
// instructions the iteration executed, without the program's start-up, set-up or the other
// iterations. Anywhere else (not under Valgrind, or built without Valgrind's headers, or with
// BENCHGUARD_NO_VALGRIND defined) both do nothing and end() gives no count.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#if !defined(BENCHGUARD_NO_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCHGUARD_HAS_CALLGRIND 1
#endif
#endif

namespace benchguard {

class InstructionCount {
 public:
  InstructionCount() {
#ifdef BENCHGUARD_HAS_CALLGRIND
    const char* out = std::getenv("BENCHGUARD_CALLGRIND_OUT");
    if (RUNNING_ON_VALGRIND && out != nullptr && *out != '\0') prefix_ = out;
#endif
  }

  bool active() const {
    return !prefix_.empty();
  }

  // Just before the iteration's work.
  void begin() {
#ifdef BENCHGUARD_HAS_CALLGRIND
    if (!active()) return;
    CALLGRIND_DUMP_STATS;
    ++dumps();
#endif
  }

  // Just after it: its count, or nothing when not counting (or the file cannot be read).
  std::optional<int64_t> end() {
#ifdef BENCHGUARD_HAS_CALLGRIND
    if (!active()) return std::nullopt;
    CALLGRIND_DUMP_STATS;
    const int part = ++dumps();
    const std::string path =
        prefix_ + "." + std::to_string(static_cast<long>(::getpid())) + "." + std::to_string(part);
    return summary(path);
#else
    return std::nullopt;
#endif
  }

 private:
  // Dumps this process has asked for: callgrind numbers its files by them.
  static int& dumps() {
    static int n = 0;
    return n;
  }

  // The first figure of the file's `summary:` line.
  static std::optional<int64_t> summary(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (f == nullptr) return std::nullopt;
    char line[512];
    std::optional<int64_t> n;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      if (std::strncmp(line, "summary:", 8) != 0) continue;
      char* end = nullptr;
      const long long v = std::strtoll(line + 8, &end, 10);
      if (end != line + 8 && v >= 0) n = static_cast<int64_t>(v);
      break;
    }
    std::fclose(f);
    return n;
  }

  std::string prefix_;
};

}  // namespace benchguard
