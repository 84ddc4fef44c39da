#include "stats/resample.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/descriptive.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

// Resamples per stream: setting a stream up (two Philox blocks, about 20 ns) costs as much as
// drawing a resample of a few instances, so each block of kStreamBlock resamples is drawn from
// one stream, in order: block k from stream k into slots [k * kStreamBlock, ...). Results
// depend on the seed alone, whatever threads run the blocks. A block is also a task: big enough
// to amortize scheduling, small enough to balance 2-64 cores.
constexpr int kStreamBlock = 32;

// Calls draw(rng) for every resample, in blocks as above, storing what it returns in `out`;
// `draw` is made by make_draw() once per task (for its own scratch space). `values` is the
// data's size: with fewer than kSerialWork values drawn in all, scheduling the blocks would
// cost more than drawing them, and they are drawn in turn on the calling thread (the same
// resamples, since a block's stream does not depend on the thread).
template <class MakeDraw>
void draw_in_blocks(std::vector<double>& out, std::size_t values, uint64_t seed,
                    MakeDraw&& make_draw) {
  constexpr std::size_t kSerialWork = 1 << 16;
  const int resamples = static_cast<int>(out.size());
  const int blocks = (resamples + kStreamBlock - 1) / kStreamBlock;
  const auto draw_blocks = [&](int first, int last) {
    auto draw = make_draw();
    for (int k = first; k < last; ++k) {
      Rng rng(seed, static_cast<uint64_t>(k));
      const int end = std::min(resamples, (k + 1) * kStreamBlock);
      for (int b = k * kStreamBlock; b < end; ++b) out[static_cast<std::size_t>(b)] = draw(rng);
    }
  };
  if (values * out.size() < kSerialWork) {
    draw_blocks(0, blocks);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<int>(0, blocks),
                    [&](const auto& range) { draw_blocks(range.begin(), range.end()); });
}

// Walks one resample, calling visit(position in data.values()) for every drawn iteration;
// returns how many were drawn.
template <class Visit>
std::size_t draw_resample(const Hierarchical& data, Rng& rng, Visit&& visit) {
  const std::size_t* offsets = data.offsets().data();
  const auto n = static_cast<uint32_t>(data.instances());
  std::size_t count = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = rng.below(n);
    const std::size_t first = offsets[i];
    const auto len = static_cast<uint32_t>(offsets[i + 1] - first);
    if (len == 1) {  // one iteration per instance (timed from outside): nothing to draw
      visit(first);
    } else {
      for (uint32_t j = 0; j < len; ++j) visit(first + rng.below(len));
    }
    count += len;
  }
  return count;
}

double resample_mean(const Hierarchical& data, Rng& rng) {
  const double* values = data.values().data();
  double sum = 0.0;
  const std::size_t count = draw_resample(data, rng, [&](std::size_t p) { sum += values[p]; });
  return sum / static_cast<double>(count);
}

std::size_t trim_count(std::size_t n) {
  return static_cast<std::size_t>(std::floor(kTrimFraction * static_cast<double>(n)));
}

// Medians and trimmed means of resamples by counting how often each data value (by rank) is
// drawn: a pass over the counts per resample instead of copying the resample and sorting it.
class RankStatistic {
 public:
  RankStatistic(const Hierarchical& data, Statistic statistic)
      : statistic_(statistic), rank_(data.size()) {
    const auto values = data.values();
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t l, std::size_t r) { return values[l] < values[r]; });
    sorted_.reserve(values.size());
    for (std::size_t r = 0; r < order.size(); ++r) {
      sorted_.push_back(values[order[r]]);
      rank_[order[r]] = static_cast<uint32_t>(r);
    }
  }

  double operator()(const Hierarchical& data, Rng& rng, std::vector<uint32_t>& counts) const {
    counts.assign(sorted_.size(), 0);
    const std::size_t total = draw_resample(data, rng, [&](std::size_t p) { ++counts[rank_[p]]; });
    if (statistic_ == Statistic::kTrimmedMean) {
      // Ranks [cut, total - cut) of the resample, each value counted as often as drawn.
      const std::size_t from = trim_count(total), to = total - from;
      std::size_t seen = 0;
      double sum = 0.0;
      for (std::size_t r = 0; r < counts.size() && seen < to; ++r) {
        const std::size_t first = std::max(seen, from), last = std::min(seen + counts[r], to);
        if (last > first) sum += static_cast<double>(last - first) * sorted_[r];
        seen += counts[r];
      }
      return sum / static_cast<double>(to - from);
    }
    // Type 7 median: the element at (total - 1) / 2, averaged with the one at total / 2.
    const std::size_t lo = (total - 1) / 2, hi = total / 2;
    std::size_t seen = 0;
    double lo_value = 0.0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const std::size_t before = seen;
      seen += counts[r];
      if (before <= lo && lo < seen) lo_value = sorted_[r];
      if (hi < seen) return (lo_value + sorted_[r]) / 2.0;
    }
    return sorted_.back();
  }

 private:
  Statistic statistic_;
  std::vector<double> sorted_;
  std::vector<uint32_t> rank_;  // rank_[p]: the position of data.values()[p] in sorted_
};

}  // namespace

