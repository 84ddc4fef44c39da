// Whether A and B ran under the same conditions: the facts every run stores about its machine
// (measure::host_artifacts) that change timings, compared between the runs of each side.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"

namespace benchguard::analysis {

// The artifact keys compared, in report order: cpu_governor, turbo, smt, isolated_cpus,
// nohz_full, aslr, cpu_quota, virtualization, container, cpu_model, cpu_count, kernel,
// hostname, ...
const std::vector<std::string>& condition_keys();

struct ConditionDifference {
  std::string key;
  std::vector<std::string> a, b;  // the distinct values of each side, in order of appearance
};

// The artifacts of each run (or result file) of side A and of side B. A key counts only when
// both sides have it, in at least one run each. It differs when the sides' values differ, or
// when the runs of one side disagree among themselves.
std::vector<ConditionDifference> condition_differences(const std::vector<KeyValues>& a,
                                                       const std::vector<KeyValues>& b);

// One line: "A and B ran under different conditions: cpu_governor powersave (A) vs
// performance (B)"; a side whose runs disagree lists its values ("x / y (A: its runs differ)").
std::string describe(const ConditionDifference& d);

// describe() of every difference.
std::vector<std::string> condition_warnings(const std::vector<KeyValues>& a,
                                            const std::vector<KeyValues>& b);

}  // namespace benchguard::analysis
