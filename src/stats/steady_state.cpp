#include "stats/steady_state.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace benchguard::stats {
namespace {

bool is_better(double a, double b, Direction direction) {
  return direction == Direction::kLowerIsBetter ? a < b : a > b;
}

// Mean and variance of the iterations in [start, end) that were not left out.
SeriesSegment segment_over(std::span<const double> x, const std::vector<bool>& left_out,
                           std::size_t start, std::size_t end, std::size_t& count) {
  double sum = 0;
  count = 0;
  for (std::size_t i = start; i < end; ++i)
    if (!left_out[i]) {
      sum += x[i];
      ++count;
    }
  SeriesSegment s{start, end, 0, 0};
  if (count == 0) return s;
  s.mean = sum / static_cast<double>(count);
  double ss = 0;
  for (std::size_t i = start; i < end; ++i)
    if (!left_out[i]) ss += (x[i] - s.mean) * (x[i] - s.mean);
  s.variance = ss / static_cast<double>(count);
  return s;
}

// Segments `x` into out.segments (iteration indices) and fills out.excluded; `counts` gets the
// number of iterations behind each segment's statistics.
void segment_instance(std::span<const double> x, const SteadyStateOptions& options,
                      SteadyState& out, std::vector<std::size_t>& counts,
                      std::vector<bool>& left_out) {
  const std::size_t n = x.size();
  left_out.assign(n, false);
  std::size_t leading = 0;
  if (options.exclude_outliers) {
    const OutlierFlags flags = flag_outliers(x, options.outliers);
    while (leading < n && flags.flagged(leading)) ++leading;
    if (leading == n) leading = 0;  // cannot happen (the median is never flagged); be safe
    const std::size_t m = std::max<std::size_t>(1, options.pelt.min_segment_length);
    for (std::size_t i = leading; i < n;) {
      std::size_t j = i;
      while (j < n && flags.flagged(j)) ++j;
      if (j - i < m)
        for (std::size_t k = i; k < j; ++k) {
          left_out[k] = true;
          out.excluded.push_back(k);
        }
      i = std::max(j, i + 1);
    }
  }

  std::vector<std::size_t> kept;
  std::vector<double> y;
  for (std::size_t i = leading; i < n; ++i)
    if (!left_out[i]) {
      kept.push_back(i);
      y.push_back(x[i]);
    }
  std::size_t count = 0;
  if (options.max_segmentation_points >= 4 && y.size() > options.max_segmentation_points) {
    // Blocks of nearly equal size: block k holds y[bounds[k], bounds[k + 1]).
    const std::size_t blocks = options.max_segmentation_points / 2;
    std::vector<std::size_t> bounds(blocks + 1);
    std::vector<double> means(blocks);
    for (std::size_t k = 0; k <= blocks; ++k) bounds[k] = k * y.size() / blocks;
    for (std::size_t k = 0; k < blocks; ++k) {
      double sum = 0;
      for (std::size_t i = bounds[k]; i < bounds[k + 1]; ++i) sum += y[i];
      means[k] = sum / static_cast<double>(bounds[k + 1] - bounds[k]);
    }
    const PeltResult r = pelt(means, options.pelt);
    std::vector<std::size_t> starts;  // iteration index where each segment starts
    if (leading > 0) starts.push_back(0);
    for (std::size_t j = 0; j < r.segments.size(); ++j)
      starts.push_back(j == 0 ? leading : kept[bounds[r.segments[j].start]]);
    for (std::size_t j = 0; j < starts.size(); ++j) {
      const std::size_t end = j + 1 < starts.size() ? starts[j + 1] : n;
      out.segments.push_back(segment_over(x, left_out, starts[j], end, count));
      counts.push_back(count);
    }
    return;
  }
  const PeltResult r = pelt(y, options.pelt);

  if (leading > 0) {
    out.segments.push_back(segment_over(x, left_out, 0, leading, count));
    counts.push_back(count);
  }
  for (std::size_t j = 0; j < r.segments.size(); ++j) {
    const SeriesSegment& s = r.segments[j];
    SeriesSegment t = s;
    t.start = j == 0 ? leading : kept[s.start];
    t.end = j + 1 < r.segments.size() ? kept[r.segments[j + 1].start] : n;
    out.segments.push_back(t);
    counts.push_back(s.size());
  }
}

}  // namespace

std::string_view to_string(SteadyClass c) {
  switch (c) {
    case SteadyClass::kFlat:
      return "flat";
    case SteadyClass::kWarmup:
      return "warmup";
    case SteadyClass::kSlowdown:
      return "slowdown";
    case SteadyClass::kNoSteadyState:
      return "no steady state";
  }
  return "unknown";
}

