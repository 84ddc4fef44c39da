#include "stats/series_confirm.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "stats/series_changes.hpp"

namespace benchguard::stats {
namespace {

double mean_of(std::span<const double> x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

double squares_about_mean(std::span<const double> x) {
  const double m = mean_of(x);
  double ss = 0;
  for (const double v : x) ss += (v - m) * (v - m);
  return ss;
}

// The one-sided t test of a difference `d` (> 0: the alternative's way) with standard error
// `se` and `dof` degrees of freedom: t and p into `r` (se 0: p 0 when d > 0, else 1).
void one_sided_t(double d, double se, RevertCheck& r) {
  if (se > 0) {
    r.t = d / se;
    const boost::math::students_t dist(r.dof);
    r.p_value = boost::math::cdf(boost::math::complement(dist, r.t));
  } else {
    r.t = d > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    r.p_value = d > 0 ? 0.0 : 1.0;
  }
}

}  // namespace

SeriesConfirmation confirm_in_series(std::span<const double> series, std::size_t before_start,
                                     std::size_t index, std::size_t after_end,
                                     const SeriesConfirmOptions& options) {
  SeriesConfirmation out;
  if (!(before_start + 2 <= index && index + 2 <= after_end && after_end <= series.size()))
    return out;
  const std::size_t n = after_end - before_start, m = options.min_segment;
  out.candidates = n >= 2 * m ? n - 2 * m + 1 : 1;
  out.confidence = 1 - options.alpha / static_cast<double>(out.candidates);
  const SeriesChange c = describe_change(series, before_start, index, after_end, out.confidence);
  out.change = c.relative_change;
  out.lower = c.relative_change_low;
  out.upper = c.relative_change_high;
  // NaN bounds compare false: an unbounded interval confirms nothing.
  out.confirmed = out.change > 0 ? out.lower > options.threshold : out.upper < -options.threshold;
  return out;
}

RevertCheck check_revert(std::span<const double> old, std::span<const double> after,
                         std::span<const double> newest, bool increased,
                         const RevertOptions& options) {
  RevertCheck r;
  r.old_points = old.size();
  r.after_points = after.size();
  r.newest_points = newest.size();
  if (old.size() < 2 || after.empty() || newest.size() < std::max<std::size_t>(options.newest, 1)) {
    r.why_not = "fewer than 2 points before the change, 1 after it and " +
                std::to_string(options.newest) + " newest";
    return r;
  }
  const std::size_t total = old.size() + after.size() + newest.size();
  if (total <= 3) {
    r.why_not = "no degree of freedom";
    return r;
  }
  r.examined = true;
  r.old_level = mean_of(old);
  r.after_level = mean_of(after);
  r.newest_level = mean_of(newest);
  r.from_old = r.newest_level / r.old_level - 1;
  r.from_after = r.newest_level / r.after_level - 1;
  r.dof = static_cast<double>(total - 3);
  const double s2 =
      (squares_about_mean(old) + squares_about_mean(after) + squares_about_mean(newest)) / r.dof;
  const double se = std::sqrt(
      s2 * (1.0 / static_cast<double>(newest.size()) + 1.0 / static_cast<double>(after.size())));
  const double sign = increased ? 1.0 : -1.0;
  const double back = sign * (r.after_level - r.newest_level);  // > 0: the old level's way
  one_sided_t(back, se, r);
  const double midpoint = (r.old_level + r.after_level) / 2;
  const bool each_nearer_old = std::all_of(newest.begin(), newest.end(),
                                           [&](double v) { return sign * (v - midpoint) < 0; });
  const double d = std::abs(r.after_level - r.old_level);
  r.log_likelihood_ratio =
      s2 > 0 ? static_cast<double>(newest.size()) * d * sign * (midpoint - r.newest_level) / s2
             : (each_nearer_old && d > 0 ? std::numeric_limits<double>::infinity() : 0.0);
  r.undone = r.p_value < options.alpha && sign * r.from_old <= options.threshold &&
             r.log_likelihood_ratio >= std::log(options.likelihood_ratio) && each_nearer_old;
  return r;
}

RevertCheck check_support(std::span<const double> old, double alarmed,
                          std::span<const double> since, bool increased,
                          const SupportOptions& options) {
  RevertCheck r;
  r.old_points = old.size();
  r.after_points = 1;
  r.newest_points = since.size();
  if (old.size() < 2 || since.size() < std::max<std::size_t>(options.since, 2)) {
    r.why_not =
        "fewer than 2 points before the change and " + std::to_string(options.since) + " after it";
    return r;
  }
  r.examined = true;
  r.old_level = mean_of(old);
  r.after_level = alarmed;
  r.newest_level = mean_of(since);
  r.from_old = r.newest_level / r.old_level - 1;
  r.from_after = r.newest_level / r.after_level - 1;
  r.dof = static_cast<double>(old.size() + since.size() - 2);
  const double s2 = (squares_about_mean(old) + squares_about_mean(since)) / r.dof;
  const double se = std::sqrt(
      s2 * (1.0 / static_cast<double>(since.size()) + 1.0 / static_cast<double>(old.size())));
  const double sign = increased ? 1.0 : -1.0;
  // > 0: the level since lies below the old level moved by the threshold, the change's way.
  const double margin = sign * (r.old_level * (1 + sign * options.threshold) - r.newest_level);
  one_sided_t(margin, se, r);
  r.undone = r.p_value < options.alpha;
  return r;
}

}  // namespace benchguard::stats
