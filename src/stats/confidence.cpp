#include "stats/confidence.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <vector>

#include "stats/descriptive.hpp"

namespace benchguard::stats {
namespace {

// Below this many replicates beyond a value, the empirical tail is too coarse to read.
constexpr double kResolvable = 10.0;

bool expands(const Expansion& e) {
  return std::isfinite(e.dof) && e.dof > 0.0;
}

// The probability q at which the type 7 quantile function of `sorted` equals v, so that
// quantile_sorted(sorted, q) == v; 0 below the smallest replicate, 1 above the largest.
double quantile_position(std::span<const double> sorted, double v) {
  if (v < sorted.front()) return 0.0;
  if (v > sorted.back()) return 1.0;
  if (sorted.size() == 1) return 0.5;
  const auto above = std::upper_bound(sorted.begin(), sorted.end(), v);
  if (above == sorted.end()) return 1.0;
  const auto i = static_cast<std::size_t>(above - sorted.begin()) - 1;
  const double frac = (v - sorted[i]) / (sorted[i + 1] - sorted[i]);
  return (static_cast<double>(i) + frac) / static_cast<double>(sorted.size() - 1);
}

}  // namespace

Expansion combined_expansion(std::span<const VarianceTerm> terms) {
  double total = 0.0, seen_by_bootstrap = 0.0, dof_denominator = 0.0;
  for (const auto& t : terms) {
    if (t.instances < 2 || !(t.variance >= 0.0) || !(t.bootstrap_variance >= 0.0)) continue;
    total += t.variance;
    seen_by_bootstrap += t.bootstrap_variance;
    dof_denominator += t.variance * t.variance / static_cast<double>(t.instances - 1);
  }
  if (!(total > 0.0) || !(seen_by_bootstrap > 0.0) || !(dof_denominator > 0.0)) return {};
  return {std::sqrt(total / seen_by_bootstrap), total * total / dof_denominator};
}

double tail_probability(double confidence, Expansion expansion) {
  const double alpha_half = (1.0 - confidence) / 2.0;
  if (!expands(expansion)) return alpha_half;
  const boost::math::students_t t(expansion.dof);
  const double t_crit = boost::math::quantile(boost::math::complement(t, alpha_half));
  return boost::math::cdf(boost::math::normal(), -expansion.scale * t_crit);
}

Interval percentile_interval_sorted(std::span<const double> sorted, double tail) {
  return {quantile_sorted(sorted, tail), quantile_sorted(sorted, 1.0 - tail)};
}

Interval percentile_interval(std::span<const double> replicates, double tail) {
  std::vector<double> sorted(replicates.begin(), replicates.end());
  std::sort(sorted.begin(), sorted.end());
  return percentile_interval_sorted(sorted, tail);
}

double bootstrap_p_value(std::span<const double> replicates, double null_value,
                         Expansion expansion) {
  if (replicates.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sorted(replicates.begin(), replicates.end());
  std::sort(sorted.begin(), sorted.end());
  double tail = quantile_position(sorted, null_value);
  tail = std::min(tail, 1.0 - tail);
  if (sorted.size() > 1) {
    const double resolvable = kResolvable / static_cast<double>(sorted.size() - 1);
    const double sd = stdev(sorted);
    if (tail < resolvable && sd > 0.0) {
      const double z = std::fabs(null_value - mean(sorted)) / sd;
      tail = std::min(resolvable, boost::math::cdf(boost::math::normal(), -z));
    }
  }
  if (tail <= 0.0) return 0.0;
  if (!expands(expansion) || tail >= 0.5) return std::min(1.0, 2.0 * tail);
  // Invert tail_probability: the confidence whose expanded tail equals the observed one.
  const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), tail));
  const boost::math::students_t t(expansion.dof);
  return std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(t, z / expansion.scale)));
}

}  // namespace benchguard::stats
