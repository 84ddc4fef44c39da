#include "stats/bootstrap.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

void add_tail_warning(Estimate& e, int resamples) {
  if (e.tail * resamples < 5.0) {
    e.warnings.push_back("the interval is read at tail probability " + std::to_string(e.tail) +
                         ", fewer than 5 of " + std::to_string(resamples) +
                         " resamples: its ends are the extreme resamples; more instances or "
                         "resamples make it reliable");
  }
}

// Robust statistics take their variance terms from the data clipped to the median +- this
// many scaled MADs: the spikes they ignore must not set their interval's width either.
constexpr double kWinsorMads = 3.0;

constexpr const char* kFewInstances =
    "fewer than 2 instances: the interval shows iteration noise only, not the variation "
    "between instances";

Estimate finish(Estimate e, std::span<const double> replicates, double confidence, CiMethod method,
                Expansion expansion) {
  e.expansion = method == CiMethod::kExpandedPercentile ? expansion : Expansion{};
  e.tail = tail_probability(confidence, e.expansion);
  const bool has_nan =
      std::any_of(replicates.begin(), replicates.end(), [](double r) { return std::isnan(r); });
  if (replicates.empty() || has_nan) {
    e.warnings.push_back("no usable bootstrap resamples");
    return e;
  }
  e.ci = percentile_interval(replicates, e.tail);
  add_tail_warning(e, static_cast<int>(replicates.size()));
  return e;
}

// The t interval (confidence.hpp) of an estimate whose logarithm is `log_value`, back on the
// ratio scale.
Estimate finish_t(Estimate e, double log_value, std::span<const VarianceTerm> terms,
                  double confidence) {
  e.expansion = Expansion{1.0, t_dof(terms)};
  if (!std::isfinite(log_value)) {
    e.warnings.push_back("the ratio is not a positive, finite number");
    return e;
  }
  const Interval ci = t_interval(log_value, terms, confidence);
  e.ci = {std::exp(ci.lower), std::exp(ci.upper)};
  return e;
}

// Delete-a-group jackknife over instances, at most this many groups of consecutive instances:
// the cost is groups x iterations.
constexpr std::size_t kJackknifeGroups = 50;

// The jackknife variance of `statistic` over instances (Efron & Tibshirani, "An introduction
// to the bootstrap", 1993, 11.2; delete-a-group: Kott, "The delete-a-group jackknife", Journal
// of Official Statistics 17, 2001): (G - 1) / G sum (theta_(g) - mean)^2 over G groups.
// Returns the variance and G.
std::pair<double, std::size_t> jackknife_variance(const Hierarchical& data, Statistic statistic) {
  const std::size_t n = data.instances();
  const std::size_t groups = std::min(n, kJackknifeGroups);
  if (groups < 2) return {0.0, groups};
  std::vector<double> theta(groups);
  Hierarchical without;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t first = g * n / groups, last = (g + 1) * n / groups;
    without = Hierarchical();
    for (std::size_t i = 0; i < n; ++i)
      if (i < first || i >= last) without.add_instance(data.instance(i));
    theta[g] = statistic_of(without, statistic);
  }
  const double centre = mean(theta);
  double ss = 0.0;
  for (double t : theta) ss += (t - centre) * (t - centre);
  const auto dg = static_cast<double>(groups);
  return {(dg - 1.0) / dg * ss, groups};
}

}  // namespace

Estimate bootstrap(const Hierarchical& data, const BootstrapOptions& options) {
  Estimate e;
  e.value = statistic_of(data, options.statistic);
  if (data.instances() < 2) e.warnings.push_back(kFewInstances);
  const VarianceTerm terms[] = {variance_term(data, options.statistic)};
  if (options.interval == CiMethod::kStudentT) {
    e.expansion = Expansion{1.0, t_dof(terms)};
    e.ci = t_interval(e.value, terms, options.confidence);
    return e;
  }
  const auto replicates =
      bootstrap_replicates(data, options.statistic, options.resamples, options.seed);
  e.method = replicates.method;
  return finish(std::move(e), replicates.values, options.confidence, options.interval,
                combined_expansion(terms));
}

VarianceTerm variance_term(const Hierarchical& data) {
  const std::size_t n = data.instances();
  if (n < 2) return {0.0, 0.0, n};
  const double grand = mean(data.values());
  const double m = static_cast<double>(data.size()) / static_cast<double>(n);
  double between = 0.0, within = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto inst = data.instance(i);
    const auto m_i = static_cast<double>(inst.size());
    const double y_i = mean(inst);
    const double d = m_i * (y_i - grand) / m;
    between += d * d;
    double ss = 0.0;
    for (double v : inst) ss += (v - y_i) * (v - y_i);
    within += ss / (m * m);  // m_i * (ss / m_i) / m^2
  }
  return cluster_variance_term(between, within, n);
}

