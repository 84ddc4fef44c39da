#include "cli/analysis_flags.hpp"

#include "cli/shared_flags.hpp"

namespace benchguard::cli {

Result<stats::Statistic> statistic_from_flag(const std::string& flag) {
  if (flag == "robust") return stats::Statistic::kRobustMean;
  if (flag == "trimmed") return stats::Statistic::kTrimmedMean;
  if (flag == "median") return stats::Statistic::kMedian;
  if (flag == "mean") return stats::Statistic::kMean;
  return Error{"--statistic must be robust, trimmed, median or mean, not '" + flag + "'"};
}

void AnalysisFlags::add_to(CLI::App* c) {
  add_metrics(c, metrics);
  add_burn_in(c, burn_in);
  add_resamples(c, resamples);
  add_confidence(c, confidence);
  add_bootstrap_seed(c, seed);
  add_renamed(c, "--seed", "--bootstrap-seed",
              "the seed of the resampling; --seed is the order a run measures in");
}

void AnalysisFlags::add_to_measuring(CLI::App* c) {
  add_metrics(c, metrics);
  add_resamples(c, resamples);
  add_confidence(c, confidence);
  add_bootstrap_seed(c, seed);
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

void VerdictFlags::add_to(CLI::App* c) {
  add_statistic(c, statistic);
  add_interval(c, interval);
  add_threshold(c, threshold);
}

Result<analysis::CompareOptions> compare_options(const AnalysisFlags& analysis,
                                                 const VerdictFlags& verdict) {
  analysis::CompareOptions o;
  if (!analysis.metrics.empty()) o.metrics = analysis.metrics;
  BG_ASSIGN(o.burn_in, analysis.burn_in_policy());
  o.verdict.threshold = verdict.threshold;
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
