#include "cli/analysis_flags.hpp"

#include <fmt/format.h>

#include "core/defaults.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

Result<stats::Statistic> statistic_from_flag(const std::string& flag) {
  if (flag == "robust") return stats::Statistic::kRobustMean;
  if (flag == "trimmed") return stats::Statistic::kTrimmedMean;
  if (flag == "median") return stats::Statistic::kMedian;
  if (flag == "mean") return stats::Statistic::kMean;
  return Error{"--statistic must be robust, trimmed, median or mean, not '" + flag + "'"};
}

void AnalysisFlags::add_to(CLI::App* c) {
  c->add_option("--metric", metrics,
                "Metric(s) to analyse, or all (compare: wall time, peak memory and the "
                "benchmarks' own metrics by default; summary: wall_time)");
  c->add_option("--burn-in", burn_in,
                "auto (flagged + detected), configured (flagged only), or a count per instance");
  c->add_option("--resamples", resamples, "Bootstrap resamples")->check(CLI::Range(100, 10000000));
  c->add_option("--confidence", confidence, "Confidence level of intervals")
      ->check(CLI::Range(0.5, 0.9999));
  c->add_option("--seed", seed, "Seed of the bootstrap (same seed, same answer)");
}

void AnalysisFlags::add_to_measuring(CLI::App* c) {
  c->add_option("--metric", metrics, "Metric(s) to analyse, or all (default: as compare)");
  c->add_option("--resamples", resamples, "Bootstrap resamples")->check(CLI::Range(100, 10000000));
  c->add_option("--confidence", confidence, "Confidence level of intervals")
      ->check(CLI::Range(0.5, 0.9999));
  c->add_option("--bootstrap-seed", seed, "Seed of the bootstrap (same seed, same answer)");
}

Result<analysis::BurnInPolicy> AnalysisFlags::burn_in_policy() const {
  analysis::BurnInPolicy p;
  if (burn_in == "auto") {
    p.mode = analysis::BurnInPolicy::Mode::kAuto;
  } else if (burn_in == "configured") {
    p.mode = analysis::BurnInPolicy::Mode::kConfigured;
  } else {
    try {
      size_t used = 0;
      const long n = std::stol(burn_in, &used);
      if (used != burn_in.size() || n < 0) throw std::invalid_argument("negative");
      p.mode = analysis::BurnInPolicy::Mode::kFixed;
      p.fixed = static_cast<size_t>(n);
    } catch (...) {
      return Error{"--burn-in must be auto, configured or a count, not '" + burn_in + "'"};
    }
  }
  return p;
}

Result<analysis::SummaryOptions> AnalysisFlags::summary_options() const {
  analysis::SummaryOptions o;
  BG_ASSIGN(o.burn_in, burn_in_policy());
  o.resamples = resamples;
  o.confidence = confidence;
  o.seed = seed;
  return o;
}

std::string VerdictFlags::default_threshold_text() {
  return fmt::format("{:g}%", 100 * kDefaultThreshold);
}

void VerdictFlags::add_to(CLI::App* c) {
  c->add_option("--statistic", statistic,
                "What B/A compares: robust (default: the mean without spike iterations), "
                "trimmed (the mean of the middle 80%), median, or mean")
      ->check(CLI::IsMember({"robust", "trimmed", "median", "mean"}));
  c->add_option("--interval", interval,
                "t (default: a t interval from each side's variance, Welch's degrees of "
                "freedom) or bootstrap (expanded percentile of the hierarchical bootstrap)")
      ->check(CLI::IsMember({"t", "bootstrap"}));
  c->add_option("--threshold", threshold,
                "Smallest change that counts (default " + default_threshold_text() + ")");
}

Result<analysis::CompareOptions> compare_options(const AnalysisFlags& analysis,
                                                 const VerdictFlags& verdict) {
  analysis::CompareOptions o;
  if (!analysis.metrics.empty()) o.metrics = analysis.metrics;
  BG_ASSIGN(o.burn_in, analysis.burn_in_policy());
  BG_ASSIGN(o.verdict.threshold, parse_fraction(verdict.threshold, "--threshold"));
  BG_ASSIGN(o.verdict.statistic, statistic_from_flag(verdict.statistic));
  o.verdict.interval = verdict.interval == "bootstrap" ? stats::CiMethod::kExpandedPercentile
                                                       : stats::CiMethod::kStudentT;
  o.verdict.confidence = analysis.confidence;
  o.verdict.resamples = analysis.resamples;
  o.verdict.seed = analysis.seed;
  return o;
}

bool fails_on(const std::string& fail_on, const analysis::CompareReport& report) {
  using stats::Verdict;
  const bool slower = report.any(Verdict::kSlower), faster = report.any(Verdict::kFaster);
  return (fail_on == "slower" && slower) || (fail_on == "faster" && faster) ||
         (fail_on == "change" && (slower || faster));
}

}  // namespace benchguard::cli
