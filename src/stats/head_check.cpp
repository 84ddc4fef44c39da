#include "stats/head_check.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <vector>

#include "stats/descriptive.hpp"

namespace benchguard::stats {

PointMoments point_moments(const Hierarchical& data) {
  std::vector<double> levels;
  levels.reserve(data.instances());
  for (std::size_t i = 0; i < data.instances(); ++i) levels.push_back(median(data.instance(i)));
  if (levels.empty()) return {};
  const double m = mean(levels);
  return {m, levels.size(), levels.size() >= 2 ? variance(levels) : 0.0};
}

HeadCheck check_head(std::span<const PointMoments> baseline, const PointMoments& head,
                     const HeadCheckOptions& options) {
  HeadCheck h;
  h.baseline_points = baseline.size();
  h.head = head.mean;
  if (baseline.size() < std::max<std::size_t>(options.min_baseline, 2)) {
    h.why_not = "fewer than " + std::to_string(std::max<std::size_t>(options.min_baseline, 2)) +
                " points before it";
    return h;
  }
  if (!std::isfinite(head.mean) || head.instances == 0) {
    h.why_not = "no value at the newest point";
    return h;
  }
  const double k = static_cast<double>(baseline.size());
  double sum = 0, inv_n = 0, pooled = 0, pooled_df = 0;
  for (const auto& p : baseline) {
    sum += p.mean;
    inv_n += 1.0 / static_cast<double>(std::max<std::size_t>(p.instances, 1));
    if (p.instances >= 2) {
      pooled += static_cast<double>(p.instances - 1) * p.variance;
      pooled_df += static_cast<double>(p.instances - 1);
    }
  }
  const double mean = sum / k;
  double ss = 0;
  for (const auto& p : baseline) ss += (p.mean - mean) * (p.mean - mean);
  const double s2 = ss / (k - 1);
  const double sigma2 = pooled_df > 0 ? pooled / pooled_df : 0.0;
  const double tau2 = std::max(0.0, s2 - sigma2 * inv_n / k);
  const double n_head = static_cast<double>(std::max<std::size_t>(head.instances, 1));
  const double v = tau2 + sigma2 / n_head + s2 / k;
  h.baseline = mean;
  h.change = mean != 0 ? head.mean / mean - 1 : NAN;
  if (!(v > 0) || !std::isfinite(v) || mean == 0) {
    // Every baseline point alike: any difference at the head is exact.
    h.examined = mean != 0;
    if (!h.examined) h.why_not = "the baseline's mean is 0";
    h.lower = h.upper = h.change;
    h.p_value = head.mean == mean ? 1.0 : 0.0;
    h.suspected = h.examined && std::abs(h.change) >= options.threshold && h.p_value == 0.0;
    return h;
  }
  h.examined = true;
  const boost::math::students_t dist(k - 1);
  const double alpha = 1 - options.confidence;
  const double half = boost::math::quantile(dist, 1 - alpha / 2) * std::sqrt(v);
  h.t = (head.mean - mean) / std::sqrt(v);
  h.p_value = 2 * boost::math::cdf(boost::math::complement(dist, std::abs(h.t)));
  h.lower = (head.mean - mean - half) / mean;
  h.upper = (head.mean - mean + half) / mean;
  h.suspected = h.p_value < alpha && std::abs(h.change) >= options.threshold;
  return h;
}

}  // namespace benchguard::stats
