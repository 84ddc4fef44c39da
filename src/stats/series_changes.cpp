// E-divisive change points over commit history (series_changes.hpp): the energy statistic, the
// windowed split stage and the per-block merge, with the t-test or the permutation test. The
// threshold rule and the statistics of a change (segment_t_test, describe_change) are in
// series_threshold.cpp.
#include "stats/series_changes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Tags of derive_seed for the two stages of the permutation method.
constexpr std::uint64_t kSplitStreamTag = 1;
constexpr std::uint64_t kMergeStreamTag = 2;

// The sizes every E-divisive stage is derived from.
struct Geometry {
  std::size_t m = 3;        // fewest points on each side of a split or test
  std::size_t window = 50;  // W: window length, block stride, block margin and test cap
  std::size_t step = 25;    // windows start at multiples of this (W / 2)
};

Geometry geometry(std::size_t window, std::size_t min_segment) {
  Geometry g;
  g.m = std::max<std::size_t>(min_segment, 2);
  g.window = std::max(window, 2 * g.m);
  g.step = std::max<std::size_t>(g.window / 2, 1);
  return g;
}

bool all_finite(std::span<const double> series) {
  return std::all_of(series.begin(), series.end(), [](double v) { return std::isfinite(v); });
}

// Within-sample distance sums of one window: within(a, b) = sum over a <= i < j < b of
// |x_i - x_j|, for 0 <= a <= b <= n, from one O(n^2) pass. Q-hat of any two adjacent ranges
// of the window then costs O(1).
class EnergyTable {
 public:
  void build(std::span<const double> x) {
    n_ = x.size();
    const std::size_t w = n_ + 1;
    // Only a <= b is ever read; ranges of 0 or 1 values have no pairs.
    table_.resize(w * w);
    for (std::size_t a = 0; a <= n_; ++a) {
      table_[a * w + a] = 0.0;
      if (a < n_) table_[a * w + a + 1] = 0.0;
    }
    // within(a, b) = within(a, b - 1) + sum_{a <= i < b - 1} |x_i - x_{b-1}|: for each b the
    // column sum grows as a moves down from b - 1.
    for (std::size_t b = 2; b <= n_; ++b) {
      const double last = x[b - 1];
      double column = 0.0;
      for (std::size_t a = b - 1; a-- > 0;) {
        column += std::fabs(x[a] - last);
        table_[a * w + b] = table_[a * w + b - 1] + column;
      }
    }
    inverse_.resize(n_ + 2);
    inverse_[0] = 0.0;
    for (std::size_t k = 1; k < inverse_.size(); ++k) inverse_[k] = 1.0 / static_cast<double>(k);
  }

  double within(std::size_t a, std::size_t b) const { return table_[a * (n_ + 1) + b]; }

  // Q-hat of x[s, tau) against x[tau, kappa), both of at least 2 values:
  // (2 cross - 2 n2 w_x / (n1 - 1) - 2 n1 w_y / (n2 - 1)) / (n1 + n2), the definition in
  // series_changes.hpp multiplied out.
  double q(std::size_t s, std::size_t tau, std::size_t kappa) const {
    const double wx = within(s, tau), wy = within(tau, kappa);
    const double cross = within(s, kappa) - wx - wy;
    const std::size_t n1 = tau - s, n2 = kappa - tau;
    return (2.0 * cross - 2.0 * static_cast<double>(n2) * wx * inverse_[n1 - 1] -
            2.0 * static_cast<double>(n1) * wy * inverse_[n2 - 1]) *
           inverse_[n1 + n2];
  }

  // The best split of [s, e): the (tau, kappa) with s + m <= tau, tau + m <= kappa <= e that
  // maximises Q-hat (the first in (tau, kappa) order on ties). Requires e - s >= 2 m.
  struct Split {
    std::size_t tau = 0;
    std::size_t kappa = 0;
    double q = -std::numeric_limits<double>::infinity();
  };
  Split best_split(std::size_t s, std::size_t e, std::size_t m) const {
    Split best;
    const std::size_t w = n_ + 1;
    const double* row_s = &table_[s * w];
    for (std::size_t tau = s + m; tau + m <= e; ++tau) {
      const double* row_tau = &table_[tau * w];
      const double wx = row_s[tau];
      const auto n1 = static_cast<double>(tau - s);
      const double cx = 2.0 * wx * inverse_[tau - s - 1];
      for (std::size_t kappa = tau + m; kappa <= e; ++kappa) {
        const double wy = row_tau[kappa];
        const double cross = row_s[kappa] - wx - wy;
        const std::size_t n2 = kappa - tau;
        const double q =
            (2.0 * cross - static_cast<double>(n2) * cx - 2.0 * n1 * wy * inverse_[n2 - 1]) *
            inverse_[tau - s + n2];
        if (q > best.q) best = {tau, kappa, q};
      }
    }
    return best;
  }