SteadyState classify_steady_state(std::span<const double> series,
                                  const SteadyStateOptions& options) {
  SteadyState out;
  const std::size_t n = series.size();
  if (n == 0) {
    out.warnings.push_back("no iterations");
    return out;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(series[i])) {
      out.warnings.push_back("iteration " + std::to_string(i) + " is not a finite number");
      return out;
    }
  if (n < 2 * std::max<std::size_t>(1, options.pelt.min_segment_length))
    out.warnings.push_back(std::to_string(n) +
                           " iterations are too few to detect a change; assumed flat");

  std::vector<std::size_t> counts;
  std::vector<bool> left_out;
  segment_instance(series, options, out, counts, left_out);
  for (std::size_t j = 1; j < out.segments.size(); ++j)
    out.change_points.push_back(out.segments[j].start);

  // Every earlier segment is compared with the final one, as Barrett et al. do, rather than
  // with its neighbour: a chain of small steps must not merge into a long drift.
  const SeriesSegment& final_seg = out.segments.back();
  const double final_sd = std::sqrt(final_seg.variance);
  const double n_final = static_cast<double>(counts.back());
  const double fixed_tolerance =
      std::max(options.absolute_tolerance, options.relative_tolerance * std::abs(final_seg.mean));
  std::size_t burn_in = 0;
  bool any_different = false;
  bool any_better = false;
  out.equivalent_to_final.assign(out.segments.size(), true);
  for (std::size_t j = 0; j + 1 < out.segments.size(); ++j) {
    const SeriesSegment& s = out.segments[j];
    const double n_s = static_cast<double>(std::max<std::size_t>(1, counts[j]));
    const double noise = options.noise_z * final_sd * std::sqrt(1.0 / n_s + 1.0 / n_final);
    if (std::abs(s.mean - final_seg.mean) <= std::max(fixed_tolerance, noise)) continue;
    out.equivalent_to_final[j] = false;
    any_different = true;
    burn_in = s.end;
    if (is_better(s.mean, final_seg.mean, options.direction)) any_better = true;
  }

  const auto required = std::max<std::size_t>(
      options.min_steady_iterations,
      static_cast<std::size_t>(std::ceil(options.steady_fraction * static_cast<double>(n))));
  if (any_different && n - burn_in < required) {
    out.classification = SteadyClass::kNoSteadyState;
    out.warnings.push_back("the last change is at iteration " + std::to_string(burn_in) +
                           ", leaving " + std::to_string(n - burn_in) + " of the " +
                           std::to_string(required) + " steady iterations required");
    return out;
  }
  if (!any_different)
    out.classification = SteadyClass::kFlat;
  else
    out.classification = any_better ? SteadyClass::kSlowdown : SteadyClass::kWarmup;
  out.burn_in = burn_in;
  std::size_t steady_count = 0;
  out.steady = segment_over(series, left_out, burn_in, n, steady_count);
  return out;
}

SteadyStateSummary summarize_steady_state(std::span<const SteadyState> instances,
                                          double burn_in_quantile) {
  SteadyStateSummary s;
  s.instances = instances.size();
  std::vector<std::size_t> burn_ins;
  for (const SteadyState& i : instances) {
    ++s.counts[static_cast<std::size_t>(i.classification)];
    if (i.burn_in) burn_ins.push_back(*i.burn_in);
  }
  const std::size_t never = s.count(SteadyClass::kNoSteadyState);
  if (s.instances > 0)
    s.no_steady_state_share = static_cast<double>(never) / static_cast<double>(s.instances);

  if (!burn_ins.empty()) {
    std::sort(burn_ins.begin(), burn_ins.end());
    const double q = std::clamp(burn_in_quantile, 0.0, 1.0);
    // Nearest rank, so the recommendation is a burn-in some instance actually needed. The
    // small epsilon keeps q * N = 9.0000000001 from rounding up a whole rank.
    const double rank = std::ceil(q * static_cast<double>(burn_ins.size()) - 1e-9);
    const auto r =
        std::clamp<std::size_t>(static_cast<std::size_t>(std::max(rank, 1.0)), 1, burn_ins.size());
    s.recommended_burn_in = burn_ins[r - 1];
    s.max_burn_in = burn_ins.back();
  }

  const std::string of = " of " + std::to_string(s.instances) + " instances ";
  if (never > 0) s.warnings.push_back(std::to_string(never) + of + "reached no steady state");
  if (const std::size_t slow = s.count(SteadyClass::kSlowdown); slow > 0)
    s.warnings.push_back(std::to_string(slow) + of +
                         "slowed down: their steady state is not their best performance");
  return s;
}

BenchmarkSteadyState classify_benchmark(std::span<const std::vector<double>> instances,
                                        const SteadyStateOptions& options,
                                        double burn_in_quantile) {
  BenchmarkSteadyState b;
  // Instances are independent: classified in parallel, each into its own slot.
  b.instances.resize(instances.size());
  tbb::parallel_for(std::size_t{0}, instances.size(), [&](std::size_t k) {
    b.instances[k] = classify_steady_state(instances[k], options);
  });
  // A lone outlier as the first iteration makes its instance a warmup of one iteration. When
  // the benchmark warms up, most instances show it; when only a minority do, it is a spike
  // that happened to come first (2% spikes put one at the start of 1 in 5 runs of 10
  // instances), and the benchmark's burn-in must not drop an iteration from every instance
  // for it. Those instances count as flat in the summary (their own classification stays).
  // (A segment of one iteration is only ever the leading run of outliers: PELT's segments
  // are at least 2 long.)
  const auto lone_leading_spike = [](const SteadyState& st) {
    return st.burn_in == std::size_t{1} && !st.segments.empty() && st.segments.front().size() == 1;
  };
  const auto spikes = static_cast<std::size_t>(
      std::count_if(b.instances.begin(), b.instances.end(), lone_leading_spike));
  if (spikes == 0 || 2 * spikes >= b.instances.size()) {
    b.summary = summarize_steady_state(b.instances, burn_in_quantile);
    return b;
  }
  std::vector<SteadyState> seen = b.instances;
  for (auto& st : seen)
    if (lone_leading_spike(st)) {
      st.burn_in = 0;
      st.classification = SteadyClass::kFlat;
    }
  b.summary = summarize_steady_state(seen, burn_in_quantile);
  return b;
}

}  // namespace benchguard::stats
