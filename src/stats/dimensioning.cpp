#include "stats/dimensioning.hpp"

#include <cmath>
#include <limits>

namespace benchguard::stats {

Result<VarianceComponents> variance_components(std::span<const double> values,
                                               std::span<const std::size_t> reps) {
  if (reps.empty()) return Error{"variance components need at least one level"};
  std::size_t total = 1;
  for (std::size_t r : reps) {
    if (r < 2) return Error{"every level needs at least 2 repetitions to show its variance"};
    total *= r;
  }
  if (total != values.size()) {
    return Error{"expected " + std::to_string(total) + " values for the given repetitions, got " +
                 std::to_string(values.size())};
  }

  const std::size_t n = reps.size();
  VarianceComponents out;
  // means holds the level-(i-1) means (level 0: the values themselves); each group of r_i
  // consecutive entries shares one level-i parent.
  std::vector<double> means(values.begin(), values.end());
  for (std::size_t i = 1; i <= n; ++i) {
    const std::size_t r = reps[i - 1];
    std::vector<double> parents(means.size() / r);
    double ss = 0.0;
    for (std::size_t p = 0; p < parents.size(); ++p) {
      double sum = 0.0;
      for (std::size_t j = 0; j < r; ++j) sum += means[p * r + j];
      parents[p] = sum / static_cast<double>(r);
      for (std::size_t j = 0; j < r; ++j) {
        const double d = means[p * r + j] - parents[p];
        ss += d * d;
      }
    }
    // S_i^2 = ss / (r_{i+1} ... r_n) / (r_i - 1): the per-parent sample variance, averaged
    // over the r_{i+1} ... r_n parents.
    out.s2.push_back(ss / static_cast<double>(parents.size()) / static_cast<double>(r - 1));
    means = std::move(parents);
  }
  out.t2.push_back(out.s2[0]);
  for (std::size_t i = 2; i <= n; ++i) {
    out.t2.push_back(out.s2[i - 1] - out.s2[i - 2] / static_cast<double>(reps[i - 2]));
  }
  return out;
}

Result<VarianceComponents> variance_components(const Hierarchical& data) {
  if (data.instances() == 0 || !data.balanced()) {
    return Error{"variance components need the same number of iterations in every instance"};
  }
  const std::size_t reps[] = {data.instance(0).size(), data.instances()};
  return variance_components(data.values(), reps);
}

Result<RepetitionPlan> optimal_repetitions(const VarianceComponents& components,
                                           std::span<const double> costs, int max_repetitions) {
  const std::size_t n = components.t2.size();
  if (costs.size() != n) {
    return Error{"expected one cost per level (" + std::to_string(n) + "), got " +
                 std::to_string(costs.size())};
  }
  for (double c : costs) {
    if (!(c > 0.0)) return Error{"costs must be positive"};
  }
  RepetitionPlan plan;
  for (std::size_t i = 1; i < n; ++i) {
    const double here = components.t2[i - 1], next = components.t2[i];
    double r;
    if (!(here > 0.0)) {
      // Level i adds no measurable variance: one repetition per parent is enough.
      r = 1.0;
      plan.warnings.push_back("level " + std::to_string(i) +
                              " shows no variance of its own; 1 repetition suffices");
    } else if (!(next > 0.0)) {
      r = std::numeric_limits<double>::infinity();
      plan.warnings.push_back("level " + std::to_string(i + 1) +
                              " shows no variance of its own; repeat level " + std::to_string(i) +
                              " as much as the budget allows");
    } else {
      r = std::sqrt(costs[i] * here / (costs[i - 1] * next));
    }
    plan.exact.push_back(r);
    const double capped = std::min(std::ceil(r), static_cast<double>(max_repetitions));
    plan.rounded.push_back(std::max(1, static_cast<int>(capped)));
  }
  return plan;
}

}  // namespace benchguard::stats
