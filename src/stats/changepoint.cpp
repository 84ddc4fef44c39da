#include "stats/changepoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace benchguard::stats {
namespace {

constexpr double kPenaltyFactor = 15.0;
constexpr double kRelativeSdFloor = 1e-3;
constexpr std::size_t kNeverDropped = std::numeric_limits<std::size_t>::max();

// O(1) mean, variance and cost of any [a, b) from prefix sums. The series is shifted by its
// mean first: variance is shift-invariant, and sums of squares of raw timestamps-sized values
// would cancel catastrophically.
class SegmentCosts {
 public:
  SegmentCosts(std::span<const double> x, double floor) : floor_(floor) {
    double total = 0;
    for (double v : x) total += v;
    center_ = x.empty() ? 0 : total / static_cast<double>(x.size());
    s1_.assign(x.size() + 1, 0);
    s2_.assign(x.size() + 1, 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double y = x[i] - center_;
      s1_[i + 1] = s1_[i] + y;
      s2_[i + 1] = s2_[i] + y * y;
    }
  }

  double mean(std::size_t a, std::size_t b) const {
    return center_ + (s1_[b] - s1_[a]) / static_cast<double>(b - a);
  }

  double variance(std::size_t a, std::size_t b) const {
    const double len = static_cast<double>(b - a);
    const double m = (s1_[b] - s1_[a]) / len;
    return std::max(0.0, (s2_[b] - s2_[a]) / len - m * m);
  }

  double cost(std::size_t a, std::size_t b) const {
    return static_cast<double>(b - a) * std::log(variance(a, b) + floor_);
  }

 private:
  double floor_;
  double center_ = 0;
  std::vector<double> s1_, s2_;
};

// A possible start of the last segment, and the first end at which it is known to be beaten.
struct Candidate {
  std::size_t tau;
  std::size_t drop_at;
};

}  // namespace

double default_penalty(std::size_t n) {
  return n < 2 ? 0.0 : kPenaltyFactor * std::log(static_cast<double>(n));
}

double default_variance_floor(std::span<const double> series) {
  std::vector<double> abs_values;
  abs_values.reserve(series.size());
  for (double v : series) abs_values.push_back(std::abs(v));
  if (abs_values.empty()) return 1.0;
  const auto mid = abs_values.begin() + static_cast<std::ptrdiff_t>(abs_values.size() / 2);
  std::nth_element(abs_values.begin(), mid, abs_values.end());
  double scale = *mid;
  if (scale == 0) scale = *std::max_element(abs_values.begin(), abs_values.end());
  if (scale == 0) return 1.0;
  const double sd = kRelativeSdFloor * scale;
  return sd * sd;
}

PeltResult pelt(std::span<const double> series, const PeltOptions& options) {
  const std::size_t n = series.size();
  PeltResult out;
  out.penalty = std::max(0.0, options.penalty.value_or(default_penalty(n)));
  out.variance_floor =
      options.variance_floor > 0 ? options.variance_floor : default_variance_floor(series);
  if (n == 0) return out;

  const std::size_t m = std::max<std::size_t>(1, options.min_segment_length);
  const SegmentCosts costs(series, out.variance_floor);
  const double beta = out.penalty;
  if (n < 2 * m) {
    out.segments.push_back({0, n, costs.mean(0, n), costs.variance(0, n)});
    out.cost = costs.cost(0, n);
    return out;
  }

  // best[t]: optimal penalised cost of series[0, t); last[t]: start of its last segment.
  // best[0] = -beta so that the first segment pays no penalty.
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> last(n + 1, 0);
  best[0] = -beta;
  std::vector<Candidate> candidates;
  std::vector<double> trial;
  for (std::size_t t = m; t <= n; ++t) {
    // t - m becomes a possible change point once a segment of length m fits behind it, and only
    // if a valid segmentation ends there (0, or at least one full segment).
    const std::size_t tau_new = t - m;
    if (tau_new == 0 || tau_new >= m) candidates.push_back({tau_new, kNeverDropped});
    std::erase_if(candidates, [t](const Candidate& c) { return c.drop_at <= t; });

    trial.resize(candidates.size());
    double best_t = std::numeric_limits<double>::infinity();
    std::size_t arg = 0;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const std::size_t tau = candidates[k].tau;
      trial[k] = best[tau] + costs.cost(tau, t);
      if (trial[k] + beta < best_t) {
        best_t = trial[k] + beta;
        arg = tau;
      }
    }
    best[t] = best_t;
    last[t] = arg;

    // Pruning: if best[tau] + cost(tau, t) >= best[t], then for every later end s, a change
    // at t does at least as well as starting the last segment at tau (sub-additivity; K = 0).
    // That argument needs t itself to be a valid start for s, i.e. s >= t + m, so tau is kept
    // until then; dropping it at once would lose optima with a short final segment.
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (candidates[k].drop_at == kNeverDropped && trial[k] >= best_t)
        candidates[k].drop_at = t + m;
  }

  out.cost = best[n];
  for (std::size_t t = n; t > 0; t = last[t])
    out.segments.push_back({last[t], t, costs.mean(last[t], t), costs.variance(last[t], t)});
  std::reverse(out.segments.begin(), out.segments.end());
  for (std::size_t i = 1; i < out.segments.size(); ++i)
    out.change_points.push_back(out.segments[i].start);
  return out;
}

}  // namespace benchguard::stats
