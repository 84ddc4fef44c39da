#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace benchguard::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double mean(std::span<const double> x) {
  if (x.empty()) return kNaN;
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

double min(std::span<const double> x) {
  return x.empty() ? kNaN : *std::min_element(x.begin(), x.end());
}

double max(std::span<const double> x) {
  return x.empty() ? kNaN : *std::max_element(x.begin(), x.end());
}

double variance(std::span<const double> x) {
  if (x.size() < 2) return kNaN;
  // Two passes: subtracting the mean first avoids the cancellation of sum(x^2) - n mean^2,
  // which matters for timings with a large mean and a tiny spread.
  const double m = mean(x);
  double ss = 0.0;
  for (double v : x) ss += (v - m) * (v - m);
  return ss / static_cast<double>(x.size() - 1);
}

double stdev(std::span<const double> x) {
  return std::sqrt(variance(x));
}

double cv(std::span<const double> x) {
  return stdev(x) / mean(x);
}

double quantile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty() || std::isnan(p)) return kNaN;
  p = std::clamp(p, 0.0, 1.0);
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[lo + 1] - sorted[lo]);
}

double density_at_median(std::span<const double> sorted) {
  if (sorted.empty()) return kNaN;
  constexpr double kZ975 = 1.959963984540054;
  const double n = static_cast<double>(sorted.size());
  const double phi0 = 1.0 / std::sqrt(2.0 * std::numbers::pi);
  const double h = std::min(
      0.49, std::pow(n, -1.0 / 3.0) * std::pow(kZ975, 2.0 / 3.0) * std::cbrt(1.5 * phi0 * phi0));
  const double spacing = quantile_sorted(sorted, 0.5 + h) - quantile_sorted(sorted, 0.5 - h);
  return spacing > 0.0 ? 2.0 * h / spacing : std::numeric_limits<double>::infinity();
}

// The same as quantile_sorted of the sorted values, by selection: linear time.
double quantile(std::span<const double> x, double p) {
  if (x.empty() || std::isnan(p)) return kNaN;
  p = std::clamp(p, 0.0, 1.0);
  std::vector<double> v(x.begin(), x.end());
  const double h = static_cast<double>(v.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= v.size()) return *std::max_element(v.begin(), v.end());
  const auto at = v.begin() + static_cast<std::ptrdiff_t>(lo);
  std::nth_element(v.begin(), at, v.end());
  const double below = *at;
  const double above = *std::min_element(at + 1, v.end());
  return below + (h - static_cast<double>(lo)) * (above - below);
}

double median(std::span<const double> x) {
  return quantile(x, 0.5);
}

double mad(std::span<const double> x) {
  if (x.empty()) return kNaN;
  const double med = median(x);
  std::vector<double> dev(x.size());
  std::transform(x.begin(), x.end(), dev.begin(), [med](double v) { return std::fabs(v - med); });
  return median(dev);
}

double mad_scaled(std::span<const double> x) {
  return 1.482602218505602 * mad(x);
}

double geometric_mean(std::span<const double> x) {
  if (x.empty()) return kNaN;
  double log_sum = 0.0;
  for (double v : x) {
    if (!(v > 0.0)) return kNaN;
    log_sum += std::log(v);
  }
  return std::exp(log_sum / static_cast<double>(x.size()));
}

Variability instance_variability(const Hierarchical& data) {
  std::vector<double> cvs;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    if (data.instance(i).size() >= 2) cvs.push_back(cv(data.instance(i)));
  }
  return Variability{mean(cvs), stdev(cvs), cvs.size()};
}

double pooled_cv(const Hierarchical& data) {
  double ss = 0.0;
  std::size_t dof = 0;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    const auto inst = data.instance(i);
    if (inst.size() < 2) continue;
    ss += variance(inst) * static_cast<double>(inst.size() - 1);
    dof += inst.size() - 1;
  }
  if (dof == 0) return kNaN;
  return std::sqrt(ss / static_cast<double>(dof)) / mean(data.values());
}

double variance_share(double without, double with) {
  if (!std::isfinite(without) || !std::isfinite(with) || with == 0) return kNaN;
  const double r = without / with;
  return std::clamp(1.0 - r * r, 0.0, 1.0);
}

}  // namespace benchguard::stats
