// Running a helper command (git, ...) and collecting what it prints.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::measure {

struct Captured {
  int exit_code = -1;  // -1 when it died of a signal
  std::string out;     // standard output; standard error is discarded
};

// Runs argv (no shell; argv[0] looked up in PATH) in `cwd` (empty: inherit) with `env` set on
// top of the inherited environment and stdin on /dev/null. An Error only when it cannot start.
Result<Captured> capture_output(const std::vector<std::string>& argv, const std::string& cwd = "",
                                const KeyValues& env = {});

}  // namespace benchguard::measure
