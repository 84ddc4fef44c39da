// The threshold rule of series_changes.hpp (Coiled's benchmark alerts), and the statistics every
// method reports for a change: segment_t_test, Fieller's interval, describe_change.
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/series_changes.hpp"

namespace benchguard::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Student's t in double precision: Boost.Math's default promotes double to long double inside,
// which made the p-values most of the cost of detection; double keeps about 15 digits.
using StudentT = boost::math::students_t_distribution<
    double, boost::math::policies::policy<boost::math::policies::promote_double<false>>>;

// Fieller's interval for mean_y / mean_x given the squared standard errors vx, vy and the
// degrees of freedom `dof` (see describe_change): {lo, hi}, NaN when unbounded.
std::pair<double, double> fieller(double mx, double vx, double my, double vy, double dof,
                                  double confidence) {
  const double r = my / mx;
  if (!std::isfinite(r) || !(confidence > 0.0 && confidence < 1.0)) return {kNaN, kNaN};
  if (!(vx + vy > 0.0)) return {r, r};  // both segments constant
  if (!(dof > 0.0) || !std::isfinite(dof)) return {kNaN, kNaN};
  const StudentT dist(dof);
  const double t = boost::math::quantile(boost::math::complement(dist, (1.0 - confidence) / 2.0));
  const double g = t * t * vx / (mx * mx);
  if (!(g < 1.0)) return {kNaN, kNaN};
  const double half = t / std::fabs(mx) * std::sqrt(vy * (1.0 - g) + r * r * vx);
  return {(r - half) / (1.0 - g), (r + half) / (1.0 - g)};
}

// h = n - 2 g for a segment of n >= 2 values: g = floor(trim n) cut at each end, at most
// (n - 2) / 2 so that at least 2 values remain.
double trimmed_count(std::size_t n, double trim) {
  const double cut = trim > 0.0 ? std::floor(trim * static_cast<double>(n)) : 0.0;
  return static_cast<double>(n - 2 * std::min(static_cast<std::size_t>(cut), (n - 2) / 2));
}

// One segment as Yuen's test sees it: the mean of its h middle values and the variance
// (n - 1 denominator) of its values winsorized at the cut.
struct Trimmed {
  double n = 0;
  double h = 0;
  double mean = 0;
  double winsorized_variance = 0;
};

Trimmed trimmed(std::span<const double> x, double trim) {
  std::vector<double> v(x.begin(), x.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const auto h = static_cast<std::size_t>(trimmed_count(n, trim));
  const std::size_t g = (n - h) / 2;
  Trimmed t;
  t.n = static_cast<double>(n);
  t.h = static_cast<double>(h);
  double middle = 0.0;
  for (std::size_t i = g; i < n - g; ++i) middle += v[i];
  t.mean = middle / t.h;
  for (std::size_t i = 0; i < g; ++i) {
    v[i] = v[g];
    v[n - 1 - i] = v[n - 1 - g];
  }
  t.winsorized_variance = variance(v);
  return t;
}

struct ThresholdRule {
  std::size_t baseline;
  std::size_t run;
};

ThresholdRule rule(const ThresholdOptions& o) {
  return {std::max<std::size_t>(o.baseline, 2), std::max<std::size_t>(o.run, 1)};
}

// Appends the change points confirmed at indices >= start, given the last change point before
// start (the run it confirmed is not searched again).
void scan(std::span<const double> series, std::size_t start, std::optional<std::size_t> last,
          const ThresholdOptions& o, std::vector<SeriesChange>& out) {
  const auto [baseline, run] = rule(o);
  const std::size_t n = series.size();
  const double sign = o.direction == Direction::kLowerIsBetter ? 1.0 : -1.0;
  for (std::size_t i = std::max(start, baseline); i + run <= n; ++i) {
    if (last && i < *last + run) continue;
    const auto base = series.subspan(i - baseline, baseline);
    double mean = 0;
    for (double v : base) mean += v;
    mean /= static_cast<double>(baseline);
    double ss = 0;
    for (double v : base) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / static_cast<double>(baseline - 1));
    const double threshold = std::max(o.sigmas * sd, o.absolute_floor);
    bool confirmed = true;
    for (std::size_t j = i; j < i + run && confirmed; ++j)
      confirmed = sign * (series[j] - mean) > threshold;
    if (!confirmed) continue;
    // Plain means, as Coiled's rule compares them.
    SeriesChange c = describe_change(series, i - baseline, i, i + run, o.confidence, 0.0);
    c.method = ChangeMethod::kThreshold;
    out.push_back(c);
    last = i;
  }
}

