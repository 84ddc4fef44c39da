#include "stats/tests.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>

#include "stats/descriptive.hpp"

namespace benchguard::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Ranked {
  long long rank_sum2_x = 0;           // twice the sum of the mid-ranks of x: an integer
  double tie_term = 0.0;               // sum over tie groups of t^3 - t
  std::vector<std::size_t> tie_sizes;  // group sizes in ascending order of value
};

// Each sample sorted on its own and the two merged: 8 bytes a value, where ranking pairs of
// (value, sample) took 16. `tie_sizes` is filled only when asked for (the exact null).
Ranked rank_samples(std::span<const double> x, std::span<const double> y, bool tie_sizes) {
  std::vector<double> a(x.begin(), x.end()), b(y.begin(), y.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  Ranked r;
  std::size_t i = 0, j = 0, below = 0;
  while (i < a.size() || j < b.size()) {
    const bool from_a = j == b.size() || (i < a.size() && !(b[j] < a[i]));
    const double v = from_a ? a[i] : b[j];
    std::size_t in_x = from_a ? 1 : 0, in_y = from_a ? 0 : 1;
    i += in_x;
    j += in_y;
    for (; i < a.size() && a[i] == v; ++i) ++in_x;
    for (; j < b.size() && b[j] == v; ++j) ++in_y;
    // Ranks below + 1 .. below + t share the mid-rank (2 below + t + 1) / 2.
    const std::size_t t = in_x + in_y;
    const long long doubled_rank =
        2 * static_cast<long long>(below) + static_cast<long long>(t) + 1;
    const auto td = static_cast<double>(t);
    r.tie_term += td * td * td - td;
    r.rank_sum2_x += static_cast<long long>(in_x) * doubled_rank;
    if (tie_sizes) r.tie_sizes.push_back(t);
    below += t;
  }
  return r;
}

// Doubled mid-ranks, ascending, of N values with the given tie groups.
std::vector<long long> doubled_ranks(std::span<const std::size_t> tie_sizes) {
  std::vector<long long> ranks;
  std::size_t below = 0;
  for (std::size_t t : tie_sizes) {
    ranks.insert(ranks.end(), t, static_cast<long long>(2 * below + t + 1));
    below += t;
  }
  return ranks;
}

// Smallest and largest sum of m of the (ascending) ranks.
std::pair<long long, long long> sum_range(std::span<const long long> ranks, std::size_t m) {
  long long lo = 0, hi = 0;
  for (std::size_t k = 0; k < m; ++k) {
    lo += ranks[k];
    hi += ranks[ranks.size() - 1 - k];
  }
  return {lo, hi};
}

}  // namespace

