// Bootstrap replicates of large samples without redrawing every iteration (resample.hpp,
// "Large samples").
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "stats/resample.hpp"
#include "stats/rng.hpp"

namespace benchguard::stats {
namespace {

constexpr int kGrain = 32;

// What the normal draws need: per instance its size m_k, the mean u_k and the variance v_k
// (denominator m_k) of its influence values, and the statistic of the whole sample.
struct Influence {
  std::vector<double> m, u, v;
  double statistic = 0.0;
};

std::size_t trim_cut(std::size_t n) {
  return static_cast<std::size_t>(std::floor(kTrimFraction * static_cast<double>(n)));
}

// Mean and variance (denominator n) of f(x) over one instance.
template <class F>
std::pair<double, double> moments(std::span<const double> xs, F&& f) {
  double sum = 0.0;
  for (double x : xs) sum += f(x);
  const double mu = sum / static_cast<double>(xs.size());
  double ss = 0.0;
  for (double x : xs) {
    const double d = f(x) - mu;
    ss += d * d;
  }
  return {mu, ss / static_cast<double>(xs.size())};
}

Influence influence(const Hierarchical& data, Statistic statistic, std::span<const double> sorted) {
  Influence out;
  const std::size_t n = data.instances();
  out.m.reserve(n);
  out.u.reserve(n);
  out.v.reserve(n);
  const auto add = [&](std::span<const double> xs, auto&& f) {
    const auto [mu, var] = moments(xs, f);
    out.m.push_back(static_cast<double>(xs.size()));
    out.u.push_back(mu);
    out.v.push_back(var);
  };
  switch (statistic) {
    case Statistic::kMean:
    case Statistic::kRobustMean:  // replicates_by passes the robust mean on as the mean
      out.statistic = mean(data.values());
      for (std::size_t k = 0; k < n; ++k) add(data.instance(k), [](double x) { return x; });
      break;
    case Statistic::kTrimmedMean: {
      out.statistic = trimmed_mean_sorted(sorted);
      const std::size_t cut = trim_cut(sorted.size());
      const double lo = sorted[cut], hi = sorted[sorted.size() - 1 - cut];
      const double scale = 1.0 / (1.0 - 2.0 * kTrimFraction);
      for (std::size_t k = 0; k < n; ++k)
        add(data.instance(k), [&](double x) { return scale * std::clamp(x, lo, hi); });
      break;
    }
    case Statistic::kMedian: {
      out.statistic = quantile_sorted(sorted, 0.5);
      const double f = density_at_median(sorted);
      const double scale = std::isfinite(f) ? 1.0 / f : 0.0;
      const double med = out.statistic;
      for (std::size_t k = 0; k < n; ++k)
        add(data.instance(k), [&](double x) { return x > med ? scale : 0.0; });
      break;
    }
  }
  return out;
}

// The statistic of a multiset of whole instances (instance k counted c_k times, none of its
// iterations redrawn), from each instance's sorted values and their prefix sums: a bisection
// over the pooled sorted values with a binary search per drawn instance at each step, so the
// cost grows with the instances drawn and log(iterations), not with the iterations.
class Mixture {
 public:
  explicit Mixture(const Hierarchical& data) : offsets_(data.offsets()) {
    sorted_.assign(data.values().begin(), data.values().end());
    prefix_.resize(sorted_.size() + data.instances());
    for (std::size_t k = 0; k < data.instances(); ++k) {
      const auto first = sorted_.begin() + static_cast<std::ptrdiff_t>(offsets_[k]);
      const auto last = sorted_.begin() + static_cast<std::ptrdiff_t>(offsets_[k + 1]);
      std::sort(first, last);
      double* p = prefix_.data() + offsets_[k] + k;
      p[0] = 0.0;
      for (auto it = first; it != last; ++it, ++p) p[1] = p[0] + *it;
    }
    // All values sorted, by merging the sorted instances pairwise: M log(instances).
    global_ = sorted_;
    for (std::size_t width = 1; width < data.instances(); width *= 2)
      for (std::size_t k = 0; k + width < data.instances(); k += 2 * width) {
        const auto at = [&](std::size_t i) {
          return global_.begin() +
                 static_cast<std::ptrdiff_t>(offsets_[std::min(i, data.instances())]);
        };
        std::inplace_merge(at(k), at(k + width), at(k + 2 * width));
      }
  }

