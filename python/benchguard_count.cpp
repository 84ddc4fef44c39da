// Per-iteration instruction counts for programs that cannot issue Valgrind's client requests
// themselves (docs/measurement.md): the pytest plugin loads this library with ctypes from the
// path benchguard names in BENCHGUARD_COUNT_LIB under `run --measure instructions`. It wraps
// include/benchguard/instruction_count.hpp, so it counts as the C++ client does.
#include "benchguard/instruction_count.hpp"

namespace {

benchguard::InstructionCount& counter() {
  static benchguard::InstructionCount count;
  return count;
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

}  // extern "C"
