// Flags shared by the analysing commands: metrics, burn-in, bootstrap (summary, compare, ab,
// calibrate), and the verdict rule (compare, ab, calibrate, bisect), each with its default
// written once.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/summary.hpp"
#include "core/defaults.hpp"
#include "core/result.hpp"

namespace benchguard::cli {

// --statistic robust | trimmed | median | mean.
Result<stats::Statistic> statistic_from_flag(const std::string& flag);

struct AnalysisFlags {
  std::vector<std::string> metrics;  // empty: wall_time (summary: every metric with -v)
  std::string burn_in = "auto";      // auto | configured | N
  int resamples = 10000;
  double confidence = 0.95;
  uint64_t seed = 1;

  // --metric, --burn-in, --resamples, --confidence and --bootstrap-seed.
  void add_to(CLI::App* c);
  // For commands that also measure (ab, bisect, calibrate, confirm, pytest), whose --burn-in
  // is the run's: --metric, --resamples, --confidence and --bootstrap-seed.
  void add_to_measuring(CLI::App* c);
  Result<analysis::BurnInPolicy> burn_in_policy() const;
  Result<analysis::SummaryOptions> summary_options() const;
};

// The verdict rule: --statistic, --interval and --threshold.
struct VerdictFlags {
  std::string statistic = "robust";
  std::string interval = "t";
  double threshold = kDefaultThreshold;

  void add_to(CLI::App* c);
};

// The comparison every command that gives verdicts runs, built here and only here from the
// shared flags: the same flags give the same CompareOptions in compare, ab and calibrate.
Result<analysis::CompareOptions> compare_options(const AnalysisFlags& analysis,
                                                 const VerdictFlags& verdict);

// --fail-on slower | faster | change: whether the report has what it asks to fail on (empty:
// never).
bool fails_on(const std::string& fail_on, const analysis::CompareReport& report);

}  // namespace benchguard::cli
