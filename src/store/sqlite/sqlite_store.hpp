// The SQLite Store: the statements and connection of the store core (store/store_core.hpp).
// One connection, used from one thread at a time. Its methods are spread over
// sqlite_store.cpp (writing), sqlite_read.cpp and sqlite_read_instances.cpp (reading),
// sqlite_history.cpp (change points and acknowledgements), sqlite_merge.cpp and
// sqlite_prune.cpp (maintenance).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "store/instance_log.hpp"
#include "store/sqlite/db.hpp"
#include "store/sqlite/open.hpp"
#include "store/store.hpp"
#include "store/store_core.hpp"
#include "store/writer.hpp"

namespace benchguard::store::sqlite {

class SqliteStore final : public StoreCore {
 public:
  // `location`: where the database lives, beside which its instance logs are (default: the
  // connection's path; differs when the connection reads a temporary copy). A read-only store
  // refuses every write.
  SqliteStore(std::unique_ptr<Db> db, int schema_version, std::string location = "",
              bool read_only = false);
  // Commits what add_instance_batched() still holds, marks the runs it began and did not
  // finish `interrupted`, and removes the instance log.
  ~SqliteStore() override;

  // The Store calls the core leaves to each backend, by the file that has them.
  // sqlite_store.cpp
  Result<int64_t> begin_run(const RunRecord& run) override;
  Status add_instance(int64_t variant_id, const InstanceRecord& instance) override;
  Status add_instance_batched(int64_t variant_id, const InstanceRecord& instance) override;
  Status flush() override;
  using Store::finish_run;
  Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                    const KeyValues& artifacts) override;
  Result<SchemaStatus> schema_status() override;
  // sqlite_read.cpp
  using Store::list_runs;
  Result<std::vector<RunSummary>> list_runs(const ListOptions& options) override;
  Result<std::string> measurements_stamp() override;
  // sqlite_series_cache.cpp
  Status save_series_cache(const std::vector<SeriesCacheEntry>& entries) override;
  // sqlite_history.cpp
  Status save_detection(const std::vector<SeriesState>& states,
                        const std::vector<ChangeRecord>& changes) override;
  Result<bool> set_ack(const AckRecord& ack) override;
  Result<bool> remove_ack(const std::string& change_id) override;
  // sqlite_merge.cpp, sqlite_prune.cpp
  Result<MergeCounts> merge_from(const std::string& other_path) override;
  Result<PruneCounts> prune(const PruneFilter& filter) override;

  // What a read-write open does before anything else: commits the instances that writers
  // killed before their flush left in their logs (instance_log.hpp), skipping any already
  // stored, marks the runs whose writer is gone `interrupted` (writer.hpp), and removes
  // those logs. Returns how many instances it added.
  Result<int64_t> recover();
  // Commits the instances of `logs` not stored yet; removes the logs when `remove` is set.
  Result<int64_t> replay(std::vector<OrphanLog>& logs, bool remove);
  // Logs this process holds as dead writers' (their writers count as gone), e.g. replayed
  // into a temporary copy.
  void set_held_logs(const std::vector<OrphanLog>& logs);
  // Keeps the temporary copy the connection reads until the connection has closed.
  void keep_temp(TempDatabase temp) { temp_.emplace(std::move(temp)); }

  // `benchguard db check` on this connection (sqlite_check.cpp): the file (SQLite's
  // integrity and foreign keys, the schema and its history, instance logs not committed), the
  // rows (types, invariants, every run read back, checksums), or both.
  enum class CheckParts { kAll, kFile, kRows };
  Result<CheckReport> check(CheckParts parts = CheckParts::kAll);

 private:
  // Writes need the latest schema; an unmigrated database (opened with migrate = false) gets
  // an Error telling how to migrate. Reads need kOldestReadableVersion (migrate.hpp).
  Status require_latest() const override;
  Status require_readable() const override;
  // History (sqlite_history.cpp) needs migration 0007; an Error saying how to add it.
  static constexpr int kHistoryVersion = 7;
  Status require_history() const override;
  Error error(const std::string& message) const override {
    return Error{db_->path() + ": " + message};
  }
  // The store core's transactions: BEGIN IMMEDIATE for a write; a deferred one for a read, or
  // the one already open.
  Status in_write_transaction(const std::function<Status()>& body) override {
    return in_transaction(Transaction::begin(*db_), body);
  }
  Status in_snapshot(const std::function<Status()>& body) override {
    return in_transaction(Transaction::begin_read(*db_), body);
  }
  Status each_row(const std::string& sql, const std::function<void(const SqlRow&)>& row) override;
  // A failed write says what it left undone only when the disk was full (disk_full_error).
  Error write_failed(const Error& e, const std::string& undone) override {
    return disk_full_error(e, undone);
  }

