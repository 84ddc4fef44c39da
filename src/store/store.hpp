// The Store keeps every measurement. One interface, one implementation per backend
// (sqlite/ now; postgres/ later). Writes are transactional: add_instance() commits an
// instance with all its iterations and metric values at once, so a killed run loses at
// most the instance in flight.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::store {

struct RunSummary {
  int64_t id = 0;
  std::string uuid;
  int64_t started_at = 0;
  int64_t finished_at = 0;
  std::string status;
  std::string suite;
  std::string hostname;
  std::string git_commit;
  std::string git_branch;
  int benchmarks = 0;  // distinct benchmarks measured
  int instances = 0;
  KeyValues labels;
};

struct SchemaStatus {
  int current = 0;                                   // version of the database
  int latest = 0;                                    // newest version this binary knows
  std::vector<std::pair<int, std::string>> applied;  // (version, name)
  std::vector<std::pair<int, std::string>> pending;
};

struct MergeCounts {
  int runs_added = 0;
  int runs_skipped = 0;  // already present (same uuid)
  int64_t instances_added = 0;
};

struct PruneCounts {
  int64_t variants = 0;
  int64_t instances = 0;
  int64_t iterations = 0;
  int runs_emptied = 0;  // runs left without measurements and removed
};

struct PruneFilter {
  std::string benchmark;  // exact name; required
  int64_t before = 0;     // unix ns; 0 = all time
};

class Store {
 public:
  virtual ~Store() = default;

  // ---- writing a run
  // Inserts the run (status "running") and returns its id.
  virtual Result<int64_t> begin_run(const RunRecord& run) = 0;
  // Declares a benchmark variant of a run; returns the variant id.
  virtual Result<int64_t> add_variant(int64_t run_id, const VariantRecord& variant) = 0;
  // One transaction: the instance, its iterations and their metric values.
  virtual Status add_instance(int64_t variant_id, const InstanceRecord& instance) = 0;
  // For instances so short that a commit each would weigh on the harness: the instance is
  // appended to the store's instance log with one write (as durable against a killed process
  // as a commit; store/instance_log.hpp) and committed with the ones after it: at the latest
  // kBatchAge later, at kBatchSize instances, at any other write, flush() or when the store
  // closes. Opening a store for writing commits what a killed writer left in its log.
  virtual Status add_instance_batched(int64_t variant_id, const InstanceRecord& instance) = 0;
  // Commits the instances add_instance_batched() holds, in one transaction.
  virtual Status flush() = 0;
  static constexpr int64_t kBatchAgeNs = 200'000'000;
  static constexpr size_t kBatchSize = 1000;
  virtual Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status) = 0;
  // Whole runs at once (importers): each run with its labels, artifacts, variants, instances,
  // iterations and metric values, all in one transaction, so a failure stores nothing.
  // `metrics` declares the unit and direction of metrics not known yet (a known metric keeps
  // its own). Returns the new run ids in order.
  virtual Result<std::vector<int64_t>> add_runs(const std::vector<RunData>& runs,
                                                const std::vector<MetricInfo>& metrics) = 0;

  // ---- reading back
  // Newest first: by started_at, then by id.
  virtual Result<std::vector<RunSummary>> list_runs() = 0;
  // ref: "latest" (or ""), a numeric id, a uuid or a unique uuid prefix.
  virtual Result<RunData> load_run(const std::string& ref) = 0;

  // ---- maintenance
  virtual Result<SchemaStatus> schema_status() = 0;
  virtual Result<MergeCounts> merge_from(const std::string& other_path) = 0;
  virtual Result<PruneCounts> prune(const PruneFilter& filter) = 0;
};

struct OpenOptions {
  bool create = true;   // create the file if missing
  bool migrate = true;  // apply pending migrations on open, and replay instance logs
};

// Opens a store by location: a file path (SQLite). Errors name the path and what to do.
Result<std::unique_ptr<Store>> open_store(const std::string& location,
                                          const OpenOptions& options = {});

}  // namespace benchguard::store