  // The best Q-hat over tau with the second part running to e (kappa = e fixed), s + m <= tau
  // <= e - m.
  double best_q_to_end(std::size_t s, std::size_t e, std::size_t m) const {
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t tau = s + m; tau + m <= e; ++tau) best = std::max(best, q(s, tau, e));
    return best;
  }

 private:
  std::size_t n_ = 0;
  std::vector<double> table_;
  std::vector<double> inverse_;
};

// One interval of a window during the recursive splitting, with its best split.
struct Interval {
  std::size_t s = 0;  // window-relative
  std::size_t e = 0;
  EnergyTable::Split best;
};

// The segment t-test p-value of series[a, c) against series[c, b).
double segment_p(std::span<const double> series, std::size_t a, std::size_t c, std::size_t b,
                 double trim) {
  const double p = segment_t_test(series.subspan(a, c - a), series.subspan(c, b - c), trim).p_value;
  return std::isnan(p) ? 1.0 : p;
}

// Fisher-Yates shuffle of v[s, e).
void shuffle(std::vector<double>& v, std::size_t s, std::size_t e, Rng& rng) {
  for (std::size_t i = e - s; i > 1; --i) {
    const std::size_t j = rng.below(static_cast<uint32_t>(i));
    std::swap(v[s + i - 1], v[s + j]);
  }
}

// How many permuted statistics may reach the observed one with p = (1 + count) / (1 + R)
// still <= alpha; negative when no count can (too few permutations for alpha). A test stops as
// soon as the count exceeds it.
long long permutation_allowance(double alpha, std::size_t permutations) {
  return static_cast<long long>(
      std::floor(alpha * static_cast<double>(permutations + 1) - 1.0 + 1e-9));
}

// The significance test of the split stage: `intervals` are the searchable intervals of the
// window x (window-relative), `chosen` the one holding the best split, `test_number` counts the
// tests made in this window. True when the split is accepted.
struct TTestSplitTest {
  double weak_p;
  double trim;
  bool operator()(std::span<const double> x, const std::vector<Interval>& intervals,
                  std::size_t chosen, std::size_t /*window_start*/,
                  std::size_t /*test_number*/) const {
    const Interval& in = intervals[chosen];
    return segment_p(x, in.s, in.best.tau, in.e, trim) <= weak_p;
  }
};

struct PermutationSplitTest {
  const PermutationOptions* options;
  std::size_t m;
  bool operator()(std::span<const double> x, const std::vector<Interval>& intervals,
                  std::size_t chosen, std::size_t window_start, std::size_t test_number) const {
    const double observed = intervals[chosen].best.q;
    const long long allowance = permutation_allowance(options->max_p_value, options->permutations);
    if (allowance < 0) return false;
    Rng rng(derive_seed(derive_seed(options->seed, kSplitStreamTag), window_start), test_number);
    std::vector<double> shuffled(x.begin(), x.end());
    EnergyTable table;
    long long at_least = 0;
    for (std::size_t r = 0; r < options->permutations; ++r) {
      for (const Interval& in : intervals) shuffle(shuffled, in.s, in.e, rng);
      table.build(shuffled);
      double best = -std::numeric_limits<double>::infinity();
      for (const Interval& in : intervals) best = std::max(best, table.best_split(in.s, in.e, m).q);
      if (best >= observed && ++at_least > allowance) return false;
    }
    return true;
  }
};

