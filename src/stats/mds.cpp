#include "stats/mds.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/mds_workspace.hpp"
#include "stats/null_calibration.hpp"

namespace benchguard::stats {
namespace {

// From this many iterations an instance, the spike rule (resample.hpp, without_spikes) judges
// each instance by its own median and reads nothing of the other side: compare's verdict is
// then scale-equivariant, and its thresholds give the verdict at the target exactly.
constexpr std::size_t kOwnMedianIterations = 3;

// Every decision's thresholds of one experiment, and whether compare's rule called the test
// slowed by the target slower.
struct ExperimentThresholds {
  std::array<Thresholds, kDecisionCount> decisions;
  bool detected_at_target = false;
};

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
  r.bound_confidence = o.bound_confidence;
  const auto index = static_cast<std::size_t>(d);
  long long detected = 0;
  for (const auto& e : experiments) {
    r.upper.push_back(e.decisions[index].upper);
    r.lower.push_back(e.decisions[index].lower);
    detected += e.detected_at_target ? 1 : 0;
  }
  if (d == Decision::kCompare) {
    r.target = o.target;
    r.target_detections = detected;
  }
  std::sort(r.upper.begin(), r.upper.end());
  std::sort(r.lower.begin(), r.lower.end());
  r.false_positive_rate = detection_rate(r, 1.0);
  for (double s : o.slowdowns) {
    r.detection.push_back(detection_rate(r, s));
    r.detection_lower.push_back(detection_lower_bound(r, s));
  }
  // The k-th smallest threshold, k the fewest detections whose lower bound reaches the power:
  // the bound first reaches it just above that threshold.
  const std::size_t k = successes_for_bound(r.upper.size(), o.power, o.bound_confidence);
  r.mds = k == 0               ? 1.0
          : k > r.upper.size() ? std::numeric_limits<double>::infinity()
                               : std::max(1.0, r.upper[k - 1]);
  return r;
}

std::size_t detections(const DecisionResult& r, double slowdown) {
  if (r.target_detections >= 0 && slowdown == r.target)
    return static_cast<std::size_t>(r.target_detections);
  std::size_t called = 0;
  if (slowdown >= 1.0) called += count_below(r.upper, slowdown);
  if (slowdown <= 1.0) called += count_above(r.lower, slowdown);
  return called;
}

}  // namespace

std::string_view to_string(Selection s) {
  return s == Selection::kInstance ? "instance" : "trial";
}

std::string_view to_string(Decision d) {
  switch (d) {
    case Decision::kOverlap:
      return "overlap";
    case Decision::kRatio:
      return "ratio";
    case Decision::kCompare:
      return "compare";
  }
  return "compare";
}

Thresholds thresholds(const ExperimentIntervals& e, Decision decision) {
  if (decision == Decision::kCompare) return {0.0, std::numeric_limits<double>::infinity()};
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
  return static_cast<double>(detections(r, slowdown)) / static_cast<double>(r.upper.size());
}

double rate_lower_bound(std::size_t successes, std::size_t trials, double confidence) {
  // The two-sided interval at 1 - 2 (1 - confidence) has the one-sided lower bound.
  return binomial_interval(successes, trials, 1.0 - 2.0 * (1.0 - confidence)).lower;
}

double detection_lower_bound(const DecisionResult& r, double slowdown) {
  if (r.upper.empty()) return std::nan("");
  return rate_lower_bound(detections(r, slowdown), r.upper.size(), r.bound_confidence);
}

std::size_t successes_for_bound(std::size_t trials, double rate, double confidence) {
  if (rate <= 0) return 0;
  if (trials == 0 || rate_lower_bound(trials, trials, confidence) < rate) return trials + 1;
  // The bound grows with the successes: the first that reaches the rate, by bisection.
  std::size_t lo = 0, hi = trials;  // bound(lo) < rate <= bound(hi), or lo = 0
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (rate_lower_bound(mid, trials, confidence) >= rate ? hi : lo) = mid;
  }
  return rate_lower_bound(lo, trials, confidence) >= rate ? lo : hi;
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
        c.fresh_draws = c.feasible && fresh_draws(data, c.config);
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
      const int experiment = static_cast<int>(j % experiments);
      Rng rng = experiment_rng(config, options, experiment);
      draw_experiment(data, config, rng, 1.0, w);
      ExperimentThresholds& out = results[j];
      if (options.bootstrap_decisions) {
        const auto e = bootstrap_intervals(config, options, rng, w);
        out.decisions[0] = thresholds(e, Decision::kOverlap);
        out.decisions[1] = thresholds(e, Decision::kRatio);
      }
      // compare's rule on the two samples as drawn (A/A), whose thresholds give the verdict
      // at every slowdown. Copies: ratio_sample runs both sides in parallel, and while this
      // thread waits it may run another experiment on the same workspace.
      const auto control = Hierarchical::from_parts(w.control_values, w.control_offsets);
      std::vector<double> slowed = w.test_values;
      std::vector<std::size_t> offsets = w.test_offsets;
      const auto test = Hierarchical::from_parts(slowed, offsets);
      const uint64_t seed = experiment_verdict_seed(config, options, experiment);
      const auto aa = compare_rule(control, test, options, seed);
      out.decisions[2] = thresholds(aa, options.verdict.threshold);
      if (config.iterations >= kOwnMedianIterations) {
        out.detected_at_target = options.target > out.decisions[2].upper;
        continue;
      }
      // Fewer iterations an instance: the spike rule reads the other side's values, which
      // the slowdown moves. Decided again with the test side slowed by the target.
      for (double& v : slowed) v *= options.target;
      const auto ab = compare_rule(
          control, Hierarchical::from_parts(std::move(slowed), std::move(offsets)), options, seed);
      out.detected_at_target = ab.verdict == Verdict::kSlower && ab.holds_in_family;
    }
  });
  for (std::size_t f = 0; f < simulated.size(); ++f) {
    const std::span<const ExperimentThresholds> slice(results.data() + f * experiments,
                                                      experiments);
    for (const Decision d : {Decision::kOverlap, Decision::kRatio, Decision::kCompare}) {
      if (d != Decision::kCompare && !options.bootstrap_decisions) continue;
      grid[simulated[f]].decisions[static_cast<std::size_t>(d)] = summarize(slice, d, options);
    }
  }
  return grid;
}

}  // namespace benchguard::stats
