// Runs a suite sequentially (run --until-decided, ab --until-decided): every benchmark's A and
// B in rounds, a look after each round (analysis/sequential.hpp), each benchmark ending at its
// first deciding look or at its budget. The run stores its plan and looks (artifact
// "sequential") when it finishes. The run's confidence holds for all its benchmarks together:
// each one's looks are designed at 1 - (1 - confidence) / K for K benchmarks. Under the
// sequential schedule (all of A, then all of B) the run is interleaved instead: the looks need
// A and B interleaved.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "analysis/sequential.hpp"
#include "core/model.hpp"
#include "core/result.hpp"
#include "schedule/runner.hpp"
#include "store/store.hpp"

namespace benchguard::sequential {

struct Settings {
  analysis::SequentialSetup setup;  // plan.max_instances is set per benchmark
  int max_instances = 0;            // a side; 0: twice each benchmark's instances
  double max_time_s = 0;            // the run's budget; 0: none
};

// The suite's until_decided with the command line's settings over it (0 / empty: not given).
Settings settings_for(const Suite& suite, int max_instances, double max_time_s, int round);

struct BenchmarkResult {
  analysis::SequentialOutcome outcome;
  std::size_t fixed = 0;      // the suite's own instances a side
  std::size_t measured = 0;   // instances a side measured (the smaller side)
  double pair_seconds = 0.0;  // mean time of an instance of A plus one of B
  // Time the fixed count would have taken beyond what was measured (negative: it took more).
  double saved_seconds() const;
};

struct SequentialRun {
  schedule::RunOutcome run;
  std::vector<BenchmarkResult> benchmarks;
  // The run's confidence split over its benchmarks: each decides at 1 - (1 - confidence) / K.
  std::size_t family = 1;
  double benchmark_confidence = 0.95;
};

using LookFn = std::function<void(const std::string& benchmark, const stats::Look& look)>;

// An error before anything runs when a benchmark has not exactly two variants or the plan
// cannot work.
Result<SequentialRun> run_until_decided(const Suite& suite, store::Store& store,
                                        schedule::RunOptions options, const Settings& settings,
                                        const LookFn& on_look = {},
                                        const schedule::ProgressFn& progress = {});

}  // namespace benchguard::sequential
