// Change points over commit history (src/stats/series_changes.hpp): speed of the default method
// on a store's worth of series, and accuracy of every method on synthetic series with known
// change points. Every series comes from a fixed seed.
// Usage: series_changes_bench [series points trials]   (default 1000 1000 200)
//   series x points: the speed test (full detection, then one appended point per series);
//   trials: synthetic series per cell of the accuracy table.
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "stats/rng.hpp"
#include "stats/series_changes.hpp"

namespace {

using benchguard::stats::derive_seed;
using benchguard::stats::EDivisiveOptions;
using benchguard::stats::PermutationOptions;
using benchguard::stats::Rng;
using benchguard::stats::SeriesChange;
using benchguard::stats::ThresholdOptions;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Bitwise equality, NaN included (the interval bounds can be NaN).
bool same(const std::vector<SeriesChange>& a, const std::vector<SeriesChange>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const SeriesChange &x = a[i], &y = b[i];
    auto eq = [](double u, double v) {
      return std::bit_cast<std::uint64_t>(u) == std::bit_cast<std::uint64_t>(v);
    };
    if (x.index != y.index || x.before_start != y.before_start || x.after_end != y.after_end ||
        x.method != y.method || !eq(x.mean_before, y.mean_before) ||
        !eq(x.mean_after, y.mean_after) || !eq(x.relative_change, y.relative_change) ||
        !eq(x.relative_change_low, y.relative_change_low) ||
        !eq(x.relative_change_high, y.relative_change_high) || !eq(x.p_value, y.p_value))
      return false;
  }
  return true;
}

// A realistic history for the speed test: 2% normal noise around 100 and up to three steps of
// -10% .. +10% at random commits.
std::vector<double> history(std::uint64_t seed, std::size_t points) {
  Rng rng(seed, 0);
  std::vector<std::size_t> at(rng.below(4));
  for (auto& a : at) a = rng.below(static_cast<std::uint32_t>(points));
  std::vector<double> factor(at.size());
  for (auto& f : factor) f = 0.9 + 0.2 * rng.uniform();
  std::vector<double> x(points);
  for (std::size_t i = 0; i < points; ++i) {
    double level = 100;
    for (std::size_t k = 0; k < at.size(); ++k)
      if (i >= at[k]) level *= factor[k];
    x[i] = level * (1 + 0.02 * rng.normal());
  }
  return x;
}

void speed(std::size_t series, std::size_t points) {
  std::vector<std::vector<double>> data(series);
  for (std::size_t s = 0; s < series; ++s) data[s] = history(derive_seed(42, s), points);
  const EDivisiveOptions options;
  std::vector<std::vector<SeriesChange>> full(series), old(series), updated(series);

  std::printf("speed: %zu series x %zu points, default method (e-divisive t-test)\n", series,
              points);
  double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  for (std::size_t s = 0; s < series; ++s)
    full[s] = benchguard::stats::detect_changes(data[s], options);
  double wall = seconds_since(t0);
  std::size_t found = 0;
  for (const auto& f : full) found += f.size();
  std::printf(
      "  full detection, 1 thread:  %.3f s wall, %.3f s cpu (%.3f ms per series), %zu "
      "change points\n",
      wall, cpu_seconds() - cpu0, wall * 1e3 / static_cast<double>(series), found);

  {
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
    cpu0 = cpu_seconds();
    t0 = std::chrono::steady_clock::now();
    tbb::parallel_for(std::size_t{0}, series, [&](std::size_t s) {
      full[s] = benchguard::stats::detect_changes(data[s], options);
    });
    wall = seconds_since(t0);
    std::printf("  full detection, 2 threads: %.3f s wall, %.3f s cpu (target: under 2 s)\n", wall,
                cpu_seconds() - cpu0);

    // The state before the last point, computed beforehand: only the update is timed.
    tbb::parallel_for(std::size_t{0}, series, [&](std::size_t s) {
      old[s] = benchguard::stats::detect_changes(std::span(data[s]).first(points - 1), options);
    });
    cpu0 = cpu_seconds();
    t0 = std::chrono::steady_clock::now();
    tbb::parallel_for(std::size_t{0}, series, [&](std::size_t s) {
      updated[s] = benchguard::stats::update_changes(data[s], old[s], points - 1, options);
    });
    wall = seconds_since(t0);
    std::size_t differ = 0;
    for (std::size_t s = 0; s < series; ++s) differ += !same(updated[s], full[s]);
    std::printf(
        "  append one point to each, update, 2 threads: %.3f s wall, %.3f s cpu "
        "(target: under 0.2 s); %zu of %zu differ from full detection\n",
        wall, cpu_seconds() - cpu0, differ, series);
  }
  std::printf("  re-examined per update: points from reexamine_from(%zu) = %zu; reach %zu\n",
              points - 1, benchguard::stats::reexamine_from(points - 1, options),
              benchguard::stats::reach(options));

  // The other methods, one thread, on some of the same series.
  const std::size_t some = std::min<std::size_t>(series, 50);
  t0 = std::chrono::steady_clock::now();
  for (std::size_t s = 0; s < some; ++s)
    benchguard::stats::detect_changes(data[s], PermutationOptions{});
  std::printf("  permutation method, 1 thread: %.1f ms per series\n",
              seconds_since(t0) * 1e3 / static_cast<double>(some));
  t0 = std::chrono::steady_clock::now();
  for (std::size_t s = 0; s < series; ++s)
    benchguard::stats::detect_changes(data[s], ThresholdOptions{});
  std::printf("  threshold rule, 1 thread: %.3f ms per series\n",
              seconds_since(t0) * 1e3 / static_cast<double>(series));
}

