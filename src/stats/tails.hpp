// Tails that count: what the robust statistic of a comparison leaves out, compared between A
// and B (docs/compare.md, "Tails").
//
// The robust mean leaves spikes out (resample.hpp): an interrupt in one of two hundred
// iterations must not decide a verdict. But a change that makes spikes more frequent or larger
// (a GC pause, a lock convoy, a cache storm) is a regression in what the benchmark costs, and
// the robust mean cannot see it: B with 4% of its iterations 5x slower has a robust B/A of 1.00
// and a mean B/A of 1.16. So beside the robust mean every comparison asks of its tails:
//
//   e_i = (mean of instance i - mean of its iterations that are not spikes) / R
//
// per instance, R the side's robust mean: how much the spikes added to that instance, in units
// of the side's level (0 for an instance without spikes). Instances are the independent units,
// so D = mean e (B) - mean e (A) is tested by Welch's t-test over the instances' e_i (A/A with
// spikes on both sides measured in bench/verdict_bench.cpp). Its p-value joins the centre's in
// Holm's family (verdict.hpp). The plain mean's ratio B/A with its t interval, which counts the
// spikes, says how large the whole change is.
//
// Only the robust mean has a tail test: it is the statistic that leaves whole iterations out,
// one by one; the trimmed mean and the median are checked by the disagreement of their interval
// with the mean's (verdict.hpp). Pure: no I/O.
#pragma once

#include <cstddef>
#include <limits>

#include "stats/bootstrap.hpp"
#include "stats/hierarchical.hpp"

namespace benchguard::stats {

struct TailComparison {
  // The robust mean left something out of A or of B: the tails are a hypothesis of their own.
  bool tested = false;
  std::size_t spikes_a = 0, spikes_b = 0;                        // iterations left out as spikes
  std::size_t values_a = 0, values_b = 0;                        // iterations in all
  double excess_a = 0, excess_b = 0;                             // mean e_i of the side
  double difference = std::numeric_limits<double>::quiet_NaN();  // excess_b - excess_a
  double p_value = std::numeric_limits<double>::quiet_NaN();     // Welch over the e_i
  double p_value_adjusted = std::numeric_limits<double>::quiet_NaN();  // Holm, with the family
  // Mean B / mean A with the t interval at the comparison's confidence, and its p-value (of
  // the ratio being 1).
  Estimate mean_ratio;
  double mean_p_value = std::numeric_limits<double>::quiet_NaN();

  double share_a() const { return values_a == 0 ? 0.0 : double(spikes_a) / double(values_a); }
  double share_b() const { return values_b == 0 ? 0.0 : double(spikes_b) / double(values_b); }
};

// The plain mean's ratio B / A with the t interval (Welch on the log ratio over instances) and
// its p-value, whatever statistic the verdict uses.
void mean_ratio(const Hierarchical& a, const Hierarchical& b, double confidence,
                TailComparison& out);

// The tail comparison above, for the robust mean; `tested` false when neither side has a spike
// or a side has fewer than two instances (then only mean_ratio is filled).
TailComparison compare_tails(const Hierarchical& a, const Hierarchical& b, double confidence);

}  // namespace benchguard::stats
