#include "stats/outliers.hpp"

#include <algorithm>
#include <cmath>

namespace benchguard::stats {
namespace {

// Makes the MAD a consistent estimator of the standard deviation for normal data.
constexpr double kMadToSd = 1.4826;

// Median by partial sort of a copy; averages the two middle values for even sizes.
double median_of(std::vector<double> v) {
  const std::size_t n = v.size();
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (n % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

}  // namespace

OutlierFlags flag_outliers(std::span<const double> values, const OutlierOptions& options) {
  OutlierFlags out;
  out.rules.assign(values.size(), kOutlierNone);

  std::vector<double> finite;
  finite.reserve(values.size());
  for (double v : values)
    if (std::isfinite(v)) finite.push_back(v);
  if (finite.size() < values.size())
    out.warnings.push_back(std::to_string(values.size() - finite.size()) +
                           " non-finite value(s) were not assessed");
  if (finite.empty()) return out;

  const double m = median_of(finite);
  std::vector<double> deviations;
  deviations.reserve(finite.size());
  for (double v : finite) deviations.push_back(std::abs(v - m));
  std::vector<double> nonzero;
  for (double d : deviations)
    if (d > 0) nonzero.push_back(d);
  const double mad = median_of(std::move(deviations));
  out.median = m;
  if (mad > 0) {
    out.scale = kMadToSd * mad;
  } else if (!nonzero.empty()) {
    // A zero MAD measures the timer's resolution, not the noise: with the MAD (or hyperfine's
    // machine-epsilon stand-in) every value one tick away would be flagged. The deviations
    // of the values that differ at all are the only evidence of spread, so use their median.
    out.mad_was_zero = true;
    out.scale = kMadToSd * median_of(std::move(nonzero));
  } else {
    out.mad_was_zero = true;
  }

  const double z_limit = options.robust_z_threshold * out.scale;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double t = values[i];
    if (!std::isfinite(t)) continue;
    std::uint8_t rules = kOutlierNone;
    if (t > 0 && m > 0 && std::max(t, m) >= options.ratio_threshold * std::min(t, m)) {
      rules |= kOutlierRatio;
      ++out.ratio_count;
    }
    if (out.scale > 0 && std::abs(t - m) > z_limit) {
      rules |= kOutlierRobustZ;
      ++out.robust_z_count;
    }
    out.rules[i] = rules;
    if (rules != kOutlierNone) out.indices.push_back(i);
  }
  return out;
}

}  // namespace benchguard::stats
