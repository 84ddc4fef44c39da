#include "stats/confidence.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
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

const char* to_string(CiMethod method) {
  switch (method) {
    case CiMethod::kPercentile:
      return "percentile";
    case CiMethod::kExpandedPercentile:
      return "expanded percentile";
    case CiMethod::kStudentT:
      return "t";
  }
  return "t";
}

namespace {

// The summed variance of the usable terms and their Welch-Satterthwaite degrees of freedom.
std::pair<double, double> usable_variance(std::span<const VarianceTerm> terms) {
  double total = 0.0, dof_denominator = 0.0;
  for (const auto& t : terms) {
    if (t.instances < 2 || !(t.variance >= 0.0)) continue;
    total += t.variance;
    dof_denominator += t.variance * t.variance / static_cast<double>(t.instances - 1);
  }
  const double dof = dof_denominator > 0.0 ? total * total / dof_denominator
                                           : std::numeric_limits<double>::infinity();
  return {total, dof};
}

// P(T > z) for Student's t with `dof` degrees of freedom, the normal distribution's when dof
// is infinite.
double upper_tail(double z, double dof) {
  return std::isfinite(dof)
             ? boost::math::cdf(boost::math::complement(boost::math::students_t(dof), z))
             : boost::math::cdf(boost::math::complement(boost::math::normal(), z));
}

}  // namespace

double t_dof(std::span<const VarianceTerm> terms) {
  return usable_variance(terms).second;
}

double t_variance(std::span<const VarianceTerm> terms) {
  return usable_variance(terms).first;
}

Interval t_interval(double centre, double variance, double dof, double confidence) {
  if (!(variance > 0.0) || !std::isfinite(centre)) return {centre, centre};
  const double alpha_half = (1.0 - confidence) / 2.0;
  const double crit =
      std::isfinite(dof)
          ? boost::math::quantile(boost::math::complement(boost::math::students_t(dof), alpha_half))
          : boost::math::quantile(boost::math::complement(boost::math::normal(), alpha_half));
  const double half = crit * std::sqrt(variance);
  return {centre - half, centre + half};
}

Interval t_interval(double centre, std::span<const VarianceTerm> terms, double confidence) {
  const auto [variance, dof] = usable_variance(terms);
  return t_interval(centre, variance, dof, confidence);
}

double t_p_value(double centre, double variance, double dof) {
  if (std::isnan(centre)) return 1.0;
  if (!(variance > 0.0)) return centre == 0.0 ? 1.0 : 0.0;
  return std::min(1.0, 2.0 * upper_tail(std::fabs(centre) / std::sqrt(variance), dof));
}

double t_p_value(double centre, std::span<const VarianceTerm> terms) {
  const auto [variance, dof] = usable_variance(terms);
  return t_p_value(centre, variance, dof);
}

