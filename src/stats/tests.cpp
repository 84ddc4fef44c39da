#include "stats/tests.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "stats/descriptive.hpp"

namespace benchguard::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// R's wilcox.test switches to the normal approximation at 50 values per sample.
constexpr std::size_t kExactLimit = 50;

struct Ranked {
  double rank_sum_x = 0.0;
  double tie_term = 0.0;  // sum over tie groups of t^3 - t
  bool ties = false;
};

Ranked rank_samples(std::span<const double> x, std::span<const double> y) {
  std::vector<std::pair<double, bool>> all;  // value, belongs to x
  all.reserve(x.size() + y.size());
  for (double v : x) all.emplace_back(v, true);
  for (double v : y) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  Ranked r;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const auto t = static_cast<double>(j - i);
    if (j - i > 1) {
      r.ties = true;
      r.tie_term += t * t * t - t;
    }
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) r.rank_sum_x += mid_rank;
    }
    i = j;
  }
  return r;
}

}  // namespace

std::vector<double> mann_whitney_null(std::size_t m, std::size_t n) {
  // P_{i,j}(u): the largest of i + j values belongs to the first sample with probability
  // i / (i + j) and then beats all j values of the second, so
  // P_{i,j}(u) = i/(i+j) P_{i-1,j}(u - j) + j/(i+j) P_{i,j-1}(u).
  // Rolling over i: before row i is computed, dist[j] holds P_{i-1,j}.
  std::vector<std::vector<double>> dist(n + 1, std::vector<double>{1.0});
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t j = 1; j <= n; ++j) {
      std::vector<double> next(i * j + 1, 0.0);
      const double from_x = static_cast<double>(i) / static_cast<double>(i + j);
      const double from_y = 1.0 - from_x;
      const auto& prev_i = dist[j];      // P_{i-1,j}
      const auto& prev_j = dist[j - 1];  // P_{i,j-1}
      for (std::size_t u = 0; u < prev_i.size(); ++u) next[u + j] += from_x * prev_i[u];
      for (std::size_t u = 0; u < prev_j.size(); ++u) next[u] += from_y * prev_j[u];
      dist[j] = std::move(next);
    }
  }
  return dist[n];
}

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y) {
  const std::size_t n1 = x.size(), n2 = y.size();
  if (n1 == 0 || n2 == 0) return {kNaN, kNaN, false};
  const Ranked ranked = rank_samples(x, y);
  const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
  const double u = ranked.rank_sum_x - d1 * (d1 + 1.0) / 2.0;
  const double centre = d1 * d2 / 2.0;

  if (!ranked.ties && n1 < kExactLimit && n2 < kExactLimit) {
    const auto null = mann_whitney_null(n1, n2);
    const auto k = static_cast<std::size_t>(std::llround(u));
    double tail = 0.0;
    if (u > centre) {
      for (std::size_t i = k; i < null.size(); ++i) tail += null[i];
    } else {
      for (std::size_t i = 0; i <= k; ++i) tail += null[i];
    }
    return {u, std::min(1.0, 2.0 * tail), true};
  }

  const double total = d1 + d2;
  const double var = d1 * d2 / 12.0 * ((total + 1.0) - ranked.tie_term / (total * (total - 1.0)));
  if (!(var > 0.0)) return {u, 1.0, false};  // every value tied: no evidence either way
  const double diff = u - centre;
  const double correction = diff > 0 ? 0.5 : (diff < 0 ? -0.5 : 0.0);
  const double z = (diff - correction) / std::sqrt(var);
  const boost::math::normal normal;
  const double p = 2.0 * std::min(boost::math::cdf(normal, z),
                                  boost::math::cdf(boost::math::complement(normal, z)));
  return {u, std::min(1.0, p), false};
}

WelchResult welch_t_test(std::span<const double> x, std::span<const double> y) {
  if (x.size() < 2 || y.size() < 2) return {kNaN, kNaN, kNaN};
  const double vx = variance(x) / static_cast<double>(x.size());
  const double vy = variance(y) / static_cast<double>(y.size());
  const double diff = mean(x) - mean(y);
  const double se2 = vx + vy;
  if (!(se2 > 0.0)) {
    // Both samples constant: the means either agree exactly or differ with certainty.
    return {diff == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), diff), kNaN,
            diff == 0.0 ? 1.0 : 0.0};
  }
  const double t = diff / std::sqrt(se2);
  const double dof =
      se2 * se2 /
      (vx * vx / static_cast<double>(x.size() - 1) + vy * vy / static_cast<double>(y.size() - 1));
  const boost::math::students_t dist(dof);
  const double p = 2.0 * boost::math::cdf(boost::math::complement(dist, std::fabs(t)));
  return {t, dof, std::min(1.0, p)};
}

std::vector<double> holm_adjust(std::span<const double> p_values) {
  std::vector<double> adjusted(p_values.size(), kNaN);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!std::isnan(p_values[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t l, std::size_t r) { return p_values[l] < p_values[r]; });
  const std::size_t m = order.size();
  double running = 0.0;  // step-down: adjusted values never decrease along the order
  for (std::size_t k = 0; k < m; ++k) {
    const double scaled = static_cast<double>(m - k) * p_values[order[k]];
    running = std::max(running, std::min(1.0, scaled));
    adjusted[order[k]] = running;
  }
  return adjusted;
}

}  // namespace benchguard::stats
