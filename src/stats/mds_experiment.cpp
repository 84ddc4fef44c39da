// One simulated experiment of the MDS grid: select control and test, bootstrap both sides,
// read the three intervals. Allocation-free once its workspace has grown to the largest
// configuration, since the grid runs it hundreds of thousands of times.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "stats/bootstrap.hpp"
#include "stats/mds.hpp"
#include "stats/mds_workspace.hpp"
#include "stats/tails.hpp"

namespace benchguard::stats {
namespace {

// Stable per configuration, so adding grid points does not change the others' numbers.
uint64_t config_tag(const Configuration& c) {
  const uint64_t trial = c.selection == Selection::kTrial ? 1 : 0;
  return (trial << 48) | (uint64_t{c.instances} << 24) | uint64_t{c.iterations};
}

// Partial Fisher-Yates: the first k entries become a uniform random k-subset, in random order.
void choose(std::vector<uint32_t>& items, std::size_t k, Rng& rng) {
  const auto size = static_cast<uint32_t>(items.size());
  for (uint32_t i = 0; i < k; ++i) std::swap(items[i], items[i + rng.below(size - i)]);
}

// Paired resampling for trial-based selection: resample b draws the same instances for both
// sides, each side then gets its own inner-stage noise.
void paired_replicates(std::span<const InstanceMoments> control,
                       std::span<const InstanceMoments> test, Rng& rng, std::span<double> out_c,
                       std::span<double> out_t) {
  const auto n = static_cast<uint32_t>(control.size());
  const double inv = 1.0 / static_cast<double>(n);
  for (std::size_t b = 0; b < out_c.size(); ++b) {
    double sum_c = 0.0, inner_c = 0.0, sum_t = 0.0, inner_t = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t i = rng.below(n);
      sum_c += control[i].mean;
      inner_c += control[i].inner;
      sum_t += test[i].mean;
      inner_t += test[i].inner;
    }
    if (inner_c > 0.0) sum_c += std::sqrt(inner_c) * rng.normal();
    if (inner_t > 0.0) sum_t += std::sqrt(inner_t) * rng.normal();
    out_c[b] = sum_c * inv;
    out_t[b] = sum_t * inv;
  }
}

double mean_of_means(std::span<const InstanceMoments> side) {
  double sum = 0.0;
  for (const auto& x : side) sum += x.mean;
  return sum / static_cast<double>(side.size());
}

// variance_term (bootstrap.hpp) for equal iteration counts, optionally relative to the mean.
VarianceTerm side_term(std::span<const InstanceMoments> side, bool relative) {
  const double grand = mean_of_means(side);
  double sum_d2 = 0.0, sum_inner = 0.0;
  for (const auto& x : side) {
    sum_d2 += (x.mean - grand) * (x.mean - grand);
    sum_inner += x.inner;
  }
  const double scale = relative ? grand * grand : 1.0;
  return cluster_variance_term(sum_d2 / scale, sum_inner / scale, side.size());
}

// The paired ratio's term: the log ratio of the means moves with the per-instance differences
// of relative means, z_i = t_i / mean t - c_i / mean c.
VarianceTerm paired_term(std::span<const InstanceMoments> control,
                         std::span<const InstanceMoments> test) {
  const double mc = mean_of_means(control), mt = mean_of_means(test);
  double sum_d2 = 0.0, sum_inner = 0.0;
  for (std::size_t i = 0; i < control.size(); ++i) {
    const double z = test[i].mean / mt - control[i].mean / mc;
    sum_d2 += z * z;
    sum_inner += test[i].inner / (mt * mt) + control[i].inner / (mc * mc);
  }
  return cluster_variance_term(sum_d2, sum_inner, control.size());
}

Interval interval_of(std::span<double> replicates, std::span<const VarianceTerm> terms,
                     const MdsOptions& o) {
  const Expansion e =
      o.interval == CiMethod::kExpandedPercentile ? combined_expansion(terms) : Expansion{};
  return percentile_interval_inplace(replicates, tail_probability(o.confidence, e));
}

}  // namespace

InstanceMoments moments_of(std::span<const double> values, double scale) {
  const auto m = static_cast<double>(values.size());
  double sum = 0.0;
  for (double v : values) sum += v * scale;
  const double mean = sum / m;
  double ss = 0.0;
  for (double v : values) ss += (v * scale - mean) * (v * scale - mean);
  return {mean, ss / (m * m)};
}

void mean_replicates(std::span<const InstanceMoments> instances, Rng& rng, std::span<double> out) {
  const auto n = static_cast<uint32_t>(instances.size());
  const double inv = 1.0 / static_cast<double>(n);
  for (double& o : out) {
    double sum = 0.0, inner = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
      const InstanceMoments& x = instances[rng.below(n)];
      sum += x.mean;
      inner += x.inner;
    }
    if (inner > 0.0) sum += std::sqrt(inner) * rng.normal();
    o = sum * inv;
  }
}

