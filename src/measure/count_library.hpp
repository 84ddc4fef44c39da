// Where benchguard's count library is (python/benchguard_count.cpp, libbenchguard_count.so):
// the per-iteration instruction counts of programs that cannot issue Valgrind's client
// requests themselves, such as the pytest plugin. Under `run --measure instructions` its path
// goes to the benchmark in BENCHGUARD_COUNT_LIB.
#pragma once

#include <string>

namespace benchguard::measure {

// Beside the running executable (a build tree), else where an install puts it
// (lib/benchguard, relative to bin/); "" when neither holds it.
const std::string& count_library();

}  // namespace benchguard::measure