double t_probability_above(double centre, std::span<const VarianceTerm> terms, double bound) {
  if (std::isnan(centre) || std::isnan(bound)) return std::numeric_limits<double>::quiet_NaN();
  const auto [variance, dof] = usable_variance(terms);
  if (!(variance > 0.0) || !std::isfinite(centre)) return centre > bound ? 1.0 : 0.0;
  return upper_tail((bound - centre) / std::sqrt(variance), dof);
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

namespace {

struct Ranks {
  std::size_t lo;  // floor((n - 1) p): the type 7 quantile lies between ranks lo and lo + 1
  double frac;
};

Ranks ranks_of(std::size_t n, double p) {
  const double h = static_cast<double>(n - 1) * std::clamp(p, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  return {lo, h - static_cast<double>(lo)};
}

double interpolate(double at_lo, double at_next, double frac) {
  return at_lo + frac * (at_next - at_lo);
}

// Bootstrap tails are a few percent of the replicates: a heap of the k smallest (or largest)
// found in one pass costs about n comparisons, several times less than nth_element. Heaps
// live in the span itself: the smallest k at the front, the largest k at the back.

// Values at ranks k - 2 and k - 1 (ascending, 0-based) of x, 2 <= k <= x.size(); afterwards
// x[0, k) holds the k smallest.
std::pair<double, double> smallest_two_of(std::span<double> x, std::size_t k) {
  const auto first = x.begin(), heap_end = first + static_cast<std::ptrdiff_t>(k);
  std::make_heap(first, heap_end);
  for (auto it = heap_end; it != x.end(); ++it) {
    if (*it < *first) {
      std::pop_heap(first, heap_end);
      std::swap(*(heap_end - 1), *it);
      std::push_heap(first, heap_end);
    }
  }
  const double last = *first;
  std::pop_heap(first, heap_end);
  return {*first, last};
}

// Values at ranks n - k and n - k + 1 of x (ascending), 2 <= k <= x.size(), looking only at
// x[from, n); afterwards x[n - k, n) holds the k largest of that part.
std::pair<double, double> largest_two_of(std::span<double> x, std::size_t from, std::size_t k) {
  const auto heap_begin = x.end() - static_cast<std::ptrdiff_t>(k);
  const auto greater = std::greater<double>();
  std::make_heap(heap_begin, x.end(), greater);
  for (auto it = x.begin() + static_cast<std::ptrdiff_t>(from); it != heap_begin; ++it) {
    if (*it > *heap_begin) {
      std::pop_heap(heap_begin, x.end(), greater);
      std::swap(*(x.end() - 1), *it);
      std::push_heap(heap_begin, x.end(), greater);
    }
  }
  const double first = *heap_begin;
  std::pop_heap(heap_begin, x.end(), greater);
  return {first, *heap_begin};
}

// Type 7 quantile at rank r of x[first, end), given that every element before `first` is <=
// every element from `first` on; reorders that part.
double select_quantile(std::span<double> x, std::size_t first, Ranks r) {
  const auto lo = std::max(first, r.lo);
  std::nth_element(x.begin() + static_cast<std::ptrdiff_t>(first),
                   x.begin() + static_cast<std::ptrdiff_t>(lo), x.end());
  if (lo + 1 >= x.size()) return x[lo];
  const double next = *std::min_element(x.begin() + static_cast<std::ptrdiff_t>(lo) + 1, x.end());
  return interpolate(x[lo], next, r.frac);
}

}  // namespace

Interval percentile_interval_inplace(std::span<double> replicates, double tail) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (replicates.empty() || std::isnan(tail)) return {nan, nan};
  const std::size_t n = replicates.size();
  const Ranks low = ranks_of(n, std::min(tail, 1.0 - tail));
  const Ranks high = ranks_of(n, std::max(tail, 1.0 - tail));
  // Ranks lo and lo + 1 of each end; at the very top, rank n - 1 alone.
  const std::size_t k_low = low.lo + 2, k_high = std::max<std::size_t>(n - high.lo, 2);
  if (n >= 16 && k_low + k_high <= n / 4) {
    const auto [l0, l1] = smallest_two_of(replicates, k_low);
    const auto [h0, h1] = largest_two_of(replicates, k_low, k_high);
    const double upper = high.lo + 1 >= n ? h1 : interpolate(h0, h1, high.frac);
    return {interpolate(l0, l1, low.frac), upper};
  }
  const double lower = select_quantile(replicates, 0, low);
  // After the first selection everything from rank low.lo on is >= what lies before it.
  return {lower, select_quantile(replicates, low.lo, high)};
}

Interval percentile_interval(std::span<const double> replicates, double tail) {
  std::vector<double> copy(replicates.begin(), replicates.end());
  // By selection: the same order statistics as a sort gives, in linear time (sorting was 4%
  // of the CPU of an incremental dashboard build). The inplace version orders its ends; a tail
  // above one half asks for them the other way round.
  if (!(tail > 0.5)) return percentile_interval_inplace(copy, tail);
  std::sort(copy.begin(), copy.end());
  return percentile_interval_sorted(copy, tail);
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