bool feasible(const Hierarchical& data, const Configuration& c) {
  if (c.instances == 0 || c.iterations == 0) return false;
  const bool trial = c.selection == Selection::kTrial;
  const std::size_t need_iterations = trial ? 2 * c.iterations : c.iterations;
  const std::size_t need_instances = trial ? c.instances : 2 * c.instances;
  std::size_t have = 0;
  for (std::size_t i = 0; i < data.instances(); ++i)
    if (data.instance(i).size() >= need_iterations) ++have;
  return have >= need_instances;
}

Rng experiment_rng(const Configuration& c, const MdsOptions& o, int experiment) {
  return Rng(derive_seed(o.seed, config_tag(c)), static_cast<uint64_t>(experiment));
}

uint64_t experiment_verdict_seed(const Configuration& c, const MdsOptions& o, int experiment) {
  return derive_seed(derive_seed(derive_seed(o.seed, config_tag(c)), 0x7665726469637473ull),
                     static_cast<uint64_t>(experiment));
}

bool fresh_draws(const Hierarchical& data, const Configuration& c) {
  const bool trial = c.selection == Selection::kTrial;
  const std::size_t per_instance = trial ? 2 * c.iterations : c.iterations;
  const std::size_t needed = trial ? c.instances : 2 * c.instances;
  std::size_t have = 0;
  for (std::size_t i = 0; i < data.instances(); ++i)
    if (data.instance(i).size() >= per_instance) ++have;
  return have < 2 * needed;
}

void draw_experiment(const Hierarchical& data, const Configuration& c, Rng& rng, double test_scale,
                     MdsWorkspace& w) {
  const bool trial = c.selection == Selection::kTrial;
  const std::size_t n = c.instances, m = c.iterations;
  const std::size_t per_instance = trial ? 2 * m : m;
  const std::size_t needed = trial ? n : 2 * n;

  w.pool.clear();
  for (std::size_t i = 0; i < data.instances(); ++i)
    if (data.instance(i).size() >= per_instance) w.pool.push_back(static_cast<uint32_t>(i));
  w.picks.resize(needed);
  if (w.pool.size() >= 2 * needed) {
    choose(w.pool, needed, rng);
    std::copy_n(w.pool.begin(), needed, w.picks.begin());
  } else {
    // Too few for distinct draws to differ between experiments: instances with replacement,
    // each draw with its own iterations.
    const auto size = static_cast<uint32_t>(w.pool.size());
    for (auto& p : w.picks) p = w.pool[rng.below(size)];
  }

  w.control.resize(n);
  w.test.resize(n);
  w.values.resize(per_instance);
  w.control_values.clear();
  w.test_values.clear();
  w.control_offsets.assign(1, 0);
  w.test_offsets.assign(1, 0);
  const auto keep = [](std::vector<double>& values, std::vector<std::size_t>& offsets,
                       std::span<const double> chosen, double scale) {
    for (double v : chosen) values.push_back(v * scale);
    offsets.push_back(values.size());
  };
  for (std::size_t k = 0; k < needed; ++k) {
    const auto inst = data.instance(w.picks[k]);
    w.positions.resize(inst.size());
    std::iota(w.positions.begin(), w.positions.end(), 0u);
    choose(w.positions, per_instance, rng);
    for (std::size_t j = 0; j < per_instance; ++j) w.values[j] = inst[w.positions[j]];
    const std::span<const double> chosen(w.values);
    if (trial) {
      w.control[k] = moments_of(chosen.first(m));
      w.test[k] = moments_of(chosen.subspan(m, m), test_scale);
      keep(w.control_values, w.control_offsets, chosen.first(m), 1.0);
      keep(w.test_values, w.test_offsets, chosen.subspan(m, m), test_scale);
    } else if (k < n) {
      w.control[k] = moments_of(chosen);
      keep(w.control_values, w.control_offsets, chosen, 1.0);
    } else {
      w.test[k - n] = moments_of(chosen, test_scale);
      keep(w.test_values, w.test_offsets, chosen, test_scale);
    }
  }
}

ExperimentIntervals bootstrap_intervals(const Configuration& c, const MdsOptions& o, Rng& rng,
                                        MdsWorkspace& w) {
  const bool trial = c.selection == Selection::kTrial;
  const auto resamples = static_cast<std::size_t>(o.resamples);
  w.c.resize(resamples);
  w.t.resize(resamples);
  w.r.resize(resamples);
  if (trial) {
    paired_replicates(w.control, w.test, rng, w.c, w.t);
  } else {
    mean_replicates(w.control, rng, w.c);
    mean_replicates(w.test, rng, w.t);
  }
  for (std::size_t b = 0; b < resamples; ++b) w.r[b] = w.t[b] / w.c[b];

  const VarianceTerm control_term[] = {side_term(w.control, false)};
  const VarianceTerm test_term[] = {side_term(w.test, false)};
  const VarianceTerm ratio_terms[] = {side_term(w.control, true), side_term(w.test, true)};
  const VarianceTerm paired_terms[] = {paired_term(w.control, w.test)};
  ExperimentIntervals e{};
  e.control = interval_of(w.c, control_term, o);
  e.test = interval_of(w.t, test_term, o);
  e.ratio = interval_of(w.r,
                        trial ? std::span<const VarianceTerm>(paired_terms)
                              : std::span<const VarianceTerm>(ratio_terms),
                        o);
  return e;
}