// ---- accuracy ----

constexpr std::size_t kLength = 200;   // points per synthetic series
constexpr std::size_t kTolerance = 2;  // a detection within +-2 points of a true change counts
constexpr std::array<double, 3> kNoises = {0.01, 0.02, 0.05};
constexpr std::array<double, 4> kSteps = {0.02, 0.05, 0.10, 0.20};

struct Synthetic {
  std::vector<double> values;
  std::vector<std::size_t> changes;
  std::size_t spike = kLength;  // kLength: none
};

// Two regressions (rises, so that the threshold rule's default direction applies) at random
// commits in [40, 90) and [120, 170), or none; optionally one +50% spike at a random commit
// away from the changes.
Synthetic synthetic(std::uint64_t seed, double noise, double step, bool spike) {
  Rng rng(seed, 0);
  Synthetic s;
  if (step > 0) s.changes = {40 + rng.below(50), 120 + rng.below(50)};
  std::size_t& spike_at = s.spike;
  if (spike) {
    do spike_at = 5 + rng.below(kLength - 10);
    while (std::any_of(s.changes.begin(), s.changes.end(),
                       [&](std::size_t c) { return spike_at + 5 > c && spike_at < c + 5; }));
  }
  s.values.resize(kLength);
  double level = 100;
  for (std::size_t i = 0; i < kLength; ++i) {
    if (std::find(s.changes.begin(), s.changes.end(), i) != s.changes.end()) level *= 1 + step;
    s.values[i] = level * (1 + noise * rng.normal()) * (i == spike_at ? 1.5 : 1.0);
  }
  return s;
}

struct Tally {
  std::size_t truth = 0, found = 0, reported = 0, correct = 0, series = 0, alarmed = 0;
  std::size_t near_spike = 0;  // series with a change point within 3 points of the spike
  void add(const Tally& o) {
    near_spike += o.near_spike;
    truth += o.truth;
    found += o.found;
    reported += o.reported;
    correct += o.correct;
    series += o.series;
    alarmed += o.alarmed;
  }
};

// Greedy one-to-one matching within the tolerance, nearest first.
Tally score(const std::vector<std::size_t>& truth, const std::vector<SeriesChange>& found) {
  Tally t;
  t.truth = truth.size();
  t.reported = found.size();
  t.series = 1;
  t.alarmed = found.empty() ? 0 : 1;
  std::vector<bool> used(found.size(), false);
  for (std::size_t c : truth) {
    std::size_t best = found.size(), distance = kTolerance + 1;
    for (std::size_t k = 0; k < found.size(); ++k) {
      const std::size_t d = found[k].index > c ? found[k].index - c : c - found[k].index;
      if (!used[k] && d < distance) {
        best = k;
        distance = d;
      }
    }
    if (best < found.size()) {
      used[best] = true;
      ++t.found;
    }
  }
  t.correct = t.found;
  return t;
}

