// Suite YAML -> Suite. Every error names file:line. See docs/suite.md for the format.
#pragma once

#include <string>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard {

Result<Suite> load_suite(const std::string& path);
// Parses YAML text; `path` is used for error messages and as the base for relative cwd.
Result<Suite> parse_suite(const std::string& text, const std::string& path);

Result<Plan> load_plan(const std::string& path);
Result<Plan> parse_plan(const std::string& text, const std::string& path);

// Applies plan counts to matching benchmarks (by name, then base name).
void apply_plan(const Plan& plan, Suite& suite);

}  // namespace benchguard