VarianceTerm cluster_variance_term(double sum_d2, double sum_inner, std::size_t n) {
  if (n < 2) return {0.0, 0.0, n};
  const auto dn = static_cast<double>(n);
  return {sum_d2 / (dn * (dn - 1.0)), (sum_d2 + sum_inner) / (dn * dn), n};
}

Hierarchical winsorized(const Hierarchical& data, double k) {
  if (data.empty()) return data;
  const auto values = data.values();
  const double centre = median(values);
  const double spread = mad_scaled(values);
  if (!(spread > 0.0)) return data;
  const double lo = centre - k * spread, hi = centre + k * spread;
  Hierarchical out;
  std::vector<double> inst;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    const auto x = data.instance(i);
    inst.assign(x.begin(), x.end());
    for (double& v : inst) v = std::clamp(v, lo, hi);
    out.add_instance(inst);
  }
  return out;
}

namespace {

// The median's terms: those of its influence values 1{x > median} / f (resample.hpp),
// divided by the median squared when relative; nullopt when they are all zero (f not finite:
// ties at the median).
std::optional<VarianceTerm> median_terms(const Hierarchical& data, bool relative) {
  VarianceTerm t = influence_terms(data, Statistic::kMedian);
  if (!(t.bootstrap_variance > 0.0)) return std::nullopt;
  if (relative) {
    const double med = statistic_of(data, Statistic::kMedian);
    if (!(med != 0.0) || !std::isfinite(med)) return std::nullopt;
    t.variance /= med * med;
    t.bootstrap_variance /= med * med;
  }
  return t;
}

// The terms of `statistic`, of its value or (relative) of its logarithm (bootstrap.hpp).
VarianceTerm statistic_terms(const Hierarchical& data, Statistic statistic, bool relative) {
  const auto mean_terms = [relative](const Hierarchical& d) {
    return relative ? relative_variance_term(d) : variance_term(d);
  };
  switch (statistic) {
    case Statistic::kMean:
      return mean_terms(data);
    case Statistic::kRobustMean:
      return mean_terms(without_spikes(data));
    case Statistic::kMedian:
      if (auto t = median_terms(data, relative)) return *t;
      return mean_terms(winsorized(data, kWinsorMads));
    case Statistic::kTrimmedMean:
      break;
  }
  VarianceTerm t = mean_terms(winsorized(data, kWinsorMads));
  if (t.instances < 2) return t;
  double scale = 1.0;
  if (relative) {
    const double value = statistic_of(data, statistic);
    if (!(value != 0.0) || !std::isfinite(value)) return {0.0, 0.0, t.instances};
    scale = value * value;
  }
  std::tie(t.variance, t.instances) = jackknife_variance(data, statistic);
  t.variance /= scale;
  return t;
}

}  // namespace

VarianceTerm variance_term(const Hierarchical& data, Statistic statistic) {
  return statistic_terms(data, statistic, /*relative=*/false);
}

VarianceTerm relative_variance_term(const Hierarchical& data, Statistic statistic) {
  return statistic_terms(data, statistic, /*relative=*/true);
}

VarianceTerm relative_variance_term(const Hierarchical& data) {
  VarianceTerm t = variance_term(data);
  const double grand = mean(data.values());
  if (!(grand != 0.0)) return {0.0, 0.0, t.instances};
  t.variance /= grand * grand;
  t.bootstrap_variance /= grand * grand;
  return t;
}

