// The SQLite Store. One connection, used from one thread at a time. Its methods are spread
// over sqlite_store.cpp (writing), sqlite_read.cpp and sqlite_read_instances.cpp
// (reading), sqlite_merge.cpp and
// sqlite_prune.cpp (maintenance).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "store/instance_log.hpp"
#include "store/sqlite/db.hpp"
#include "store/store.hpp"

namespace benchguard::store::sqlite {

class SqliteStore final : public Store {
 public:
  explicit SqliteStore(std::unique_ptr<Db> db, int schema_version)
      : db_(std::move(db)), schema_version_(schema_version) {}
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;
  // Commits what add_instance_batched() still holds and removes the instance log.
  ~SqliteStore() override;

  Result<int64_t> begin_run(const RunRecord& run) override;
  Result<int64_t> add_variant(int64_t run_id, const VariantRecord& variant) override;
  Status add_instance(int64_t variant_id, const InstanceRecord& instance) override;
  Status add_instance_batched(int64_t variant_id, const InstanceRecord& instance) override;
  Status flush() override;
  Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status) override;
  Result<std::vector<int64_t>> add_runs(const std::vector<RunData>& runs,
                                        const std::vector<MetricInfo>& metrics) override;

  Result<std::vector<RunSummary>> list_runs() override;
  Result<RunData> load_run(const std::string& ref) override;

  Result<SchemaStatus> schema_status() override;
  Result<MergeCounts> merge_from(const std::string& other_path) override;
  Result<PruneCounts> prune(const PruneFilter& filter) override;

  // Commits the instances that writers killed before their flush left in their logs
  // (instance_log.hpp), skipping any already stored, and removes those logs. Returns how
  // many instances it added.
  Result<int64_t> replay_instance_logs();
  // Commits the instances of `logs` not stored yet; removes the logs when `remove` is set.
  Result<int64_t> replay(std::vector<OrphanLog>& logs, bool remove);

 private:
  // Data operations need the latest schema; an unmigrated database (opened with
  // migrate = false) gets an Error telling how to migrate.
  Status require_latest() const;
  Error error(const std::string& message) const { return Error{db_->path() + ": " + message}; }

  // Row writers without their own transaction, shared by the public writers and merge.
  Result<int64_t> insert_run(const RunRecord& run);
  Result<int64_t> insert_variant(int64_t run_id, const VariantRecord& variant);
  Status insert_instance(int64_t variant_id, const InstanceRecord& instance);
  // A run with everything below it; returns its id.
  Result<int64_t> insert_run_data(const RunData& data);
  Result<int64_t> benchmark_id(const std::string& name);
  Result<int64_t> metric_id(const std::string& name);
  Status insert_metric(const MetricInfo& metric);

  // Readers.
  Result<int64_t> resolve_ref(const std::string& ref);
  Result<RunData> read_run(int64_t run_id);
  // Appends the run's variants in insertion order and returns their ids in that order.
  Result<std::vector<int64_t>> read_variants(int64_t run_id, RunData& data);
  // Fills in instances, iterations and metric values of the variants read before.
  Status read_instances(int64_t run_id, const std::vector<int64_t>& variant_ids, RunData& data);
  // Every metric row as (id, metric).
  Result<std::vector<std::pair<int64_t, MetricInfo>>> read_metrics();

  std::unique_ptr<Db> db_;
  int schema_version_;
  // add_instance_batched(): instances logged but not committed yet, the log, and when the
  // oldest of them was logged (CLOCK_MONOTONIC ns).
  std::vector<LoggedInstance> pending_;
  std::optional<InstanceLog> log_;
  int64_t pending_since_ns_ = 0;
  // Metric ids by name: metric rows are never deleted, so ids stay valid; cleared when a
  // transaction that may have created one rolls back.
  std::unordered_map<std::string, int64_t> metric_ids_;
};

}  // namespace benchguard::store::sqlite
