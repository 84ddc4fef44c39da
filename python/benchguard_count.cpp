// Per-iteration counts for programs that cannot issue Valgrind's client requests or open perf
// events themselves (docs/measurement.md): the pytest plugin loads this library with ctypes from
// the path benchguard names in BENCHGUARD_COUNT_LIB, under `run --measure instructions` and
// where hardware counters work. It wraps include/benchguard/instruction_count.hpp and
// iteration_counters.hpp, so it counts as the C++ client does.
#include <string>
#include <utility>
#include <vector>

#include "benchguard/instruction_count.hpp"
#include "benchguard/iteration_counters.hpp"

namespace {

benchguard::InstructionCount& counter() {
  static benchguard::InstructionCount count;
  return count;
}

// The events named in BENCHGUARD_COUNTERS, opened on the thread that first asks.
benchguard::IterationCounters& counters() {
  static benchguard::IterationCounters events;
  return events;
}

}  // namespace

extern "C" {

// 1 when running under benchguard's callgrind with Valgrind's headers built in, else 0.
__attribute__((visibility("default"))) int benchguard_count_active(void) {
  return counter().active() ? 1 : 0;
}

// Just before the iteration's work.
__attribute__((visibility("default"))) void benchguard_count_begin(void) {
  counter().begin();
}

// Just after it: the instructions executed since benchguard_count_begin(), or -1.
__attribute__((visibility("default"))) long long benchguard_count_end(void) {
  const auto n = counter().end();
  return n ? static_cast<long long>(*n) : -1;
}

// 1 when per-iteration events are counted (BENCHGUARD_COUNTERS names some the kernel allows).
__attribute__((visibility("default"))) int benchguard_counters_active(void) {
  return counters().active() ? 1 : 0;
}

// Just before the iteration's work.
__attribute__((visibility("default"))) void benchguard_counters_begin(void) {
  counters().begin();
}

// Just after it: fills up to `capacity` names (valid until the next call) and counts of the
// events that counted since benchguard_counters_begin(); returns how many.
__attribute__((visibility("default"))) int benchguard_counters_end(const char** names,
                                                                   double* values, int capacity) {
  static std::vector<std::pair<std::string, double>> counted;
  counted.clear();
  counters().end(counted);
  int n = 0;
  for (const auto& [name, value] : counted) {
    if (n >= capacity) break;
    names[n] = name.c_str();
    values[n] = value;
    ++n;
  }
  return n;
}

}  // extern "C"