  std::span<const double> pooled_sorted() const { return global_; }

  struct Draw {
    uint32_t instance;
    uint32_t copies;
  };

  double statistic(std::span<const Draw> drawn, std::size_t total, Statistic statistic) const {
    if (statistic == Statistic::kMedian)
      return (at(drawn, (total - 1) / 2) + at(drawn, total / 2)) / 2.0;
    const std::size_t cut = trim_cut(total);
    return (sum_smallest(drawn, total - cut) - sum_smallest(drawn, cut)) /
           static_cast<double>(total - 2 * cut);
  }

 private:
  std::span<const double> values(uint32_t k) const {
    return std::span<const double>(sorted_).subspan(offsets_[k], offsets_[k + 1] - offsets_[k]);
  }

  // How many drawn iterations are <= x.
  std::size_t rank(std::span<const Draw> drawn, double x) const {
    std::size_t r = 0;
    for (const auto& d : drawn) {
      const auto xs = values(d.instance);
      const auto pos = std::upper_bound(xs.begin(), xs.end(), x);
      r += d.copies * static_cast<std::size_t>(pos - xs.begin());
    }
    return r;
  }

  // The drawn iteration of 0-based rank r: the smallest pooled value with more than r drawn
  // iterations at or below it.
  double at(std::span<const Draw> drawn, std::size_t r) const {
    std::size_t lo = 0, hi = global_.size() - 1;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (rank(drawn, global_[mid]) > r)
        hi = mid;
      else
        lo = mid + 1;
    }
    return global_[lo];
  }

  // The sum of the r smallest drawn iterations.
  double sum_smallest(std::span<const Draw> drawn, std::size_t r) const {
    if (r == 0) return 0.0;
    const double x = at(drawn, r - 1);
    std::size_t below = 0;
    double sum = 0.0;
    for (const auto& d : drawn) {
      const auto xs = values(d.instance);
      const auto count =
          static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), x) - xs.begin());
      below += d.copies * count;
      sum += d.copies * prefix_[offsets_[d.instance] + d.instance + count];
    }
    return sum + static_cast<double>(r - below) * x;
  }

  std::span<const std::size_t> offsets_;
  std::vector<double> global_;  // all values sorted
  std::vector<double> sorted_;  // each instance's values sorted, at its offsets
  std::vector<double> prefix_;  // instance k: m_k + 1 prefix sums from offsets_[k] + k
};

std::vector<double> normal_within(const Hierarchical& data, Statistic statistic, int resamples,
                                  uint64_t seed) {
  std::vector<double> out(static_cast<std::size_t>(resamples));
  const auto n = static_cast<uint32_t>(data.instances());
  if (statistic == Statistic::kMean) {
    const Influence inf = influence(data, statistic, {});
    tbb::parallel_for(tbb::blocked_range<int>(0, resamples, kGrain), [&](const auto& range) {
      for (int b = range.begin(); b < range.end(); ++b) {
        Rng rng(seed, static_cast<uint64_t>(b));
        double sum = 0.0, weight = 0.0, inner = 0.0;
        for (uint32_t j = 0; j < n; ++j) {
          const uint32_t k = rng.below(n);
          sum += inf.m[k] * inf.u[k];
          weight += inf.m[k];
          inner += inf.m[k] * inf.v[k];
        }
        out[static_cast<std::size_t>(b)] = (sum + std::sqrt(inner) * rng.normal()) / weight;
      }
    });
    return out;
  }
  const Mixture mixture(data);
  const Influence inf = influence(data, statistic, mixture.pooled_sorted());
  tbb::parallel_for(tbb::blocked_range<int>(0, resamples, kGrain), [&](const auto& range) {
    std::vector<uint32_t> copies(n, 0);
    std::vector<Mixture::Draw> drawn;
    for (int b = range.begin(); b < range.end(); ++b) {
      Rng rng(seed, static_cast<uint64_t>(b));
      for (uint32_t j = 0; j < n; ++j) ++copies[rng.below(n)];
      drawn.clear();
      std::size_t total = 0;
      double inner = 0.0;
      for (uint32_t k = 0; k < n; ++k) {
        if (copies[k] == 0) continue;
        drawn.push_back({k, copies[k]});
        total += copies[k] * static_cast<std::size_t>(inf.m[k]);
        inner += copies[k] * inf.m[k] * inf.v[k];
        copies[k] = 0;
      }
      const double w = static_cast<double>(total);
      out[static_cast<std::size_t>(b)] =
          mixture.statistic(drawn, total, statistic) + std::sqrt(inner) / w * rng.normal();
    }
  });
  return out;
}