// E-divisive inside one window series[ws, we): split at the best Q-hat over every current
// interval while the split is significant; appends the accepted split points (absolute).
template <class SplitTest>
void window_candidates(std::span<const double> series, std::size_t ws, std::size_t we,
                       const Geometry& g, const SplitTest& test, std::vector<std::size_t>& out) {
  const auto x = series.subspan(ws, we - ws);
  EnergyTable table;
  table.build(x);
  std::vector<Interval> intervals;
  auto add = [&](std::size_t s, std::size_t e) {
    if (e - s >= 2 * g.m) intervals.push_back({s, e, table.best_split(s, e, g.m)});
  };
  add(0, x.size());
  for (std::size_t test_number = 0; !intervals.empty(); ++test_number) {
    std::size_t chosen = 0;
    for (std::size_t k = 1; k < intervals.size(); ++k)
      if (intervals[k].best.q > intervals[chosen].best.q) chosen = k;
    // No split of any interval separates the values at all (a constant window, say).
    if (!(intervals[chosen].best.q > 0.0)) return;
    if (!test(x, intervals, chosen, ws, test_number)) return;
    const Interval in = intervals[chosen];
    out.push_back(ws + in.best.tau);
    intervals.erase(intervals.begin() + static_cast<std::ptrdiff_t>(chosen));
    add(in.s, in.best.tau);
    add(in.best.tau, in.e);
    // Keep the intervals in window order, so that ties go to the earliest.
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& l, const Interval& r) { return l.s < r.s; });
  }
}

// The weak change points of every window overlapping [from, n), ascending and unique, those
// at or after `from`.
template <class SplitTest>
std::vector<std::size_t> weak_change_points(std::span<const double> series, std::size_t from,
                                            const Geometry& g, const SplitTest& test) {
  const std::size_t n = series.size();
  std::vector<std::size_t> all;
  // Window j covers [j step, j step + W) and overlaps [from, n) when j step + W > from.
  const std::size_t first = from < g.window ? 0 : (from - g.window) / g.step + 1;
  for (std::size_t ws = first * g.step; ws + 2 * g.m <= n; ws += g.step)
    window_candidates(series, ws, std::min(ws + g.window, n), g, test, all);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  all.erase(all.begin(), std::lower_bound(all.begin(), all.end(), from));
  return all;
}

// The test of the merge stage: the p-value of a change at c between series[a, c) and
// series[c, b).
struct TTestMergeTest {
  double trim;
  double operator()(std::span<const double> series, std::size_t a, std::size_t c,
                    std::size_t b) const {
    return segment_p(series, a, c, b, trim);
  }
};

struct PermutationMergeTest {
  const PermutationOptions* options;
  std::size_t m;
  double operator()(std::span<const double> series, std::size_t a, std::size_t c,
                    std::size_t b) const {
    const auto x = series.subspan(a, b - a);
    EnergyTable table;
    table.build(x);
    const double observed = table.q(0, c - a, b - a);
    if (!(observed > 0.0)) return 1.0;
    const long long allowance = permutation_allowance(options->max_p_value, options->permutations);
    if (allowance < 0) return 1.0;
    Rng rng(derive_seed(derive_seed(options->seed, kMergeStreamTag), a), b);
    std::vector<double> shuffled(x.begin(), x.end());
    long long at_least = 0;
    std::size_t done = 0;
    while (done < options->permutations) {
      shuffle(shuffled, 0, shuffled.size(), rng);
      table.build(shuffled);
      ++done;
      if (table.best_q_to_end(0, shuffled.size(), m) >= observed && ++at_least > allowance) break;
    }
    return static_cast<double>(1 + at_least) / static_cast<double>(1 + done);
  }
};

// A change point as the merge leaves it: the segments [a, index) and [index, b) of its last test.
struct Merged {
  std::size_t index = 0;
  std::size_t a = 0;
  std::size_t b = 0;
  double p = 1.0;
};

// |relative change| of a change point, from the means describe_change reports.
double relative_magnitude(std::span<const double> series, const Merged& c, double trim) {
  const auto t = segment_t_test(series.subspan(c.a, c.index - c.a),
                                series.subspan(c.index, c.b - c.index), trim);
  return t.mean_before == 0.0 ? std::numeric_limits<double>::infinity()
                              : std::fabs(t.mean_after / t.mean_before - 1);
}