bool all_finite(std::span<const double> series) {
  return std::all_of(series.begin(), series.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

std::string_view to_string(ChangeMethod method) {
  switch (method) {
    case ChangeMethod::kEDivisiveTTest:
      return "e-divisive t-test";
    case ChangeMethod::kEDivisivePermutation:
      return "e-divisive permutation";
    case ChangeMethod::kThreshold:
      return "threshold";
  }
  return "unknown";
}

SegmentTest segment_t_test(std::span<const double> before, std::span<const double> after,
                           double trim) {
  SegmentTest r;
  if (before.size() < 2 || after.size() < 2) {
    r.t = r.dof = r.p_value = r.var_before = r.var_after = r.mean_before = r.mean_after = kNaN;
    return r;
  }
  const Trimmed x = trimmed(before, trim), y = trimmed(after, trim);
  r.mean_before = x.mean;
  r.mean_after = y.mean;
  const double pooled =
      ((x.n - 1) * x.winsorized_variance + (y.n - 1) * y.winsorized_variance) / (x.n + y.n - 2);
  // Yuen's squared standard error (n - 1) s_w^2 / (h (h - 1)), s_w^2 floored at the pooled one.
  r.var_before = (x.n - 1) * std::max(x.winsorized_variance, pooled) / (x.h * (x.h - 1));
  r.var_after = (y.n - 1) * std::max(y.winsorized_variance, pooled) / (y.h * (y.h - 1));
  const double diff = y.mean - x.mean;
  const double se2 = r.var_before + r.var_after;
  if (!(se2 > 0.0)) {
    // Both segments constant: the means either agree exactly or differ with certainty.
    r.t = diff == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
    r.dof = kNaN;
    r.p_value = diff == 0.0 ? 1.0 : 0.0;
    return r;
  }
  r.t = diff / std::sqrt(se2);
  r.dof =
      se2 * se2 / (r.var_before * r.var_before / (x.h - 1) + r.var_after * r.var_after / (y.h - 1));
  if (!std::isfinite(r.t) || !std::isfinite(r.dof) || !(r.dof > 0.0)) {
    r.p_value = kNaN;  // only for values near the limits of double
    return r;
  }
  const StudentT dist(r.dof);
  r.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t))));
  return r;
}

SeriesChange describe_change(std::span<const double> series, std::size_t before_start,
                             std::size_t index, std::size_t after_end, double confidence,
                             double trim) {
  SeriesChange c;
  c.index = index;
  c.before_start = before_start;
  c.after_end = after_end;
  const auto before = series.subspan(before_start, index - before_start);
  const auto after = series.subspan(index, after_end - index);
  c.relative_change = c.relative_change_low = c.relative_change_high = kNaN;
  c.p_value = 1.0;
  if (before.size() < 2 || after.size() < 2) {
    c.mean_before = mean(before);
    c.mean_after = mean(after);
    if (c.mean_before != 0.0) c.relative_change = c.mean_after / c.mean_before - 1.0;
    return c;
  }
  const SegmentTest test = segment_t_test(before, after, trim);
  c.mean_before = test.mean_before;
  c.mean_after = test.mean_after;
  if (!std::isnan(test.p_value)) c.p_value = test.p_value;
  if (c.mean_before != 0.0) c.relative_change = c.mean_after / c.mean_before - 1.0;
  if (!std::isnan(test.p_value) && !std::isnan(c.relative_change)) {
    // Welch-Satterthwaite degrees of freedom of mean_after - r mean_before, with Yuen's h - 1.
    const double r = c.relative_change + 1.0;
    const double vx = r * r * test.var_before, vy = test.var_after;
    const double dof = (vx + vy) * (vx + vy) /
                       (vx * vx / (trimmed_count(before.size(), trim) - 1) +
                        vy * vy / (trimmed_count(after.size(), trim) - 1));
    const auto [lo, hi] =
        fieller(c.mean_before, test.var_before, c.mean_after, test.var_after, dof, confidence);
    c.relative_change_low = lo - 1.0;
    c.relative_change_high = hi - 1.0;
  }
  return c;
}

std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const ThresholdOptions& options) {
  return update_changes(series, {}, 0, options);
}

std::size_t reexamine_from(std::size_t old_size, const ThresholdOptions& options) {
  const std::size_t later = rule(options).run - 1;
  return old_size > later ? old_size - later : 0;
}

std::size_t reach(const ThresholdOptions& options) {
  return rule(options).run - 1;
}

std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const ThresholdOptions& options) {
  if (!all_finite(series)) return {};
  if (old_size > series.size()) old_size = 0;
  const std::size_t boundary = reexamine_from(old_size, options);
  std::vector<SeriesChange> out;
  std::optional<std::size_t> last;
  for (const SeriesChange& old : old_changes) {
    if (old.index >= boundary) break;
    out.push_back(old);
    last = old.index;
  }
  scan(series, boundary, last, options, out);
  return out;
}

}  // namespace benchguard::stats
