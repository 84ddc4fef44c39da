// Sequential A/B over stored data: the look a `run --until-decided` takes after each round, and
// the record it leaves with the run so that `compare` judges the run by the same rule.
//
// A benchmark's A is its first variant and B its second. The decision is the one of
// stats/sequential.hpp on one metric (wall time unless told), with the burn-in policy of
// `compare`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/samples.hpp"
#include "core/model.hpp"
#include "core/result.hpp"
#include "stats/sequential.hpp"

namespace benchguard::analysis {

struct SequentialSetup {
  stats::SequentialPlan plan;  // max_instances: the default; per benchmark in the record
  stats::VerdictOptions verdict;
  BurnInPolicy burn_in;
  std::string metric = "wall_time";
};

// Where one benchmark of a sequential run ended.
struct SequentialOutcome {
  std::string benchmark;
  std::size_t max_instances = 0;   // its plan's budget
  stats::Look look;                // the look that decided (or the last one taken)
  std::vector<stats::Look> looks;  // every look taken, in order
  bool out_of_time = false;        // the time budget ended it
};

// The benchmark's two variants in `run`, or nullptrs when it has fewer than two.
std::pair<const VariantData*, const VariantData*> ab_variants(const RunData& run,
                                                              const std::string& benchmark);

// A and B as a look sees them: the setup's metric, burn-in left out, and its direction.
struct SequentialData {
  stats::Hierarchical a, b;
  Direction direction = Direction::kLowerIsBetter;
  // Instances a side with a usable value (the smaller side).
  std::size_t instances() const { return std::min(a.instances(), b.instances()); }
};
SequentialData sequential_data(const VariantData& a, const VariantData& b,
                               const SequentialSetup& setup);

// Look `look` (1-based) of `design` at the data: the first design.sizes[look - 1] instances
// of each side.
stats::Look look_at(const SequentialData& data, const stats::SequentialDesign& design,
                    std::size_t look, const SequentialSetup& setup, bool last);

// The record stored with the run as the artifact "sequential" (JSON), and read back: the plan
// (setup.plan.confidence is the run's, split over `family` benchmarks into
// `benchmark_confidence` each), the metric, and per benchmark its looks and how it ended.
inline constexpr const char* kSequentialArtifact = "sequential";
std::string sequential_record(const SequentialSetup& setup,
                              const std::vector<SequentialOutcome>& outcomes,
                              std::size_t family = 1, double benchmark_confidence = 0.95);
struct SequentialRecord {
  SequentialSetup setup;
  std::size_t family = 1;  // 1 in records of runs before the split
  double benchmark_confidence = 0.95;
  std::vector<SequentialOutcome> outcomes;
  const SequentialOutcome* find(const std::string& benchmark) const;
};
// nullopt when the run was not sequential; an error when its record cannot be read.
Result<std::optional<SequentialRecord>> read_sequential_record(const RunRecord& run);

}  // namespace benchguard::analysis