// The two-stage bootstrap variance terms of the influence values' pooled mean.
VarianceTerm terms_of(const Influence& inf) {
  const std::size_t n = inf.m.size();
  if (n == 0) return {0.0, 0.0, 0};
  double total = 0.0, sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    total += inf.m[k];
    sum += inf.m[k] * inf.u[k];
  }
  const double centre = sum / total, m = total / static_cast<double>(n);
  double sum_d2 = 0.0, inner = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double d = inf.m[k] * (inf.u[k] - centre) / m;
    sum_d2 += d * d;
    inner += inf.m[k] * inf.v[k] / (m * m);
  }
  // With one instance there is no spread between instances, only the inner redrawing.
  if (n < 2) return {0.0, inner, n};
  return cluster_variance_term(sum_d2, inner, n);
}

std::vector<double> sorted_unless_mean(const Hierarchical& data, Statistic statistic) {
  std::vector<double> sorted;
  if (statistic != Statistic::kMean) {
    sorted.assign(data.values().begin(), data.values().end());
    std::sort(sorted.begin(), sorted.end());
  }
  return sorted;
}

std::vector<double> normal(const Hierarchical& data, Statistic statistic, int resamples,
                           uint64_t seed) {
  const Influence inf = influence(data, statistic, sorted_unless_mean(data, statistic));
  const double sd = std::sqrt(terms_of(inf).bootstrap_variance);
  std::vector<double> out(static_cast<std::size_t>(resamples));
  for (int b = 0; b < resamples; ++b) {
    Rng rng(seed, static_cast<uint64_t>(b));
    out[static_cast<std::size_t>(b)] = inf.statistic + sd * rng.normal();
  }
  return out;
}

}  // namespace

VarianceTerm influence_terms(const Hierarchical& data, Statistic statistic) {
  return terms_of(influence(data, statistic, sorted_unless_mean(data, statistic)));
}

const char* to_string(ResampleMethod method) {
  switch (method) {
    case ResampleMethod::kFull:
      return "full";
    case ResampleMethod::kNormalWithin:
      return "normal within instances";
    case ResampleMethod::kNormal:
      return "normal";
  }
  return "full";
}

ResampleMethod choose_resample_method(const Hierarchical& data) {
  if (data.size() <= kFullResampleLimit) return ResampleMethod::kFull;
  if (data.instances() <= kInstanceResampleLimit) return ResampleMethod::kNormalWithin;
  return ResampleMethod::kNormal;
}

std::vector<double> replicates_by(const Hierarchical& data, Statistic statistic, int resamples,
                                  uint64_t seed, ResampleMethod method) {
  if (data.empty() || resamples <= 0) return {};
  if (statistic == Statistic::kRobustMean)
    return replicates_by(without_spikes(data), Statistic::kMean, resamples, seed, method);
  switch (method) {
    case ResampleMethod::kFull:
      return hierarchical_replicates(data, statistic, resamples, seed);
    case ResampleMethod::kNormalWithin:
      return normal_within(data, statistic, resamples, seed);
    case ResampleMethod::kNormal:
      return normal(data, statistic, resamples, seed);
  }
  return {};
}

Replicates bootstrap_replicates(const Hierarchical& data, Statistic statistic, int resamples,
                                uint64_t seed) {
  Replicates r;
  r.method = choose_resample_method(data);
  r.values = replicates_by(data, statistic, resamples, seed, r.method);
  return r;
}

}  // namespace benchguard::stats