  // Row writers without their own transaction, shared by the public writers and merge.
  Result<int64_t> insert_run_row(const RunRecord& run, int64_t checksum) override;
  Status insert_run_values(const std::string& table, int64_t run_id,
                           const KeyValues& values) override;
  Status insert_writer(int64_t run_id, const std::string& run_uuid, const WriterIdentity& writer);
  Result<int64_t> benchmark_id(const std::string& name) override;
  Result<bool> has_variant(int64_t run_id, int64_t benchmark, const std::string& name) override;
  Result<std::optional<std::string>> run_uuid(int64_t run_id) override;
  Result<int64_t> insert_variant_row(int64_t run_id, int64_t benchmark,
                                     const VariantColumns& columns, int64_t checksum) override;
  Result<std::optional<std::string>> stored_variant_key(int64_t variant_id) override;
  Result<bool> has_run(const std::string& uuid) override;
  // Sets a run's status and end, with its checksum.
  Status update_run_end(int64_t run_id, int64_t finished_at, const std::string& status);
  // Turns what a killed writer left as `running` into `interrupted`: the runs whose writer is
  // gone, ended at their last stored instance (or now).
  Status mark_interrupted(const std::vector<std::string>& held_logs);
  // Runs still `running` whose writer is gone, with the end they get: (id, finished_at).
  Result<std::vector<std::pair<int64_t, int64_t>>> gone_runs(
      const std::vector<std::string>& held_logs, bool settled_only);
  // When a run's last stored instance ended (unix ns), or now.
  Result<int64_t> last_instance_end(int64_t run_id);
  // e, with `what` added when it was a full disk.
  Error disk_full_error(const Error& e, const std::string& what);
  Status insert_instance(int64_t variant_id, const InstanceRecord& instance) override;
  Status insert_summary(int64_t variant_id, const SummaryRecord& summary) override;
  Status keep_run_counts(int64_t run_id, const RunCounts& counts) override;
  // run_counts (0013, sqlite_run_counts.cpp): the row of an ended run counted from its rows
  // (none for a running one); the rows of the runs of `variant_ids` removed, as instances
  // were added to them (their runs are counted from their rows until counted again).
  Status count_run(int64_t run_id);
  Status uncount_variants(std::vector<int64_t> variant_ids);
  Result<int64_t> stored_metric_id(const std::string& name) override;
  Status insert_metric(const MetricInfo& metric) override;

  // Readers.
  Result<std::vector<std::pair<int64_t, std::string>>> find_runs(RunMatch match,
                                                                 const std::string& ref) override;
  Result<RunData> read_run(int64_t run_id, const LoadOptions& options) override;
  Result<RunRecord> read_run_record(int64_t run_id) override;
  Result<std::optional<std::string>> read_series_cache(int64_t run_id,
                                                       const std::string& key) override;
  // Appends the run's variants in insertion order and returns their ids in that order.
  Result<std::vector<int64_t>> read_variants(int64_t run_id, RunData& data);
  // Fills in instances, iterations and metric values of the variants read before.
  Status read_instances(int64_t run_id, const std::vector<int64_t>& variant_ids, RunData& data,
                        const LoadOptions& options = {});
  // Instances (and their iterations) of the run, of ids in `ids` when given, appended to
  // their variants' records; read_instances reads a run's by slices of ids for
  // LoadOptions::instance_table.
  Status read_instance_rows(int64_t run_id, const std::unordered_map<int64_t, size_t>& variant_pos,
                            const std::unordered_map<int64_t, std::string>& metric_names,
                            RunData& data, const LoadOptions& options,
                            std::optional<std::pair<int64_t, int64_t>> ids);
  // Every metric row as (id, metric).
  Result<std::vector<std::pair<int64_t, MetricInfo>>> read_metrics();
  // Status and end as readers see them: `interrupted` for a run whose writer is gone.
  Status apply_effective_status(RunRecord& run, int64_t run_id) override;
  Status apply_effective_status(std::vector<RunSummary>& runs);
  // RunSummary::benchmarks and instances of `runs` (position: run id -> index), each run's
  // rows counted: for schemas before run_counts (0013).
  Status count_runs(std::vector<RunSummary>& runs,
                    const std::unordered_map<int64_t, size_t>& position);

  // Declared before db_ so that the copy outlives the connection.
  std::optional<TempDatabase> temp_;
  std::unique_ptr<Db> db_;
  std::string location_;
  std::vector<std::string> held_logs_;
  // add_instance_batched(): instances logged but not committed yet, the log, and when the
  // oldest of them was logged (CLOCK_MONOTONIC ns).
  std::vector<LoggedInstance> pending_;
  std::optional<InstanceLog> log_;
  int64_t pending_since_ns_ = 0;
};

}  // namespace benchguard::store::sqlite
