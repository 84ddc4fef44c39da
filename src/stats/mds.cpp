#include "stats/mds.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "stats/mds_workspace.hpp"

namespace benchguard::stats {
namespace {

// Both decisions' thresholds of one experiment.
using ExperimentThresholds = std::array<Thresholds, kDecisionCount>;

std::size_t count_below(const std::vector<double>& sorted, double v) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), v) -
                                  sorted.begin());
}

std::size_t count_above(const std::vector<double>& sorted, double v) {
  return static_cast<std::size_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), v));
}

DecisionResult summarize(std::span<const ExperimentThresholds> experiments, Decision d,
                         const MdsOptions& o) {
  DecisionResult r;
  const auto index = static_cast<std::size_t>(d);
  for (const auto& e : experiments) {
    r.upper.push_back(e[index].upper);
    r.lower.push_back(e[index].lower);
  }
  std::sort(r.upper.begin(), r.upper.end());
  std::sort(r.lower.begin(), r.lower.end());
  r.false_positive_rate = detection_rate(r, 1.0);
  for (double s : o.slowdowns) r.detection.push_back(detection_rate(r, s));
  // The k-th smallest threshold, k = ceil(power x experiments): the rate first exceeds the
  // power just above it. The epsilon keeps 0.95 x 100 from rounding up to 96.
  const double wanted = std::ceil(o.power * static_cast<double>(r.upper.size()) - 1e-9);
  const auto k =
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(wanted, 1.0)), 1, r.upper.size());
  r.mds = std::max(1.0, r.upper[k - 1]);
  return r;
}

}  // namespace

std::string_view to_string(Selection s) {
  return s == Selection::kInstance ? "instance" : "trial";
}

std::string_view to_string(Decision d) {
  return d == Decision::kOverlap ? "overlap" : "ratio";
}

Thresholds thresholds(const ExperimentIntervals& e, Decision decision) {
  if (decision == Decision::kOverlap)
    return {e.control.lower / e.test.upper, e.control.upper / e.test.lower};
  return {1.0 / e.ratio.upper, 1.0 / e.ratio.lower};
}

int decide(const ExperimentIntervals& e, Decision decision) {
  if (decision == Decision::kOverlap) {
    if (e.test.lower > e.control.upper) return 1;
    return e.test.upper < e.control.lower ? -1 : 0;
  }
  if (e.ratio.lower > 1.0) return 1;
  return e.ratio.upper < 1.0 ? -1 : 0;
}

double detection_rate(const DecisionResult& r, double slowdown) {
  if (r.upper.empty()) return std::nan("");
  std::size_t called = 0;
  if (slowdown >= 1.0) called += count_below(r.upper, slowdown);
  if (slowdown <= 1.0) called += count_above(r.lower, slowdown);
  return static_cast<double>(called) / static_cast<double>(r.upper.size());
}

std::vector<ConfigResult> simulate_mds(const Hierarchical& data, const MdsOptions& options) {
  std::vector<ConfigResult> grid;
  std::vector<std::size_t> simulated;  // indices into grid
  for (const Selection s : {Selection::kInstance, Selection::kTrial}) {
    for (const std::size_t n : options.instances) {
      for (const std::size_t m : options.iterations) {
        ConfigResult c;
        c.config = {s, n, m};
        c.feasible = feasible(data, c.config);
        if (c.feasible) simulated.push_back(grid.size());
        grid.push_back(c);
      }
    }
  }
  const auto experiments = static_cast<std::size_t>(std::max(options.experiments, 0));
  if (experiments == 0 || options.resamples <= 0) {
    for (auto& c : grid) c.feasible = false;
    return grid;
  }

  // Every (configuration, experiment) is an independent task with its own random stream, so
  // the results do not depend on how they are spread over threads.
  std::vector<ExperimentThresholds> results(simulated.size() * experiments);
  tbb::enumerable_thread_specific<MdsWorkspace> workspaces;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, results.size()), [&](const auto& range) {
    MdsWorkspace& w = workspaces.local();
    for (std::size_t j = range.begin(); j < range.end(); ++j) {
      const Configuration& config = grid[simulated[j / experiments]].config;
      const auto e =
          run_experiment(data, config, options, static_cast<int>(j % experiments), 1.0, w);
      results[j] = {thresholds(e, Decision::kOverlap), thresholds(e, Decision::kRatio)};
    }
  });
  for (std::size_t f = 0; f < simulated.size(); ++f) {
    const std::span<const ExperimentThresholds> slice(results.data() + f * experiments,
                                                      experiments);
    for (const Decision d : {Decision::kOverlap, Decision::kRatio})
      grid[simulated[f]].decisions[static_cast<std::size_t>(d)] = summarize(slice, d, options);
  }
  return grid;
}

}  // namespace benchguard::stats