template <class Options>
Tally run_cell(const Options& options, std::uint64_t cell, std::size_t trials, double noise,
               double step, bool spike) {
  std::vector<Tally> tallies(trials);
  tbb::parallel_for(std::size_t{0}, trials, [&](std::size_t t) {
    const Synthetic s = synthetic(derive_seed(cell, t), noise, step, spike);
    const auto found = benchguard::stats::detect_changes(s.values, options);
    tallies[t] = score(s.changes, found);
    tallies[t].near_spike = std::any_of(found.begin(), found.end(), [&](const SeriesChange& c) {
      return c.index + 3 >= s.spike && c.index <= s.spike + 3;
    });
  });
  Tally total;
  for (const Tally& t : tallies) total.add(t);
  return total;
}

std::uint64_t cell_seed(std::size_t noise, std::size_t step, std::size_t kind) {
  return derive_seed(derive_seed(derive_seed(7, noise), step), kind);
}

template <class Options>
void accuracy(const char* name, const Options& options, std::size_t trials) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  const auto start = std::chrono::steady_clock::now();
  std::printf(
      "\n%s: precision / recall (detections within +-%zu points; %zu series of %zu "
      "points per cell, two rises each)\n",
      name, kTolerance, trials, kLength);
  std::printf("  noise |");
  for (double step : kSteps) std::printf("    step %4.0f%%   |", step * 100);
  std::printf(" spike series: alarmed, near spike | A/A alarmed\n");
  for (std::size_t ni = 0; ni < kNoises.size(); ++ni) {
    std::printf("  %4.0f%% |", kNoises[ni] * 100);
    for (std::size_t si = 0; si < kSteps.size(); ++si) {
      const Tally t =
          run_cell(options, cell_seed(ni, si, 0), trials, kNoises[ni], kSteps[si], false);
      const double precision =
          t.reported ? static_cast<double>(t.correct) / static_cast<double>(t.reported) : 1.0;
      std::printf("  %5.3f / %5.3f |", precision,
                  static_cast<double>(t.found) / static_cast<double>(t.truth));
    }
    // Series with no change but one +50% spike: any detection is a false alarm.
    const Tally spikes = run_cell(options, cell_seed(ni, 9, 1), trials, kNoises[ni], 0, true);
    // A/A: white noise of the same length, 5 x trials series, measured in the same run.
    const Tally aa = run_cell(options, cell_seed(ni, 9, 2), 5 * trials, kNoises[ni], 0, false);
    std::printf("           %5.3f, %5.3f          |   %5.3f\n",
                static_cast<double>(spikes.alarmed) / static_cast<double>(spikes.series),
                static_cast<double>(spikes.near_spike) / static_cast<double>(spikes.series),
                static_cast<double>(aa.alarmed) / static_cast<double>(aa.series));
  }
  std::printf("  (%.1f s on 2 threads)\n", seconds_since(start));
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t series = 1000, points = 1000, trials = 200;
  if (argc == 4) {
    series = std::strtoul(argv[1], nullptr, 10);
    points = std::strtoul(argv[2], nullptr, 10);
    trials = std::strtoul(argv[3], nullptr, 10);
  }
  if (points < 2 || trials < 1) {
    std::fprintf(stderr, "usage: series_changes_bench [series points trials]\n");
    return 2;
  }
  speed(series, points);
  accuracy("e-divisive t-test (default: p 0.001, window 50)", EDivisiveOptions{}, trials);
  accuracy("e-divisive permutation (p 0.05, 100 permutations, seed 0)", PermutationOptions{},
           trials);
  accuracy("threshold rule (10 before, 3 sigma, 3 in a row, floor 0, rises only)",
           ThresholdOptions{}, trials);
  return 0;
}