// Otava's merge over the weak change points inside the block [lo, hi), each test capped at W
// points a side and at the block's ends. Returns the survivors, ascending.
template <class MergeTest>
std::vector<Merged> merge_block(std::span<const double> series, std::size_t lo, std::size_t hi,
                                std::span<const std::size_t> weak, const Geometry& g, double max_p,
                                double min_magnitude, double trim, const MergeTest& test) {
  std::vector<Merged> cps;
  for (std::size_t c : weak)
    if (c >= lo + g.m && c + g.m <= hi) cps.push_back({c});
  auto retest = [&](std::size_t k) {
    Merged& c = cps[k];
    c.a =
        std::max({lo, k > 0 ? cps[k - 1].index : lo, c.index > g.window ? c.index - g.window : 0});
    c.b = std::min({hi, k + 1 < cps.size() ? cps[k + 1].index : hi, c.index + g.window});
    c.p = (c.index - c.a < g.m || c.b - c.index < g.m) ? 1.0 : test(series, c.a, c.index, c.b);
  };
  for (std::size_t k = 0; k < cps.size(); ++k) retest(k);
  auto remove = [&](std::size_t k) {
    cps.erase(cps.begin() + static_cast<std::ptrdiff_t>(k));
    if (k > 0) retest(k - 1);
    if (k < cps.size()) retest(k);
  };
  while (!cps.empty()) {
    std::size_t weakest = 0;
    for (std::size_t k = 1; k < cps.size(); ++k)
      if (cps[k].p > cps[weakest].p) weakest = k;
    if (cps[weakest].p > max_p) {
      remove(weakest);
      continue;
    }
    if (!(min_magnitude > 0.0)) break;
    double smallest = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < cps.size(); ++k) {
      const double mag = relative_magnitude(series, cps[k], trim);
      if (mag < smallest) {
        smallest = mag;
        weakest = k;
      }
    }
    if (smallest > min_magnitude) break;
    remove(weakest);
  }
  return cps;
}

struct Common {
  Geometry g;
  double max_p = 0;
  double min_magnitude = 0;
  double confidence = 0.95;
  double trim = kTrimFraction;
  ChangeMethod method = ChangeMethod::kEDivisiveTTest;
};

// The first block whose decisions can change when points are appended to a series of
// old_size points: block k decides [k W, (k + 1) W) from the weak change points of its extent
// [k W - W, (k + 2) W), which come from windows reaching at most W further; all of that lies
// below old_size when (k + 3) W <= old_size.
std::size_t first_changing_block(std::size_t old_size, const Geometry& g) {
  return old_size < 3 * g.window ? 0 : (old_size - 3 * g.window) / g.window + 1;
}

std::size_t edivisive_reexamine_from(std::size_t old_size, const Geometry& g) {
  const std::size_t start = first_changing_block(old_size, g) * g.window;
  return start > g.m ? start - g.m : 0;
}

// Change points decided by the blocks first_block, first_block + 1, ... of `series`.
template <class SplitTest, class MergeTest>
std::vector<SeriesChange> detect_blocks(std::span<const double> series, std::size_t first_block,
                                        const Common& c, const SplitTest& split,
                                        const MergeTest& merge) {
  const std::size_t n = series.size();
  const std::size_t W = c.g.window;
  std::vector<Merged> kept;
  std::vector<std::size_t> block_of;  // the block that decided each kept change point
  const std::size_t from = first_block * W > W ? first_block * W - W : 0;
  const auto weak = weak_change_points(series, from, c.g, split);
  for (std::size_t k = first_block; k * W < n; ++k) {
    const std::size_t lo = k * W > W ? k * W - W : 0, hi = std::min(n, k * W + 2 * W);
    const auto first = std::lower_bound(weak.begin(), weak.end(), lo);
    const auto last = std::lower_bound(first, weak.end(), hi);
    const auto merged = merge_block(series, lo, hi, std::span(first, last), c.g, c.max_p,
                                    c.min_magnitude, c.trim, merge);
    bool first_of_block = true;
    for (const Merged& cp : merged) {
      if (cp.index < k * W || cp.index >= k * W + W) continue;
      // Neighbouring blocks can accept change points on either side of their boundary that
      // neither would accept together: keep the smaller p-value (the earlier on ties).
      if (first_of_block && !kept.empty() && block_of.back() + 1 == k &&
          cp.index - kept.back().index < c.g.m) {
        first_of_block = false;
        if (cp.p >= kept.back().p) continue;
        kept.pop_back();
        block_of.pop_back();
      }
      first_of_block = false;
      kept.push_back(cp);
      block_of.push_back(k);
    }
  }
  std::vector<SeriesChange> out;
  out.reserve(kept.size());
  for (const Merged& cp : kept) {
    SeriesChange change = describe_change(series, cp.a, cp.index, cp.b, c.confidence, c.trim);
    change.p_value = cp.p;
    change.method = c.method;
    out.push_back(change);
  }
  return out;
}

