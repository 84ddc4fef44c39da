#include "stats/head_check.hpp"

#include <algorithm>
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

namespace {

constexpr std::size_t kNone = HeadCheck::kNoneLeftOut;

// The moments of the baseline's points, all but `skip` (kNone: all).
struct Baseline {
  double k = 0;           // points
  double mean = 0;        // of their means
  double s2 = 0;          // S^2: the variance of their means
  double sigma2 = 0;      // sigma^2: the pooled variance of instance levels within a point
  double sigma2_df = 0;   // its degrees of freedom, sum (n_j - 1)
  double mean_inv_n = 0;  // mean(1 / n_j)
  double phi = 0;         // the drift's lag-1 autocorrelation (0: independent)
};

Baseline summarize(std::span<const PointMoments> points, std::size_t skip) {
  Baseline b;
  double sum = 0, inv_n = 0, pooled = 0;
  for (std::size_t j = 0; j < points.size(); ++j) {
    if (j == skip) continue;
    const auto& p = points[j];
    b.k += 1;
    sum += p.mean;
    inv_n += 1.0 / static_cast<double>(std::max<std::size_t>(p.instances, 1));
    if (p.instances >= 2) {
      pooled += static_cast<double>(p.instances - 1) * p.variance;
      b.sigma2_df += static_cast<double>(p.instances - 1);
    }
  }
  b.mean = sum / b.k;
  double ss = 0;
  for (std::size_t j = 0; j < points.size(); ++j)
    if (j != skip) ss += (points[j].mean - b.mean) * (points[j].mean - b.mean);
  b.s2 = ss / (b.k - 1);
  b.sigma2 = b.sigma2_df > 0 ? pooled / b.sigma2_df : 0.0;
  b.mean_inv_n = inv_n / b.k;
  return b;
}

// V = a S^2 + c sigma^2 for a new point of `instances` instances, and its Satterthwaite
// degrees of freedom (the header says which).
struct Prediction {
  double v = 0, df = 0;
};

Prediction predict(const Baseline& b, std::size_t instances) {
  const double n_head = static_cast<double>(std::max<std::size_t>(instances, 1));
  const bool has_tau = b.s2 - b.sigma2 * b.mean_inv_n > 0;
  double a = 1 / b.k, c = 1 / n_head;
  if (has_tau && b.phi > 0) {
    // V = tau^2 g (1 + vbar - 2 cbar) + sigma^2 / n_head + sigma^2 mean(1/n_j) / K with
    // tau^2 = S^2 - sigma^2 mean(1/n_j), g = (K - 1) / (K (1 - vbar)),
    // vbar = sum_ij phi^|i-j| / K^2 and cbar = sum_(m=1..K) phi^m / K.
    const auto k = static_cast<std::size_t>(b.k);
    double pm = 1, off = 0, cbar = 0;
    for (std::size_t m = 1; m < k; ++m) {
      pm *= b.phi;
      off += static_cast<double>(k - m) * pm;
      cbar += pm;
    }
    cbar = (cbar + pm * b.phi) / b.k;
    const double vbar = (b.k + 2 * off) / (b.k * b.k);
    a = (b.k - 1) / (b.k * (1 - vbar)) * (1 + vbar - 2 * cbar);
    c = 1 / n_head + b.mean_inv_n / b.k - a * b.mean_inv_n;
  } else if (has_tau) {
    a = 1 + 1 / b.k;
    c = 1 / n_head - b.mean_inv_n;
  }
  const double as2 = a * b.s2, csigma2 = c * b.sigma2;
  Prediction p;
  p.v = as2 + csigma2;
  const double s2_df = b.k - 1;
  const double var = as2 * as2 / s2_df + (b.sigma2_df > 0 ? csigma2 * csigma2 / b.sigma2_df : 0.0);
  p.df = var > 0 ? p.v * p.v / var : s2_df;
  // A negative c (the head has more instances than the baseline's points, or phi > 0) makes V
  // a difference of mean squares, where the approximation can fall far below either one's own
  // degrees of freedom; there it is kept at least the smaller of the two in V.
  if (c < 0) {
    const double floor = b.sigma2_df > 0 && b.sigma2 > 0 ? std::min(s2_df, b.sigma2_df) : s2_df;
    p.df = std::max(p.df, floor);
  }
  return p;
}

// The drift's lag-1 autocorrelation from the points kept, in their order: their lag-1
// autocovariance over tau^2, corrected for its bias, within [0, kMaxPhi]; 0 for fewer than
// kMinWanderPoints points or no tau^2.
constexpr double kMinWanderPoints = 10, kMaxPhi = 0.95;

double wander(std::span<const PointMoments> points, std::size_t skip, const Baseline& b) {
  const double tau2 = b.s2 - b.sigma2 * b.mean_inv_n;
  if (b.k < kMinWanderPoints || !(tau2 > 0)) return 0;
  double c1 = 0, previous = 0;
  bool first = true;
  for (std::size_t j = 0; j < points.size(); ++j) {
    if (j == skip) continue;
    const double d = points[j].mean - b.mean;
    if (!first) c1 += d * previous;
    previous = d;
    first = false;
  }
  const double r = c1 / (b.k - 1) / tau2;
  return std::clamp(r + (1 + 3 * r) / b.k, 0.0, kMaxPhi);
}

// The two-sided p-value of `x` against the prediction of a new point of `instances` from `b`,
// and its t; an exact answer (p 0 or 1) when the baseline's points are all alike.
struct Tested {
  Prediction prediction;
  double t = 0, p = 1;
  bool exact = false;
};

Tested test(const Baseline& b, double x, std::size_t instances) {
  Tested r;
  r.prediction = predict(b, instances);
  const double v = r.prediction.v;
  if (!(v > 0) || !std::isfinite(v)) {
    r.exact = true;
    r.p = x == b.mean ? 1.0 : 0.0;
    return r;
  }
  r.t = (x - b.mean) / std::sqrt(v);
  const boost::math::students_t dist(r.prediction.df);
  r.p = 2 * boost::math::cdf(boost::math::complement(dist, std::abs(r.t)));
  return r;
}

}  // namespace