const char* to_string(Statistic statistic) {
  switch (statistic) {
    case Statistic::kMean:
      return "mean";
    case Statistic::kMedian:
      return "median";
    case Statistic::kTrimmedMean:
      return "trimmed mean";
    case Statistic::kRobustMean:
      return "robust mean";
  }
  return "mean";
}

std::vector<bool> spike_flags(const Hierarchical& data, std::span<const double> neighbours) {
  constexpr std::size_t kOwnMedian = 3;  // iterations an instance needs for a median of its own
  const std::size_t n = data.instances();
  std::vector<double> centre(n), deviations;
  deviations.reserve(data.size());
  bool any_own = false;
  for (std::size_t i = 0; i < n; ++i) any_own |= data.instance(i).size() >= kOwnMedian;
  const double pooled = any_own ? 0.0 : median(data.values());
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = data.instance(i);
    if (any_own && x.size() < kOwnMedian) continue;
    centre[i] = any_own ? median(x) : pooled;
    for (double v : x) deviations.push_back(std::fabs(v - centre[i]));
  }
  const double scale = 1.482602218505602 * median(deviations);
  std::vector<bool> flags(data.size(), false);
  if (!(scale > 0.0) || !std::isfinite(scale)) return flags;
  const double limit = kSpikeMads * scale;
  // One value an instance: a spike is a launch gone wrong, alone where it lies. A far value
  // with a neighbour within the limit, here or among `neighbours` (the other side of a
  // comparison), belongs to a mode of the instances (a layout, a frequency state), which the
  // verdict must see: it stays.
  std::vector<double> spikes;  // sorted
  if (!any_own) {
    std::vector<double> all(data.values().begin(), data.values().end());
    all.insert(all.end(), neighbours.begin(), neighbours.end());
    std::sort(all.begin(), all.end());
    for (double v : data.values()) {
      if (std::fabs(v - pooled) <= limit) continue;
      // v itself is in `all`: a neighbour is the value next to one of its copies.
      const auto lo = std::lower_bound(all.begin(), all.end(), v);
      const auto hi = std::upper_bound(lo, all.end(), v);
      const bool twin = hi - lo > 1;
      const bool near_below = lo != all.begin() && v - *(lo - 1) <= limit;
      const bool near_above = hi != all.end() && *hi - v <= limit;
      if (!twin && !near_below && !near_above) spikes.push_back(v);
    }
    std::sort(spikes.begin(), spikes.end());
  }
  const auto spike = [&](std::size_t i, double v) {
    if (!any_own) return std::binary_search(spikes.begin(), spikes.end(), v);
    return data.instance(i).size() >= kOwnMedian && std::fabs(v - centre[i]) > limit;
  };
  const auto offsets = data.offsets();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) flags[k] = spike(i, data.values()[k]);
  return flags;
}

Hierarchical without_spikes(const Hierarchical& data, std::span<const double> neighbours) {
  const std::vector<bool> flags = spike_flags(data, neighbours);
  if (std::find(flags.begin(), flags.end(), true) == flags.end()) return data;
  Hierarchical out;
  std::vector<double> kept;
  const auto offsets = data.offsets();
  for (std::size_t i = 0; i < data.instances(); ++i) {
    kept.clear();
    for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k)
      if (!flags[k]) kept.push_back(data.values()[k]);
    out.add_instance(kept);
  }
  return out;
}

double trimmed_mean_sorted(std::span<const double> sorted) {
  const std::size_t cut = trim_count(sorted.size());
  return mean(sorted.subspan(cut, sorted.size() - 2 * cut));
}

double statistic_of(const Hierarchical& data, Statistic statistic) {
  switch (statistic) {
    case Statistic::kMean:
      return mean(data.values());
    case Statistic::kMedian:
      return median(data.values());
    case Statistic::kTrimmedMean: {
      // The middle values by two selections, not a sort: linear in the iterations.
      std::vector<double> x(data.values().begin(), data.values().end());
      const std::size_t cut = trim_count(x.size());
      if (x.empty()) return mean(x);
      const auto lo = x.begin() + static_cast<std::ptrdiff_t>(cut);
      const auto hi = x.end() - static_cast<std::ptrdiff_t>(cut);
      if (cut > 0) {
        std::nth_element(x.begin(), lo, x.end());
        std::nth_element(lo, hi, x.end());
      }
      return mean(std::span<const double>(&*lo, static_cast<std::size_t>(hi - lo)));
    }
    case Statistic::kRobustMean:
      return mean(without_spikes(data).values());
  }
  return mean(data.values());
}

std::vector<double> hierarchical_replicates(const Hierarchical& data, Statistic statistic,
                                            int resamples, uint64_t seed) {
  if (data.empty() || resamples <= 0) return {};
  if (statistic == Statistic::kRobustMean)
    return hierarchical_replicates(without_spikes(data), Statistic::kMean, resamples, seed);
  std::vector<double> out(static_cast<std::size_t>(resamples));
  if (statistic == Statistic::kMean) {
    draw_in_blocks(out, data.size(), seed,
                   [&] { return [&](Rng& rng) { return resample_mean(data, rng); }; });
    return out;
  }
  const RankStatistic statistic_of_resample(data, statistic);
  draw_in_blocks(out, data.size(), seed, [&] {
    return [&, counts = std::vector<uint32_t>()](Rng& rng) mutable {
      return statistic_of_resample(data, rng, counts);
    };
  });
  return out;
}

}  // namespace benchguard::stats
