// Flags shared by the analysing commands (summary, compare): metrics, burn-in, bootstrap.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/summary.hpp"
#include "core/result.hpp"

namespace benchguard::cli {

// --statistic trimmed | median | mean.
Result<stats::Statistic> statistic_from_flag(const std::string& flag);

struct AnalysisFlags {
  std::vector<std::string> metrics;  // empty: wall_time (summary: every metric with -v)
  std::string burn_in = "auto";      // auto | configured | N
  int resamples = 10000;
  double confidence = 0.95;
  uint64_t seed = 1;

  void add_to(CLI::App* c);
  // For commands that also measure (ab, bisect), whose --seed and --burn-in are the run's:
  // --metric, --resamples, --confidence and --bootstrap-seed.
  void add_to_measuring(CLI::App* c);
  Result<analysis::BurnInPolicy> burn_in_policy() const;
  Result<analysis::SummaryOptions> summary_options() const;
};

}  // namespace benchguard::cli
