#include "stats/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

// Smallest two-sided p-value the exact U test can give: both extreme arrangements out of
// C(n_a + n_b, n_a).
double smallest_exact_p(std::size_t n_a, std::size_t n_b) {
  const double log_choose = std::lgamma(static_cast<double>(n_a + n_b) + 1.0) -
                            std::lgamma(static_cast<double>(n_a) + 1.0) -
                            std::lgamma(static_cast<double>(n_b) + 1.0);
  return std::min(1.0, 2.0 * std::exp(-log_choose));
}

// Every value of both samples is the same number.
bool same_constant(const Hierarchical& a, const Hierarchical& b) {
  const auto va = a.values(), vb = b.values();
  if (va.empty() || vb.empty()) return false;
  const double x = va.front();
  auto all_x = [x](std::span<const double> v) {
    return std::all_of(v.begin(), v.end(), [x](double y) { return y == x; });
  };
  return all_x(va) && all_x(vb);
}

// What a user can act on when a side has fewer than kMinInstancesForVerdict instances.
std::string too_few_instances(std::size_t n_a, std::size_t n_b) {
  const std::string counts =
      n_a == n_b ? std::to_string(n_a) + (n_a == 1 ? " instance per side" : " instances per side")
                 : std::to_string(n_a) + (n_a == 1 ? " instance" : " instances") + " of A and " +
                       std::to_string(n_b) + " of B";
  return counts + ": a verdict needs at least " + std::to_string(kMinInstancesForVerdict) +
         " per side to see how instances differ; rerun with --instances 5 or more (imported "
         "results: more repetitions)";
}

}  // namespace

Comparison compare_with_sample(const Hierarchical& a, const Hierarchical& b,
                               const RatioSample& sample, const VerdictOptions& options) {
  Comparison c;
  c.mean_a = mean(a.values());
  c.mean_b = mean(b.values());
  c.value_a = statistic_of(a, options.statistic);
  c.value_b = statistic_of(b, options.statistic);
  const CiMethod interval = interval_of(options);
  c.ratio = ratio_estimate(sample, options.confidence, interval);
  c.interval = interval;
  c.warnings = c.ratio.warnings;

  if (options.statistic == Statistic::kRobustMean)
    c.tail = compare_tails(a, b, options.confidence);
  else if (options.statistic != Statistic::kMean)
    mean_ratio(a, b, options.confidence, c.tail);

  c.instance_test = mann_whitney_u(instance_means(a), instance_means(b));
  c.p_value = c.p_value_adjusted = c.instance_test.p_value;
  const double alpha = 1.0 - options.confidence;
  if (a.instances() >= kMinInstancesForVerdict && b.instances() >= kMinInstancesForVerdict &&
      smallest_exact_p(a.instances(), b.instances()) >= alpha) {
    std::ostringstream floor;
    floor << "with " << a.instances() << " and " << b.instances()
          << " instances the Mann-Whitney U p-value cannot fall below " << alpha;
    c.warnings.push_back(floor.str());
  }

  const VarianceTerm terms[] = {sample.a, sample.b};
  c.p_value_bootstrap = c.p_value_bootstrap_adjusted =
      interval == CiMethod::kStudentT
          ? t_p_value(sample.ratio > 0.0 ? std::log(sample.ratio) : NAN, terms)
          : bootstrap_p_value(sample.replicates, 1.0, c.ratio.expansion);
  c.threshold = options.threshold;
  c.direction = options.direction;
  c.verdict = classify(c.ratio.value, c.ratio.ci, options.threshold, options.direction);

  if (a.instances() < kMinInstancesForVerdict || b.instances() < kMinInstancesForVerdict) {
    c.verdict = Verdict::kInconclusive;
    c.warnings.insert(c.warnings.begin(), too_few_instances(a.instances(), b.instances()));
  } else if (same_constant(a, b)) {
    // 0 B/op before and after: no change, whatever the resampling says of 0 / 0.
    c.ratio.value = 1.0;
    c.ratio.ci = {1.0, 1.0};
    c.ratio.warnings.clear();
    c.warnings.clear();
    c.p_value_bootstrap = c.p_value_bootstrap_adjusted = 1.0;
    c.tail = TailComparison{};
    c.verdict = Verdict::kUnchanged;
  }
  return c;
}

