#include "stats/order_ci.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <limits>
#include <vector>

namespace benchguard::stats {
namespace {

// Binomial probabilities are dyadic rationals that Boost computes to a few ulps: compare
// coverage with this much slack so that a confidence equal to an achievable coverage (0.96875
// for n = 6) is reached.
constexpr double kSlack = 1e-12;

}  // namespace

MedianRank median_rank(std::size_t n, double confidence) {
  MedianRank r;
  if (n == 0) return r;
  const boost::math::binomial_distribution<double> b(static_cast<double>(n), 0.5);
  // coverage(k) = 1 - 2 P(B <= k - 1) falls as k grows: find the largest j = k - 1 with
  // 2 P(B <= j) <= 1 - confidence. j < n / 2 always holds for it, as P(B <= j) >= 1/2 beyond.
  auto coverage = [&](std::size_t k) {
    return 1.0 - 2.0 * boost::math::cdf(b, static_cast<double>(k - 1));
  };
  r.k = 1;
  r.coverage = coverage(1);
  r.reached = r.coverage >= confidence - kSlack;
  if (!r.reached) return r;
  std::size_t good = 1, bad = n / 2 + 2;  // coverage(good) reaches, coverage(bad) does not
  while (bad - good > 1) {
    const std::size_t mid = good + (bad - good) / 2;
    if (coverage(mid) >= confidence - kSlack) {
      good = mid;
    } else {
      bad = mid;
    }
  }
  r.k = good;
  r.coverage = coverage(good);
  return r;
}

MedianInterval median_interval(std::span<const double> values, double confidence) {
  MedianInterval out;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  out.ci = {kNaN, kNaN};
  const std::size_t n = values.size();
  if (n == 0) return out;
  const MedianRank rank = median_rank(n, confidence);
  out.k = rank.k;
  out.coverage = rank.coverage;
  out.reached = rank.reached;
  std::vector<double> v(values.begin(), values.end());
  const auto lower = v.begin() + static_cast<std::ptrdiff_t>(rank.k - 1);
  const auto upper = v.begin() + static_cast<std::ptrdiff_t>(n - rank.k);
  std::nth_element(v.begin(), upper, v.end());
  const double hi = *upper;
  std::nth_element(v.begin(), lower, upper);  // x_(k) is among the values below x_(n+1-k)
  out.ci = {*lower, hi};
  return out;
}

}  // namespace benchguard::stats