RatioSample ratio_sample(const Hierarchical& a, const Hierarchical& b, Statistic statistic,
                         int resamples, uint64_t seed) {
  RatioSample s;
  // The two sides are independent: each one's statistic, variance term and replicates are
  // computed at once with the other's (each seeded on its own, so the result does not depend
  // on the order).
  double stat_a = 0, stat_b = 0;
  Replicates drawn_a, drawn_b;
  const auto side = [&](const Hierarchical& data, const Hierarchical& other, uint64_t side_seed,
                        double& stat, VarianceTerm& term, Replicates& drawn) {
    if (statistic != Statistic::kRobustMean) {
      stat = statistic_of(data, statistic);
      term = relative_variance_term(data, statistic);
      drawn = bootstrap_replicates(data, statistic, resamples, side_seed);
      return;
    }
    // The robust mean is the mean of the data without spikes: find them once, not once for
    // the statistic, once for its terms and once for its replicates. The resampling method
    // is still chosen on the data as measured (bootstrap_replicates).
    const Hierarchical clean = without_spikes(data, other.values());
    stat = mean(clean.values());
    term = relative_variance_term(clean);
    drawn.method = choose_resample_method(data);
    drawn.values = replicates_by(clean, Statistic::kMean, resamples, side_seed, drawn.method);
  };
  tbb::parallel_invoke([&] { side(a, b, derive_seed(seed, 0), stat_a, s.a, drawn_a); },
                       [&] { side(b, a, derive_seed(seed, 1), stat_b, s.b, drawn_b); });
  s.ratio = stat_a == 0.0 ? std::numeric_limits<double>::infinity() : stat_b / stat_a;
  s.method = std::max(drawn_a.method, drawn_b.method);
  auto& rep_a = drawn_a.values;
  const auto& rep_b = drawn_b.values;
  if (rep_a.empty() || rep_b.empty()) return s;
  for (std::size_t i = 0; i < rep_a.size(); ++i) {
    rep_a[i] = rep_a[i] == 0.0 ? std::numeric_limits<double>::infinity() : rep_b[i] / rep_a[i];
  }
  s.replicates = std::move(rep_a);
  return s;
}

Estimate ratio_estimate(const RatioSample& sample, double confidence, CiMethod method) {
  Estimate e;
  e.value = sample.ratio;
  e.method = sample.method;
  const VarianceTerm terms[] = {sample.a, sample.b};
  if (sample.a.instances < 2 || sample.b.instances < 2) {
    e.warnings.push_back(std::string("a side has ") + kFewInstances);
  }
  if (method == CiMethod::kStudentT)
    return finish_t(std::move(e), sample.ratio > 0.0 ? std::log(sample.ratio) : NAN, terms,
                    confidence);
  return finish(std::move(e), sample.replicates, confidence, method, combined_expansion(terms));
}

Estimate bootstrap_ratio(const Hierarchical& a, const Hierarchical& b,
                         const BootstrapOptions& options) {
  return ratio_estimate(ratio_sample(a, b, options.statistic, options.resamples, options.seed),
                        options.confidence, options.interval);
}

Estimate geomean_estimate(std::span<const RatioSample> samples, double confidence,
                          CiMethod method) {
  Estimate e;
  if (samples.empty()) {
    e.warnings.push_back("no benchmarks to combine");
    return e;
  }
  // The t interval reads the ratios and their variance terms; a bootstrap interval the
  // replicates too (the same number from every benchmark).
  const bool t = method == CiMethod::kStudentT;
  const std::size_t resamples = t ? 0 : samples.front().replicates.size();
  std::vector<double> log_sum(resamples, 0.0);
  std::vector<VarianceTerm> terms;
  double log_ratio_sum = 0.0;
  for (const auto& s : samples) {
    const bool positive = s.ratio > 0.0 && std::isfinite(s.ratio) &&
                          (t || std::all_of(s.replicates.begin(), s.replicates.end(),
                                            [](double r) { return r > 0.0 && std::isfinite(r); }));
    if (!positive || (!t && s.replicates.size() != resamples)) {
      e.warnings.push_back("the geometric mean needs positive, finite ratios from every benchmark");
      return e;
    }
    log_ratio_sum += std::log(s.ratio);
    e.method = std::max(e.method, s.method);
    for (std::size_t i = 0; i < resamples; ++i) log_sum[i] += std::log(s.replicates[i]);
    terms.push_back(s.a);
    terms.push_back(s.b);
  }
  const auto k = static_cast<double>(samples.size());
  e.value = std::exp(log_ratio_sum / k);
  if (method == CiMethod::kStudentT) {
    // log G = sum log r_k / K: each term's variance counts 1 / K^2 (df are unchanged).
    for (auto& t : terms) {
      t.variance /= k * k;
      t.bootstrap_variance /= k * k;
    }
    return finish_t(std::move(e), log_ratio_sum / k, terms, confidence);
  }
  for (double& v : log_sum) v = std::exp(v / k);
  return finish(std::move(e), log_sum, confidence, method, combined_expansion(terms));
}

Estimate bootstrap_geomean_ratio(std::span<const Hierarchical> a, std::span<const Hierarchical> b,
                                 const BootstrapOptions& options) {
  if (a.size() != b.size()) {
    Estimate e;
    e.warnings.push_back("A and B list different numbers of benchmarks");
    return e;
  }
  std::vector<RatioSample> samples;
  for (std::size_t k = 0; k < a.size(); ++k) {
    samples.push_back(ratio_sample(a[k], b[k], options.statistic, options.resamples,
                                   derive_seed(options.seed, k)));
  }
  return geomean_estimate(samples, options.confidence, options.interval);
}

}  // namespace benchguard::stats
