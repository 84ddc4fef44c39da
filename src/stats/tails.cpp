#include "stats/tails.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/tests.hpp"

namespace benchguard::stats {

namespace {

// Per instance, what its spikes added to its mean, relative to the side's robust mean (the mean
// of what is not a spike, with the neighbours the comparison's robust mean used); the number of
// spikes. Empty `out` when that level is 0 or not finite.
std::size_t excesses(const Hierarchical& data, std::span<const double> neighbours,
                     std::vector<double>& out) {
  const std::vector<bool> flags = spike_flags(data, neighbours);
  const auto offsets = data.offsets();
  const auto values = data.values();
  out.clear();
  double kept_sum = 0;
  std::size_t kept_n = 0;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!flags[k]) kept_sum += values[k], ++kept_n;
  const double level = kept_n > 0 ? kept_sum / static_cast<double>(kept_n) : NAN;
  if (!(level != 0.0 && std::isfinite(level))) return 0;
  std::size_t spikes = 0;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    double all = 0, kept = 0;
    std::size_t n_kept = 0;
    for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      all += values[k];
      if (flags[k]) {
        ++spikes;
      } else {
        kept += values[k];
        ++n_kept;
      }
    }
    const auto n = static_cast<double>(offsets[i + 1] - offsets[i]);
    // An instance that is a spike as a whole (one value, alone where it lies) added all of its
    // distance from the side's level.
    const double centre = n_kept > 0 ? kept / static_cast<double>(n_kept) : level;
    out.push_back((all / n - centre) / level);
  }
  return spikes;
}

}  // namespace

void mean_ratio(const Hierarchical& a, const Hierarchical& b, double confidence,
                TailComparison& out) {
  const RatioSample sample = ratio_sample(a, b, Statistic::kMean, 0, 0);
  out.mean_ratio = ratio_estimate(sample, confidence, CiMethod::kStudentT);
  const VarianceTerm terms[] = {sample.a, sample.b};
  out.mean_p_value = sample.ratio > 0.0 && std::isfinite(sample.ratio)
                         ? t_p_value(std::log(sample.ratio), terms)
                         : std::numeric_limits<double>::quiet_NaN();
}

TailComparison compare_tails(const Hierarchical& a, const Hierarchical& b, double confidence) {
  TailComparison t;
  t.values_a = a.size();
  t.values_b = b.size();
  mean_ratio(a, b, confidence, t);
  if (a.instances() < 2 || b.instances() < 2) return t;
  std::vector<double> ea, eb;
  t.spikes_a = excesses(a, b.values(), ea);
  t.spikes_b = excesses(b, a.values(), eb);
  if (ea.empty() || eb.empty()) return t;
  t.excess_a = mean(ea);
  t.excess_b = mean(eb);
  t.difference = t.excess_b - t.excess_a;
  if (t.spikes_a + t.spikes_b == 0) return t;
  t.tested = true;
  const WelchResult w = welch_t_test(eb, ea);
  // Spikes in one instance of one side only leave the other side's excesses all 0: Welch's
  // variance is then that of the side with spikes alone, which is what the test needs. Both
  // variances 0 (every instance the same excess) is no evidence either way.
  t.p_value = std::isfinite(w.p_value) ? w.p_value : (t.difference == 0.0 ? 1.0 : 0.0);
  t.p_value_adjusted = t.p_value;
  return t;
}

}  // namespace benchguard::stats