template <class SplitTest, class MergeTest>
std::vector<SeriesChange> update_blocks(std::span<const double> series,
                                        std::span<const SeriesChange> old_changes,
                                        std::size_t old_size, const Common& c,
                                        const SplitTest& split, const MergeTest& merge) {
  if (!all_finite(series) || series.size() < 2 * c.g.m) return {};
  if (old_size > series.size()) old_size = 0;
  const std::size_t boundary = edivisive_reexamine_from(old_size, c.g);
  const std::size_t k0 = first_changing_block(old_size, c.g);
  // Block k0 - 1 is unchanged, but the boundary rule between it and block k0 needs its own
  // decisions.
  const auto fresh = detect_blocks(series, k0 > 0 ? k0 - 1 : 0, c, split, merge);
  std::vector<SeriesChange> out;
  for (const SeriesChange& old : old_changes)
    if (old.index < boundary) out.push_back(old);
  for (const SeriesChange& now : fresh)
    if (now.index >= boundary) out.push_back(now);
  return out;
}

Common common(const EDivisiveOptions& o) {
  return {geometry(o.window, o.min_segment), o.max_p_value, o.min_magnitude, o.confidence, o.trim,
          ChangeMethod::kEDivisiveTTest};
}

Common common(const PermutationOptions& o) {
  return {geometry(o.window, o.min_segment),  o.max_p_value, o.min_magnitude, o.confidence, o.trim,
          ChangeMethod::kEDivisivePermutation};
}

double weak_p_value(const EDivisiveOptions& o) {
  if (o.weak_p_value) return *o.weak_p_value;
  const double p = o.max_p_value;
  return p < 0.05 ? 10 * p : (p < 0.5 ? 2 * p : p);
}

}  // namespace

double energy_divergence(std::span<const double> x, std::span<const double> y) {
  const std::size_t n = x.size(), m = y.size();
  if (n < 2 || m < 2) return kNaN;
  double cross = 0, within_x = 0, within_y = 0;
  for (double a : x)
    for (double b : y) cross += std::fabs(a - b);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = i + 1; k < n; ++k) within_x += std::fabs(x[i] - x[k]);
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t k = j + 1; k < m; ++k) within_y += std::fabs(y[j] - y[k]);
  const auto dn = static_cast<double>(n), dm = static_cast<double>(m);
  const double e =
      2.0 / (dn * dm) * cross - within_x / (dn * (dn - 1) / 2) - within_y / (dm * (dm - 1) / 2);
  return dn * dm / (dn + dm) * e;
}

EnergySplit best_energy_split(std::span<const double> x, std::size_t min_segment) {
  const std::size_t m = std::max<std::size_t>(min_segment, 2);
  if (x.size() < 2 * m) return {};
  EnergyTable table;
  table.build(x);
  const auto best = table.best_split(0, x.size(), m);
  return {best.tau, best.kappa, best.q};
}

std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const EDivisiveOptions& options) {
  return update_changes(series, {}, 0, options);
}

std::vector<SeriesChange> detect_changes(std::span<const double> series,
                                         const PermutationOptions& options) {
  return update_changes(series, {}, 0, options);
}

std::size_t reexamine_from(std::size_t old_size, const EDivisiveOptions& options) {
  return edivisive_reexamine_from(old_size, geometry(options.window, options.min_segment));
}

std::size_t reexamine_from(std::size_t old_size, const PermutationOptions& options) {
  return edivisive_reexamine_from(old_size, geometry(options.window, options.min_segment));
}

std::size_t reach(const EDivisiveOptions& options) {
  const Geometry g = geometry(options.window, options.min_segment);
  return 3 * g.window + g.m;
}

std::size_t reach(const PermutationOptions& options) {
  const Geometry g = geometry(options.window, options.min_segment);
  return 3 * g.window + g.m;
}

std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const EDivisiveOptions& options) {
  const Common c = common(options);
  return update_blocks(series, old_changes, old_size, c,
                       TTestSplitTest{weak_p_value(options), options.trim},
                       TTestMergeTest{options.trim});
}

std::vector<SeriesChange> update_changes(std::span<const double> series,
                                         std::span<const SeriesChange> old_changes,
                                         std::size_t old_size, const PermutationOptions& options) {
  const Common c = common(options);
  return update_blocks(series, old_changes, old_size, c, PermutationSplitTest{&options, c.g.m},
                       PermutationMergeTest{&options, c.g.m});
}

}  // namespace benchguard::stats
