#include "stats/null_calibration.hpp"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <functional>
#include <vector>

namespace benchguard::stats {

Interval binomial_interval(std::size_t successes, std::size_t trials, double confidence) {
  if (trials == 0 || successes > trials) return {0.0, 1.0};
  const double tail = (1.0 - confidence) / 2.0;
  const auto k = static_cast<double>(successes);
  const auto n = static_cast<double>(trials);
  // Lower: the tail quantile of Beta(k, n - k + 1); upper: the 1 - tail quantile of
  // Beta(k + 1, n - k).
  const double lower =
      successes == 0 ? 0.0
                     : boost::math::quantile(boost::math::beta_distribution<>(k, n - k + 1), tail);
  const double upper =
      successes == trials
          ? 1.0
          : boost::math::quantile(boost::math::beta_distribution<>(k + 1, n - k), 1.0 - tail);
  return {lower, upper};
}

namespace {

// Keeps 0.05 * 20 at 1 and 1 / 0.05 at 20 despite rounding.
constexpr double kEps = 1e-9;

}  // namespace

std::size_t repetitions_for_bound(double alpha) {
  // The smallest n with floor(alpha (n + 1)) >= 1.
  return static_cast<std::size_t>(std::ceil(1.0 / alpha - kEps)) - 1;
}

NullThreshold null_threshold(std::span<const double> ratios, double alpha) {
  NullThreshold out;
  std::vector<double> changes;
  changes.reserve(ratios.size());
  for (const double r : ratios)
    if (std::isfinite(r)) changes.push_back(std::abs(r - 1.0));
  out.repetitions_needed = repetitions_for_bound(alpha);
  const std::size_t n = changes.size();
  if (n == 0) {
    out.threshold = std::nan("");
    return out;
  }
  std::sort(changes.begin(), changes.end(), std::greater<>());
  const auto j = static_cast<std::size_t>(std::floor(alpha * static_cast<double>(n + 1) + kEps));
  out.rank = std::clamp<std::size_t>(j, 1, n);
  out.threshold = changes[out.rank - 1];
  out.bound = static_cast<double>(out.rank) / static_cast<double>(n + 1);
  out.reached = j >= 1;
  return out;
}

}  // namespace benchguard::stats