ExperimentIntervals run_experiment(const Hierarchical& data, const Configuration& c,
                                   const MdsOptions& o, int experiment, double test_scale,
                                   MdsWorkspace& w) {
  Rng rng = experiment_rng(c, o, experiment);
  draw_experiment(data, c, rng, test_scale, w);
  return bootstrap_intervals(c, o, rng, w);
}

ExperimentIntervals simulate_experiment(const Hierarchical& data, const Configuration& config,
                                        const MdsOptions& options, int experiment,
                                        double test_scale) {
  MdsWorkspace w;
  return run_experiment(data, config, options, experiment, test_scale, w);
}

ExperimentSamples simulate_samples(const Hierarchical& data, const Configuration& config,
                                   const MdsOptions& options, int experiment) {
  MdsWorkspace w;
  Rng rng = experiment_rng(config, options, experiment);
  draw_experiment(data, config, rng, 1.0, w);
  return {Hierarchical::from_parts(w.control_values, w.control_offsets),
          Hierarchical::from_parts(w.test_values, w.test_offsets)};
}

RuleOutcome compare_rule(const Hierarchical& control, const Hierarchical& test,
                         const MdsOptions& options, uint64_t seed) {
  VerdictOptions v = options.verdict;
  v.confidence = options.confidence;
  v.resamples = options.resamples;
  v.seed = seed;
  // compare_with_sample's verdict: the ratio sample, its interval, the rule, and no verdict
  // below kMinInstancesForVerdict a side (tests/unit/stats/mds_test.cpp checks it against
  // compare itself).
  const RatioSample sample = ratio_sample(control, test, v.statistic, verdict_resamples(v), seed);
  const CiMethod method = interval_of(v);
  const Estimate e = ratio_estimate(sample, v.confidence, method);
  RuleOutcome out;
  out.ratio = e.value;
  out.ci = out.family_ci = e.ci;
  out.verdict = classify(e.value, e.ci, v.threshold, v.direction);
  out.decidable =
      control.instances() >= kMinInstancesForVerdict && test.instances() >= kMinInstancesForVerdict;
  if (!out.decidable) out.verdict = Verdict::kInconclusive;
  // Holm's weighted family of compare (verdict.hpp): where the robust mean left spikes out,
  // the tail is a hypothesis beside the centre with weight tail_weight, and unless it is
  // rejected first the centre is tested at alpha / (1 + tail_weight). The tail test does not
  // move when the test side is scaled (its excesses are relative), so it is read once here.
  // (The tail's own verdicts, which a scaled test side does not cause, are not simulated:
  // the power plan promises is what the centre finds.)
  double family = static_cast<double>(options.family);
  if (v.statistic == Statistic::kRobustMean && v.tail_weight > 0 && out.decidable) {
    const TailComparison tail = compare_tails(control, test, v.confidence);
    const double total = 1.0 + v.tail_weight;
    if (tail.tested && !(tail.p_value <= (1.0 - v.confidence) * v.tail_weight / (total * family)))
      family *= total;
  }
  if (family > 1)
    out.family_ci = ratio_estimate(sample, 1.0 - (1.0 - v.confidence) / family, method).ci;
  const bool called = out.verdict == Verdict::kSlower || out.verdict == Verdict::kFaster;
  out.holds_in_family = called && (out.family_ci.lower > 1.0 || out.family_ci.upper < 1.0);
  return out;
}

Thresholds thresholds(const RuleOutcome& o, double threshold, double scale) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  if (!std::isfinite(o.ratio) || !(o.ratio > 0) || !std::isfinite(o.family_ci.lower) ||
      !std::isfinite(o.family_ci.upper))
    return {0.0, kNever};
  if (!o.decidable) return {0.0, kNever};  // too few instances: no verdict at any scale
  // Multiplying the test side by x multiplies the ratio and both intervals by x: slower needs
  // ratio x > 1 + threshold and the family's lower bound x > 1 (the plain interval's lower
  // bound is above it); faster the mirror image.
  const double upper = scale * std::max(1.0 / o.family_ci.lower, (1.0 + threshold) / o.ratio);
  const double lower = scale * std::min(1.0 / o.family_ci.upper, (1.0 - threshold) / o.ratio);
  return {lower, upper};
}

}  // namespace benchguard::stats