HeadCheck check_head(std::span<const PointMoments> baseline, const PointMoments& head,
                     const HeadCheckOptions& options) {
  HeadCheck h;
  h.baseline_points = baseline.size();
  h.head = head.mean;
  const std::size_t min_points = std::max<std::size_t>(options.min_baseline, 2);
  if (baseline.size() < min_points) {
    h.why_not = "fewer than " + std::to_string(min_points) + " points before it";
    return h;
  }
  if (!std::isfinite(head.mean) || head.instances == 0) {
    h.why_not = "no value at the newest point";
    return h;
  }
  const double alpha = 1 - options.confidence;
  // One wild baseline point: the one farthest from the others (the largest |t| of each point
  // judged against the rest as the head is) is left out when its p-value is below alpha / K
  // and the rest are still a baseline.
  if (baseline.size() > min_points) {
    double farthest = -1;
    std::size_t wild = kNone;
    for (std::size_t j = 0; j < baseline.size(); ++j) {
      const Baseline rest = summarize(baseline, j);
      const Prediction pr = predict(rest, baseline[j].instances);
      const double d = std::abs(baseline[j].mean - rest.mean);
      const double t = pr.v > 0 ? d / std::sqrt(pr.v) : (d > 0 ? INFINITY : 0.0);
      if (t > farthest) farthest = t, wild = j;
    }
    const Tested r = test(summarize(baseline, wild), baseline[wild].mean, baseline[wild].instances);
    if (r.p < alpha / static_cast<double>(baseline.size())) h.left_out = wild;
  }
  Baseline b = summarize(baseline, h.left_out);
  b.phi = wander(baseline, h.left_out, b);
  h.phi = b.phi;
  h.baseline = b.mean;
  h.change = b.mean != 0 ? head.mean / b.mean - 1 : NAN;
  if (b.mean == 0) {
    h.why_not = "the baseline's mean is 0";
    return h;
  }
  const Tested r = test(b, head.mean, head.instances);
  h.examined = true;
  h.df = r.prediction.df;
  h.p_value = r.p;
  if (r.exact) {
    // Every baseline point alike: any difference at the head is exact.
    h.lower = h.upper = h.change;
    h.suspected = std::abs(h.change) >= options.threshold && h.p_value == 0.0;
    return h;
  }
  const boost::math::students_t dist(r.prediction.df);
  const double half = boost::math::quantile(dist, 1 - alpha / 2) * std::sqrt(r.prediction.v);
  h.t = r.t;
  h.lower = (head.mean - b.mean - half) / b.mean;
  h.upper = (head.mean - b.mean + half) / b.mean;
  h.suspected = h.p_value < alpha && std::abs(h.change) >= options.threshold;
  return h;
}

}  // namespace benchguard::stats
