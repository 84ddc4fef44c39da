// Outlier flagging for the iterations of one instance: two rules that only catch gross
// outliers, so that flagging never hides ordinary noise. Values are flagged, never removed;
// callers decide what to do with them (docs/steady-state.md, "Outliers").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace benchguard::stats {

// Which rules flagged an iteration; a bit set, so one iteration can carry both.
enum OutlierRule : std::uint8_t {
  kOutlierNone = 0,
  kOutlierRatio = 1,    // max(t, median) / min(t, median) >= ratio_threshold (hail)
  kOutlierRobustZ = 2,  // |t - median| > robust_z_threshold * scale (hyperfine)
};

struct OutlierOptions {
  // hail flags an iteration ten times slower (or faster) than the median.
  double ratio_threshold = 10.0;
  // hyperfine's modified z-score threshold, expressed in standard deviations.
  double robust_z_threshold = 10.0;
};

struct OutlierFlags {
  double median = 0;
  // Robust standard deviation the z rule measures in: 1.4826 * MAD. When more than half the
  // values equal the median (MAD = 0, typical of a coarse timer), 1.4826 * the median of the
  // non-zero absolute deviations instead: the spread of the values that do differ, so one tick
  // of difference is not an outlier. 0 when every value equals the median; the z rule then
  // flags nothing.
  double scale = 0;
  bool mad_was_zero = false;
  std::vector<std::uint8_t> rules;   // per iteration: OutlierRule bits
  std::vector<std::size_t> indices;  // flagged iterations, ascending
  std::size_t ratio_count = 0;       // iterations flagged by the ratio rule
  std::size_t robust_z_count = 0;    // iterations flagged by the robust z rule
  std::vector<std::string> warnings;

  bool flagged(std::size_t i) const { return rules[i] != kOutlierNone; }
};

// Flags outliers among `values` (one instance's iterations, in order).
// Ratio rule: max(t, m) >= ratio_threshold * min(t, m), m the median; it applies only when
// t and m are both positive (it is a rule for times and other positive quantities).
// Robust z rule: |t - m| > robust_z_threshold * scale, with scale as documented above; the
// comparison is strict, as in hyperfine, and multiplied out so the boundary is exact.
// Non-finite values are flagged by neither rule and reported in warnings.
OutlierFlags flag_outliers(std::span<const double> values, const OutlierOptions& options = {});

}  // namespace benchguard::stats
