// What `calibrate` measured: repeated A/A comparisons of a suite on one machine, per benchmark
// and metric the false-alarm count with its interval and the calibrated threshold
// (stats/null_calibration.hpp). Written as JSON by `calibrate --output`, read by
// `compare --calibration`. See docs/calibrate.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/defaults.hpp"
#include "core/result.hpp"

namespace benchguard {

struct CalibrationEntry {
  std::string benchmark;
  std::string metric;
  std::size_t comparisons = 0;  // A/A comparisons that gave a ratio
  std::size_t slower = 0;       // false alarms of each kind
  std::size_t faster = 0;
  double rate = 0;  // (slower + faster) / comparisons
  double rate_lower = 0, rate_upper = 1;
  double max_change = 0;  // largest |B/A - 1|
  // Changes at most this large are A/A noise here: a further A/A comparison exceeds it with
  // probability at most `bound`. NaN when no comparison gave a ratio.
  double threshold = 0;
  double bound = 1;
  bool reached = false;       // bound <= alpha
  std::size_t instances = 0;  // per side and repetition (the fewest seen)
  // The spread of instance means within a side, spikes left out (stats/resample.hpp): their
  // standard deviation pooled over the sides of every repetition, over the mean (NaN with too
  // few instances).
  double spread = std::nan("");
  // calibrate --randomize-layout (Calibration::layout "randomized"): the same A/A with the
  // layout fixed, run beside it: its comparisons, false alarms and spread. `layout_share` is
  // the part of the randomized spread's variance that layout alone causes,
  // 1 - (spread_fixed / spread)^2, at least 0. NaN (and 0 counts) otherwise.
  std::size_t fixed_comparisons = 0;
  std::size_t fixed_alarms = 0;
  double spread_fixed = std::nan("");
  double layout_share = std::nan("");
};

struct Calibration {
  std::string path;  // file it was read from
  std::string suite;
  std::string host;
  std::string schedule;
  std::string variant;    // the variant run against itself
  std::string layout;     // the A/A's layout (BenchmarkSpec::layout): "" native, randomized, fixed
  std::string statistic;  // of the verdict rule: robust mean | trimmed mean | median | mean
  double confidence = 0.95;
  double threshold = kDefaultThreshold;  // the verdict rule's own threshold
  double alpha = 0.05;  // 1 - confidence: the false-alarm rate the threshold bounds
  // The rest of the comparison's settings, as `compare` spells them; empty or 0 in a file
  // written before they were recorded.
  std::string burn_in;  // auto | configured | a count
  std::size_t resamples = 0;
  std::string seed;  // the bootstrap's, as a decimal
  std::size_t repetitions = 0;
  std::size_t repetitions_with_alarm = 0;  // any benchmark or metric slower or faster
  double family_rate_lower = 0, family_rate_upper = 1;
  std::vector<std::string> runs;  // uuids of the A/A runs
  std::vector<CalibrationEntry> entries;

  const CalibrationEntry* find(const std::string& benchmark, const std::string& metric) const;
};

// As JSON (every number finite or null), and back. Errors name the file and what is wrong.
std::string format_calibration(const Calibration& calibration);
Result<Calibration> parse_calibration(const std::string& text, const std::string& path);
Result<Calibration> load_calibration(const std::string& path);

}  // namespace benchguard
