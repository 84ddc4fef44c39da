// Parameters of a one-off command, as hyperfine takes them: `--parameter-scan NAME MIN MAX`
// (with `--parameter-step-size D`) and `--parameter-list NAME a,b,c`, several lists giving
// their product. `run -- CMD` with them becomes a suite whose one benchmark has these `params`,
// so that every value is a benchmark parameter exactly as a suite file's (docs/suite.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace benchguard::cli {

struct ParameterFlags {
  std::vector<std::string> scan;                // NAME MIN MAX
  std::string step;                             // --parameter-step-size (empty: 1)
  std::vector<std::vector<std::string>> lists;  // NAME VALUES, each
  bool any() const { return !scan.empty() || !lists.empty(); }
};

void add_parameter_flags(CLI::App* c, ParameterFlags& f);

using ParamValues = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Each parameter and its values, in the order given (scan first), or an Error naming the flag:
// a scan from MIN to MAX by the step (MAX included when a step lands on it; values written with
// the step's decimals), a list split at commas.
Result<ParamValues> parameter_values(const ParameterFlags& f);

// The suite file text of one benchmark `name` that runs `command` (a script with `shell`) in
// `cwd` with these params: run -- CMD with parameters is read as this suite is.
std::string parameter_suite_yaml(const std::string& name, const std::vector<std::string>& command,
                                 bool shell, const std::string& cwd, const ParamValues& params);

}  // namespace benchguard::cli
