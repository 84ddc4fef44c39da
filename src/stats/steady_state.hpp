// Steady-state (burn-in) detection after Barrett et al. 2017, "Virtual machine warmup blows hot
// and cold": segment each instance's iterations with PELT, then classify the instance as flat,
// warmup, slowdown or no steady state. docs/steady-state.md explains every rule and default.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "stats/changepoint.hpp"
#include "stats/outliers.hpp"

namespace benchguard::stats {

enum class SteadyClass {
  kFlat,           // every segment is equivalent to the final one
  kWarmup,         // every earlier non-equivalent segment is worse than the final one
  kSlowdown,       // some earlier non-equivalent segment is better than the final one
  kNoSteadyState,  // the final steady segment is too short (or the series unusable)
};
inline constexpr std::size_t kSteadyClassCount = 4;

// "flat", "warmup", "slowdown", "no steady state".
std::string_view to_string(SteadyClass c);

struct SteadyStateOptions {
  PeltOptions pelt;  // defaults: penalty 15 ln n, min segment length 2
  // An earlier segment is equivalent to the final one when their means differ by at most
  //   max(absolute_tolerance, relative_tolerance * |final mean|,
  //       noise_z * final sd * sqrt(1/n_earlier + 1/n_final)).
  // 1% matches the noise criterion of compare: a difference compare would not call a change
  // is not a different state. The noise term merges segments PELT split for their variance
  // while their means stay within the final segment's noise.
  double absolute_tolerance = 0;
  double relative_tolerance = 0.01;
  double noise_z = 3.0;
  // The final steady segment must span at least max(min_steady_iterations,
  // ceil(steady_fraction * n)) iterations. Barrett et al. required the last 500 of 2000
  // in-process iterations to be free of change points: a quarter of the series.
  double steady_fraction = 0.25;
  std::size_t min_steady_iterations = 5;
  // Outliers (outliers.hpp) in runs shorter than the minimum segment length are left out of
  // segmentation, as Barrett et al. left outliers out: PELT cannot give a lone spike a segment
  // of its own, so it would drag a neighbour along and invent two change points. Longer runs
  // are a regime, not noise, and stay. A run of outliers at the very start becomes a segment
  // of its own whatever its length: slow first iterations are warm-up.
  bool exclude_outliers = true;
  OutlierOptions outliers;
  // Decides which of two segments is "better" (warmup versus slowdown).
  Direction direction = Direction::kLowerIsBetter;
  // PELT costs O(n^2) on a series without changes (its pruning needs changes to prune on):
  // 20,000 iterations took 4 s. Above this many iterations (after outliers are left out) the
  // series is segmented on the means of about max_segmentation_points / 2 blocks of
  // consecutive iterations instead, and every segment's statistics are then taken from its
  // iterations: change points land on block boundaries (within one block of where PELT on
  // the iterations would put them), and the cost is linear. docs/steady-state.md.
  std::size_t max_segmentation_points = 2000;
};

struct SteadyState {
  SteadyClass classification = SteadyClass::kNoSteadyState;
  // First iteration of the steady state: start of the final segment after merging the trailing
  // segments equivalent to it (the end of the last non-equivalent segment). 0 for flat;
  // unset when there is no steady state.
  std::optional<std::size_t> burn_in;
  std::vector<std::size_t> change_points;  // iteration indices, ascending
  // Segments in iteration indices, covering [0, n). Mean and variance leave out excluded
  // outliers.
  std::vector<SeriesSegment> segments;
  std::vector<bool> equivalent_to_final;  // per segment; true for the final one
  std::optional<SeriesSegment> steady;    // [burn_in, n) with its mean and variance
  std::vector<std::size_t> excluded;      // iterations left out of segmentation as outliers
  std::vector<std::string> warnings;
};

// Classifies one instance. `series` is its iterations in order (e.g. wall_time); values must
// be finite (otherwise: no steady state, with a warning).
SteadyState classify_steady_state(std::span<const double> series,
                                  const SteadyStateOptions& options = {});

// Per benchmark: what its instances say about burn-in.
struct SteadyStateSummary {
  std::size_t instances = 0;
  std::array<std::size_t, kSteadyClassCount> counts{};  // indexed by SteadyClass
  double no_steady_state_share = 0;                     // of all instances; 0 when there are none
  // Nearest-rank burn_in_quantile of the burn-ins of the instances that reached a steady state
  // (flat, warmup, slowdown); unset when none did.
  std::optional<std::size_t> recommended_burn_in;
  std::optional<std::size_t> max_burn_in;
  std::vector<std::string> warnings;

  std::size_t count(SteadyClass c) const { return counts[static_cast<std::size_t>(c)]; }
};

// 0.9 covers nine in ten steady instances; with fewer than ten it is their maximum. A single
// odd instance in a large run cannot then discard most of every other instance's data.
inline constexpr double kDefaultBurnInQuantile = 0.9;

SteadyStateSummary summarize_steady_state(std::span<const SteadyState> instances,
                                          double burn_in_quantile = kDefaultBurnInQuantile);

struct BenchmarkSteadyState {
  std::vector<SteadyState> instances;
  SteadyStateSummary summary;
};

// Classifies every instance of a benchmark (one series of iterations each) and summarises.
BenchmarkSteadyState classify_benchmark(std::span<const std::vector<double>> instances,
                                        const SteadyStateOptions& options = {},
                                        double burn_in_quantile = kDefaultBurnInQuantile);

}  // namespace benchguard::stats
