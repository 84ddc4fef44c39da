// Whether A and B ran under the same conditions: the facts every run stores about its machine
// (measure::host_artifacts) that change timings, compared between the runs of each side.
#pragma once

#include <map>
#include <optional>
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

// ---- the Python packages of each side (benchguard pytest, the pytest plugin's sessions)

// The run artifact that holds them: a session's {"dask": "2024.2.1", ...}, or a `benchguard
// pytest` run's {"A": {...}, "B": {...}}, one set per variant.
inline constexpr const char* kPackagesArtifact = "python_packages";
using Packages = std::map<std::string, std::string>;  // name -> version

// The packages `variant` of a run with these artifacts ran with: the variant's own set, or the
// run's one set; nullopt when the run records none (or its record cannot be read).
std::optional<Packages> packages_of(const KeyValues& artifacts, const std::string& variant);

// What differs between two package sets, one entry each, sorted by name:
// "dask 2023.3.2 -> 2024.2.1", "numba (only in B, 0.58.1)", "pyarrow (only in A, 14.0.1)".
// Names compare as pip does: case-insensitive, with '-', '_' and '.' alike.
std::vector<std::string> package_changes(const Packages& a, const Packages& b);

// One line for a comparison's notes: "packages that differ between A and B: dask 2023.3.2 ->
// 2024.2.1, distributed ..." (the first 12, then how many more), or "" when none differ.
std::string packages_note(const Packages& a, const Packages& b);

}  // namespace benchguard::analysis
