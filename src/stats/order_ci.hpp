// Distribution-free confidence interval for a population median from order statistics
// (Hollander, Wolfe & Chicken, "Nonparametric Statistical Methods", 3rd ed. 2014, section 3.6;
// Conover, "Practical Nonparametric Statistics", 3rd ed. 1999, section 3.2).
//
// For n independent values from a continuous distribution with median theta, the number B of
// values below theta is Binomial(n, 1/2), so the interval between the order statistics x_(k)
// and x_(n+1-k) covers theta with probability P(k <= B <= n - k) = 1 - 2 P(B <= k - 1),
// whatever the distribution. With ties (discrete data) the closed interval covers at least
// that often. The coverage moves in discrete steps, so the achieved coverage is usually above
// the requested confidence.
#pragma once

#include <cstddef>
#include <span>

#include "stats/confidence.hpp"

namespace benchguard::stats {

// The rank k for n values: the largest k with P(k <= B <= n - k) >= confidence, B ~
// Binomial(n, 1/2). When even k = 1 (the range [x_(1), x_(n)], coverage 1 - 2^(1 - n)) falls
// short, k = 1 with `reached` false: at 95% that is n < 6 (n = 5 covers 93.75%).
struct MedianRank {
  std::size_t k = 0;      // 1-based; 0 for n = 0
  double coverage = 0.0;  // P(k <= B <= n - k); 0 for n <= 1
  bool reached = false;   // coverage >= confidence
};
MedianRank median_rank(std::size_t n, double confidence);

struct MedianInterval {
  Interval ci;            // [x_(k), x_(n+1-k)]; NaN bounds for no values
  std::size_t k = 0;      // as in MedianRank
  double coverage = 0.0;  // achieved (exact for continuous data, a lower bound with ties)
  bool reached = false;   // false: the widest interval, [min, max], covers less than asked
};

// The order-statistic interval for the median of the population `values` were drawn from
// (independently). `values` need not be sorted; NaN must not occur. confidence in (0, 1).
MedianInterval median_interval(std::span<const double> values, double confidence);

}  // namespace benchguard::stats
