#include "cli/analysis_flags.hpp"

namespace benchguard::cli {

Result<stats::Statistic> statistic_from_flag(const std::string& flag) {
  if (flag == "trimmed") return stats::Statistic::kTrimmedMean;
  if (flag == "median") return stats::Statistic::kMedian;
  if (flag == "mean") return stats::Statistic::kMean;
  return Error{"--statistic must be trimmed, median or mean, not '" + flag + "'"};
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

}  // namespace benchguard::cli