CiMethod interval_of(const VerdictOptions& options) {
  return options.statistic == Statistic::kMedian && options.interval == CiMethod::kStudentT
             ? CiMethod::kExpandedPercentile
             : options.interval;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kUnchanged:
      return "unchanged";
    case Verdict::kSlower:
      return "slower";
    case Verdict::kFaster:
      return "faster";
    case Verdict::kInconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

Verdict classify(double ratio, Interval ci, double threshold, Direction direction) {
  if (!std::isfinite(ratio) || !std::isfinite(ci.lower) || !std::isfinite(ci.upper)) {
    return Verdict::kInconclusive;
  }
  const bool increased = ci.lower > 1.0 && ratio > 1.0 + threshold;
  const bool decreased = ci.upper < 1.0 && ratio < 1.0 - threshold;
  const bool lower_is_better = direction == Direction::kLowerIsBetter;
  if (increased) return lower_is_better ? Verdict::kSlower : Verdict::kFaster;
  if (decreased) return lower_is_better ? Verdict::kFaster : Verdict::kSlower;
  if (ci.lower >= 1.0 - threshold && ci.upper <= 1.0 + threshold) return Verdict::kUnchanged;
  return Verdict::kInconclusive;
}

int verdict_resamples(const VerdictOptions& options) {
  return interval_of(options) == CiMethod::kStudentT ? 0 : options.resamples;
}

double probability_beyond(const RatioSample& sample, double threshold, Direction direction,
                          CiMethod method) {
  const bool lower_is_better = direction == Direction::kLowerIsBetter;
  if (method == CiMethod::kStudentT) {
    if (!(sample.ratio > 0.0) || std::isinf(sample.ratio))
      return std::numeric_limits<double>::quiet_NaN();
    const VarianceTerm terms[] = {sample.a, sample.b};
    const double bound = std::log1p(threshold);
    const double log_ratio = std::log(sample.ratio);
    // Below -bound for the log ratio is above +bound for its negative, whose terms are the same.
    return lower_is_better ? t_probability_above(log_ratio, terms, bound)
                           : t_probability_above(-log_ratio, terms, bound);
  }
  if (sample.replicates.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::size_t worse = 0;
  for (const double r : sample.replicates)
    if (lower_is_better ? r > 1 + threshold : r < 1 / (1 + threshold)) ++worse;
  return static_cast<double>(worse) / static_cast<double>(sample.replicates.size());
}

Comparison compare(const Hierarchical& a, const Hierarchical& b, const VerdictOptions& options) {
  const auto sample =
      ratio_sample(a, b, options.statistic, verdict_resamples(options), options.seed);
  Comparison c = compare_with_sample(a, b, sample, options);
  adjust_family(std::span(&c, 1), options);
  return c;
}

namespace {

bool changed(Verdict v) {
  return v == Verdict::kSlower || v == Verdict::kFaster;
}

std::string figure(double x) {
  return fmt::format("{:.4g}", x);
}

std::string interval_text(const Estimate& e) {
  return fmt::format("{} [{}, {}]", figure(e.value), figure(e.ci.lower), figure(e.ci.upper));
}

// What the tails of `c` did, for its warnings.
std::string tails_text(const Comparison& c) {
  const TailComparison& t = c.tail;
  return fmt::format(
      "{} of B's {} iterations are spikes against {} of A's {}, adding {:+.2f}% of B's level "
      "against {:+.2f}% of A's (Welch over instances: p {}, Holm {}); the mean, which counts "
      "them, gives B/A {}",
      t.spikes_b, t.values_b, t.spikes_a, t.values_a, 100 * t.excess_b, 100 * t.excess_a,
      fmt::format("{:.2g}", t.p_value), fmt::format("{:.2g}", t.p_value_adjusted),
      interval_text(t.mean_ratio));
}

// The tail rules of adjust_family on one comparison, after Holm.
void judge_tails(Comparison& c, const VerdictOptions& options) {
  if (!(options.tail_weight > 0)) return;  // the tails are not judged at all
  const double alpha = 1.0 - options.confidence;
  const TailComparison& t = c.tail;
  const Estimate& m = t.mean_ratio;
  if (t.tested && t.p_value_adjusted < alpha) {
    const Verdict by_mean = classify(m.value, m.ci, c.threshold, c.direction);
    if (changed(by_mean) && !changed(c.verdict)) {
      c.warnings.insert(c.warnings.begin(),
                        std::string(to_string(by_mean)) +
                            " in the tail (the robust mean alone: " + to_string(c.verdict) + ", " +
                            figure(c.ratio.value) + "): " + tails_text(c));
      c.verdict = by_mean;
    } else if (changed(by_mean) && by_mean != c.verdict) {
      c.warnings.insert(c.warnings.begin(), std::string("was ") + to_string(c.verdict) +
                                                " in the centre but " + to_string(by_mean) +
                                                " in the tail: " + tails_text(c));
      c.verdict = Verdict::kInconclusive;
    } else if (!changed(by_mean) && c.verdict == Verdict::kUnchanged) {
      c.warnings.insert(c.warnings.begin(),
                        "was unchanged in the centre, but its tails moved: " + tails_text(c));
      c.verdict = Verdict::kInconclusive;
    }
    return;
  }
  if (c.verdict != Verdict::kUnchanged) return;
  if (t.tested && t.p_value < alpha) {
    c.warnings.insert(c.warnings.begin(),
                      "was unchanged in the centre, but its tails may have moved (significant "
                      "alone, not after Holm): " +
                          tails_text(c));
    c.verdict = Verdict::kInconclusive;
    return;
  }
  // Unchanged says that what the benchmark costs is the same within the threshold: the mean,
  // which counts every iteration, must say so too.
  if (std::isfinite(m.value) &&
      classify(m.value, m.ci, c.threshold, c.direction) != Verdict::kUnchanged) {
    c.warnings.insert(
        c.warnings.begin(),
        fmt::format("was unchanged by the {}, but the mean, which counts every iteration{}, "
                    "gives B/A {}: not within the threshold",
                    to_string(options.statistic),
                    t.tested ? fmt::format(" ({} spikes of A and {} of B among them)", t.spikes_a,
                                           t.spikes_b)
                             : std::string(),
                    interval_text(m)));
    c.verdict = Verdict::kInconclusive;
  }
}

}  // namespace

void adjust_family(std::span<Comparison> family, const VerdictOptions& options,
                   std::string_view members) {
  std::vector<double> p, p_boot, weights;
  std::vector<std::size_t> tails;  // the comparisons whose tails are hypotheses too
  for (const auto& c : family) {
    p.push_back(c.p_value);
    p_boot.push_back(c.p_value_bootstrap);
    weights.push_back(1.0);
  }
  for (std::size_t k = 0; k < family.size(); ++k)
    if (family[k].tail.tested && options.tail_weight > 0) {
      tails.push_back(k);
      p_boot.push_back(family[k].tail.p_value);
      weights.push_back(options.tail_weight);
    }
  const auto p_adj = holm_adjust(p);
  const auto p_boot_adj = holm_adjust(p_boot, weights);
  const double alpha = 1.0 - options.confidence;
  const std::size_t hypotheses = family.size() + tails.size();
  for (std::size_t j = 0; j < tails.size(); ++j)
    family[tails[j]].tail.p_value_adjusted = p_boot_adj[family.size() + j];
  const std::string over = tails.empty()
                               ? fmt::format("{} {}", family.size(), members)
                               : fmt::format("{} hypotheses (the centres of {} {} and {} tails)",
                                             hypotheses, family.size(), members, tails.size());
  for (std::size_t k = 0; k < family.size(); ++k) {
    auto& c = family[k];
    c.p_value_adjusted = p_adj[k];
    c.p_value_bootstrap_adjusted = p_boot_adj[k];
    if (options.holm_gates_verdict && changed(c.verdict) &&
        !(c.p_value_bootstrap_adjusted < alpha)) {
      c.warnings.push_back(fmt::format("was {}; not significant after Holm's adjustment over {}",
                                       to_string(c.verdict), over));
      c.verdict = Verdict::kInconclusive;
    }
    judge_tails(c, options);
  }
}

ComparisonSet compare_all(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                          const VerdictOptions& options) {
  if (a.size() != b.size()) {
    ComparisonSet set;
    set.geomean.warnings.push_back("A and B list different numbers of benchmarks");
    return set;
  }
  std::vector<RatioSample> samples;
  for (std::size_t k = 0; k < a.size(); ++k)
    samples.push_back(ratio_sample(a[k], b[k], options.statistic, verdict_resamples(options),
                                   derive_seed(options.seed, k)));
  return compare_samples(a, b, samples, options);
}

ComparisonSet compare_samples(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                              std::span<const RatioSample> samples, const VerdictOptions& options,
                              std::span<const double> thresholds) {
  ComparisonSet set = compare_each(a, b, samples, options, thresholds);
  adjust_family(set.benchmarks, options);
  return set;
}

ComparisonSet compare_each(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                           std::span<const RatioSample> samples, const VerdictOptions& options,
                           std::span<const double> thresholds) {
  ComparisonSet set;
  if (a.size() != b.size() || a.size() != samples.size() ||
      (!thresholds.empty() && thresholds.size() != a.size())) {
    set.geomean.warnings.push_back("A and B list different numbers of benchmarks");
    return set;
  }
  VerdictOptions own = options;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!thresholds.empty()) own.threshold = thresholds[k];
    set.benchmarks.push_back(compare_with_sample(a[k], b[k], samples[k], own));
  }
  set.geomean = geomean_estimate(samples, options.confidence, interval_of(options));
  return set;
}

}  // namespace benchguard::stats
