#include "stats/duet.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/rng.hpp"
#include "stats/tests.hpp"

namespace benchguard::stats {

std::vector<std::pair<std::size_t, std::size_t>> pair_overlapping(std::span<const TimeSpan> a,
                                                                  std::span<const TimeSpan> b,
                                                                  double min_overlap) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t shared =
        std::min(a[i].end_ns, b[j].end_ns) - std::max(a[i].start_ns, b[j].start_ns);
    const auto covers = [&](const TimeSpan& s) {
      return static_cast<double>(shared) >=
             min_overlap * static_cast<double>(s.end_ns - s.start_ns);
    };
    if (shared > 0 && covers(a[i]) && covers(b[j])) {
      pairs.emplace_back(i++, j++);
    } else if (a[i].end_ns <= b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

namespace {

// The mean log of the paired ratios b[k] / a[k]: +infinity when some a[k] is 0, NaN for
// negative values or a run without pairs.
double mean_log_ratio(const DuetRun& run) {
  if (run.a.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (std::size_t k = 0; k < run.a.size(); ++k)
    sum +=
        run.a[k] == 0.0 ? std::numeric_limits<double>::infinity() : std::log(run.b[k] / run.a[k]);
  return sum / static_cast<double>(run.a.size());
}

}  // namespace

Hierarchical duet_side(std::span<const DuetRun> runs, bool b_side) {
  Hierarchical h;
  for (const auto& run : runs)
    if (!run.a.empty()) h.add_instance(b_side ? run.b : run.a);
  return h;
}

RatioSample duet_ratio_sample(std::span<const DuetRun> runs, int resamples, uint64_t seed) {
  // Run ratios are averaged as logs (a geometric mean): a condition that slows the side that
  // has it by c gives ratios theta c and theta / c, whose geometric mean is theta exactly.
  Hierarchical logs;
  std::map<int, std::vector<double>> strata;
  for (const auto& run : runs) {
    if (run.a.empty()) continue;
    const double r = mean_log_ratio(run);
    logs.add_instance(std::span<const double>(&r, 1));
    strata[run.stratum].push_back(r);
  }
  RatioSample s;
  if (logs.empty()) return s;
  s.ratio = std::exp(mean(logs.values()));
  const bool stratified =
      strata.size() > 1 && std::all_of(strata.begin(), strata.end(),
                                       [](const auto& kv) { return kv.second.size() >= 2; });
  if (!stratified) {
    s.a = variance_term(logs);
    s.b = VarianceTerm{0.0, 0.0, logs.instances()};
    // One value per run: the two-level bootstrap reduces to resampling runs.
    s.replicates = hierarchical_replicates(logs, Statistic::kMean, resamples, seed);
    for (double& r : s.replicates) r = std::exp(r);
    return s;
  }
  // The estimate is sum_h (n_h / N) mean_h; its variance sum_h (n_h / N)^2 s_h^2 / n_h, and
  // the bootstrap's sum_h (n_h / N)^2 s_h^2 (n_h - 1) / n_h^2.
  const auto total = static_cast<double>(logs.instances());
  double variance_sum = 0.0, bootstrap_sum = 0.0;
  for (const auto& [h, x] : strata) {
    const auto n = static_cast<double>(x.size());
    const double w2 = (n / total) * (n / total);
    variance_sum += w2 * variance(x) / n;
    bootstrap_sum += w2 * variance(x) * (n - 1.0) / (n * n);
  }
  // N - H degrees of freedom: VarianceTerm counts instances - 1.
  s.a = VarianceTerm{variance_sum, bootstrap_sum, logs.instances() - strata.size() + 1};
  s.b = VarianceTerm{0.0, 0.0, s.a.instances};
  s.replicates.resize(static_cast<std::size_t>(std::max(resamples, 0)));
  for (int b = 0; b < resamples; ++b) {
    Rng rng(seed, static_cast<uint64_t>(b));
    double sum = 0.0;
    for (const auto& [h, x] : strata) {
      const auto n = static_cast<uint32_t>(x.size());
      for (uint32_t k = 0; k < n; ++k) sum += x[rng.below(n)];
    }
    s.replicates[static_cast<std::size_t>(b)] = std::exp(sum / total);
  }
  return s;
}

double run_log_ratio(const DuetRun& run) {
  const double x = mean_log_ratio(run);
  return std::isfinite(x) ? x : std::numeric_limits<double>::quiet_NaN();
}

SideEffect side_effect(std::span<const double> log_ratios_b_has,
                       std::span<const double> log_ratios_a_has, double confidence) {
  SideEffect e;
  auto finite = [](std::span<const double> x) {
    std::vector<double> out;
    for (double v : x)
      if (std::isfinite(v)) out.push_back(v);
    return out;
  };
  const auto with = finite(log_ratios_b_has), without = finite(log_ratios_a_has);
  e.runs_b_has = with.size();
  e.runs_a_has = without.size();
  if (with.size() < 2 || without.size() < 2) return e;
  const double diff = mean(with) - mean(without);
  e.factor = std::exp(diff / 2.0);
  const WelchResult welch = welch_t_test(with, without);
  if (!(welch.se > 0.0)) {
    e.ci = {e.factor, e.factor};
    return e;
  }
  const double t =
      boost::math::quantile(boost::math::students_t(welch.dof), 1.0 - (1.0 - confidence) / 2.0);
  const double half = t * welch.se;
  e.ci = {std::exp((diff - half) / 2.0), std::exp((diff + half) / 2.0)};
  return e;
}

}  // namespace benchguard::stats