RankSumDistribution rank_sum_null(std::span<const std::size_t> tie_sizes, std::size_t m) {
  const auto ranks = doubled_ranks(tie_sizes);
  const std::size_t n_total = ranks.size();
  if (m > n_total) return {};
  // counts[k][s - lo_k]: the number of k-subsets of the ranks seen so far with doubled sum s,
  // where lo_k / hi_k bound the sum of any k of all N ranks. Adding rank r_i to a (k-1)-subset
  // moves its sum by r_i; k runs downwards so that each rank is used at most once (0/1
  // knapsack). Counts reach C(N, m) < 1e30 within the work bound: doubles hold them with a
  // relative error near 1e-16, and no cancellation occurs (all terms are positive).
  std::vector<long long> lo(m + 1), hi(m + 1);
  std::vector<std::vector<double>> counts(m + 1);
  for (std::size_t k = 0; k <= m; ++k) {
    std::tie(lo[k], hi[k]) = sum_range(ranks, k);
    counts[k].assign(static_cast<std::size_t>(hi[k] - lo[k] + 1), 0.0);
  }
  counts[0][0] = 1.0;
  for (std::size_t i = 0; i < n_total; ++i) {
    for (std::size_t k = std::min(i + 1, m); k >= 1; --k) {
      auto& dst = counts[k];
      const auto& src = counts[k - 1];
      // dst index = src index + shift; shift = r_i - r_{k-1} >= 0 because i >= k - 1. Sums
      // that would leave dst's range have a count of zero in src.
      const auto shift = static_cast<std::size_t>(lo[k - 1] + ranks[i] - lo[k]);
      if (shift >= dst.size()) continue;
      const std::size_t len = std::min(src.size(), dst.size() - shift);
      for (std::size_t j = 0; j < len; ++j) dst[j + shift] += src[j];
    }
  }
  RankSumDistribution out;
  out.min_sum2 = lo[m];
  out.probability = std::move(counts[m]);
  const double total = std::accumulate(out.probability.begin(), out.probability.end(), 0.0);
  for (double& p : out.probability) p /= total;
  return out;
}

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
  const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
  // The exact null's work is at least (n1 + n2) min(n1, n2): beyond its bound, the tie sizes
  // it would need are not kept.
  const bool may_be_exact =
      (d1 + d2) * static_cast<double>(std::min(n1, n2)) <= kMannWhitneyExactWork;
  const Ranked ranked = rank_samples(x, y, may_be_exact);
  const double u = static_cast<double>(ranked.rank_sum2_x) / 2.0 - d1 * (d1 + 1.0) / 2.0;
  const double centre = d1 * d2 / 2.0;
  const double total = d1 + d2;

  // The exact distribution of the smaller sample's rank sum; both tails of the other sample's
  // sum are the same tails swapped, so the two-sided p is the same.
  const std::size_t n_total = n1 + n2, m = std::min(n1, n2);
  double work = INFINITY;
  if (may_be_exact) {
    const auto ranks = doubled_ranks(ranked.tie_sizes);
    const auto [lo, hi] = sum_range(ranks, m);
    work = total * static_cast<double>(m) * static_cast<double>(hi - lo + 1);
  }
  if (work <= kMannWhitneyExactWork) {
    const auto null = rank_sum_null(ranked.tie_sizes, m);
    const auto all_sum2 = static_cast<long long>(n_total) * static_cast<long long>(n_total + 1);
    const long long s2 = n1 <= n2 ? ranked.rank_sum2_x : all_sum2 - ranked.rank_sum2_x;
    const auto at = static_cast<std::size_t>(s2 - null.min_sum2);
    double lower = 0.0, upper = 0.0;  // P(S <= s), P(S >= s)
    for (std::size_t k = 0; k <= at; ++k) lower += null.probability[k];
    for (std::size_t k = at; k < null.probability.size(); ++k) upper += null.probability[k];
    return {u, std::min(1.0, 2.0 * std::min(lower, upper)), true};
  }

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
            diff == 0.0 ? 1.0 : 0.0, 0.0};
  }
  const double t = diff / std::sqrt(se2);
  const double dof =
      se2 * se2 /
      (vx * vx / static_cast<double>(x.size() - 1) + vy * vy / static_cast<double>(y.size() - 1));
  const boost::math::students_t dist(dof);
  const double p = 2.0 * boost::math::cdf(boost::math::complement(dist, std::fabs(t)));
  return {t, dof, std::min(1.0, p), std::sqrt(se2)};
}

std::vector<double> holm_adjust(std::span<const double> p_values) {
  return holm_adjust(p_values, std::vector<double>(p_values.size(), 1.0));
}

std::vector<double> holm_adjust(std::span<const double> p_values, std::span<const double> weights) {
  std::vector<double> adjusted(p_values.size(), kNaN);
  std::vector<std::size_t> order;
  double remaining = 0.0;  // the weight of the hypotheses not yet passed in the order
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!std::isnan(p_values[i]) && i < weights.size() && weights[i] > 0) {
      order.push_back(i);
      remaining += weights[i];
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
    return p_values[l] / weights[l] < p_values[r] / weights[r];
  });
  double running = 0.0;  // step-down: adjusted values never decrease along the order
  for (const std::size_t i : order) {
    const double scaled = p_values[i] * remaining / weights[i];
    running = std::max(running, std::min(1.0, scaled));
    adjusted[i] = running;
    remaining -= weights[i];
  }
  return adjusted;
}

}  // namespace benchguard::stats
