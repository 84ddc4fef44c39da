// Suite YAML -> Suite, plan YAML -> Plan. Every error names file:line. See docs/suite.md for
// both formats.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard {

// A missing file is "cannot read PATH: No such file or directory".
Result<Suite> load_suite(const std::string& path);
// Parses YAML text; `path` is used for error messages and as the base for relative cwd
// (empty: the current directory).
Result<Suite> parse_suite(const std::string& text, const std::string& path);

Result<Plan> load_plan(const std::string& path);
Result<Plan> parse_plan(const std::string& text, const std::string& path);
// The plan as YAML that parse_plan reads back: one flow mapping per benchmark, every key
// written (null when unset), names quoted where YAML needs it. `comment` lines (without '#')
// go on top.
std::string format_plan(const Plan& plan, const std::vector<std::string>& comment = {});

// The plan's entry for a benchmark: by its name, then by its base name; nullptr when none.
const PlanEntry* plan_entry(const Plan& plan, const BenchmarkSpec& benchmark);

// Applies plan counts to matching benchmarks (plan_entry). Benchmarks the plan does not
// mention keep their counts.
void apply_plan(const Plan& plan, Suite& suite);
// Plan entries that name neither a benchmark nor a base name of `suite`, sorted; worth
// a warning, since a renamed benchmark silently loses its planned counts.
std::vector<std::string> unmatched_plan_entries(const Plan& plan, const Suite& suite);

// The variant names of the A/A (null) form of a variant: the same command twice.
inline std::string null_variant_again(const std::string& variant) {
  return variant + ".again";
}

// The A/A form of `suite`: every benchmark keeps one variant (`variant`, or its first when
// empty) twice, under its own name and null_variant_again(name), so a slower or faster
// verdict between the two is a false alarm. Schedule, counts and mixed plans are kept. An
// Error names the benchmark that has no such variant.
Result<Suite> null_suite(const Suite& suite, const std::string& variant);

}  // namespace benchguard
