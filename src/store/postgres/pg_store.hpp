// The PostgreSQL Store (docs/postgres.md): the statements and connection of the store core
// (store/store_core.hpp). One connection, used from one thread at a time. Writing is in
// pg_store.cpp, reading in pg_read.cpp, history, merge and prune in pg_maintenance.cpp,
// migrations in pg_migrate.cpp.
//
// What differs from the SQLite store: a run's writer is its connection, which holds the
// advisory lock (kRunLockClass, run id) for as long as it lives, so a run still `running`
// whose lock is free reads as `interrupted` (and the next read-write open marks it so);
// add_instance_batched() commits each instance at once (there is no instance log), so a
// killed writer loses at most the instance in flight.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/embedded.hpp"
#include "store/postgres/pg.hpp"
#include "store/store.hpp"
#include "store/store_core.hpp"
#include "store/writer.hpp"

namespace benchguard {
// src/store/postgres/migrations/*.sql, sorted by name (cmake/Embed.cmake).
const std::vector<EmbeddedFile>& postgres_migration_files();
}  // namespace benchguard

namespace benchguard::store::postgres {

// The first key of the advisory locks: runs' writers hold (kRunLockClass, run id), and
// migrations take (kRunLockClass - 1, 0) for their transaction. 'bg' 0x0001.
inline constexpr int32_t kRunLockClass = 0x62670001;
inline constexpr int32_t kMigrateLockClass = 0x62670000;

struct PgMigration {
  int version = 0;
  std::string name;
  std::string_view sql;
};
// The embedded migrations: well-formed names, increasing versions.
Result<std::vector<PgMigration>> pg_migrations();
int pg_latest_version();

// Opens a store at a postgresql:// URL (open_store() calls this).
Result<std::unique_ptr<Store>> open_pg_store(const std::string& url, const OpenOptions& options);
// check_store() of a postgresql:// URL, on a read-only connection.
Result<CheckReport> check_pg_store(const std::string& url);

class PgStore final : public StoreCore {
 public:
  PgStore(std::unique_ptr<Conn> conn, int schema_version, bool read_only);
  // Marks the runs begun here and not finished `interrupted`; closing the connection frees
  // their locks.
  ~PgStore() override;

  // The Store calls the core leaves to each backend, by the file that has them.
  // pg_store.cpp
  Result<int64_t> begin_run(const RunRecord& run) override;
  Status add_instance(int64_t variant_id, const InstanceRecord& instance) override;
  // Commits at once, like add_instance().
  Status add_instance_batched(int64_t variant_id, const InstanceRecord& instance) override;
  Status flush() override { return ok_status(); }
  using Store::finish_run;
  Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                    const KeyValues& artifacts) override;
  // pg_read.cpp
  using Store::list_runs;
  Result<std::vector<RunSummary>> list_runs(const ListOptions& options) override;
  Result<std::string> measurements_stamp() override;
  // pg_maintenance.cpp: history, merge, the series cache, prune
  Status save_detection(const std::vector<SeriesState>& states,
                        const std::vector<ChangeRecord>& changes) override;
  Result<bool> set_ack(const AckRecord& ack) override;
  Result<bool> remove_ack(const std::string& change_id) override;
  Result<MergeCounts> merge_from(const std::string& other_path) override;
  Status save_series_cache(const std::vector<SeriesCacheEntry>& entries) override;
  Result<PruneCounts> prune(const PruneFilter& filter) override;
  // pg_migrate.cpp
  Result<SchemaStatus> schema_status() override;

  // `benchguard db check` (pg_check.cpp).
  Result<CheckReport> check();

  // Marks `interrupted` the runs still `running` whose writer's lock is free (a read-write
  // open does this first).
  Status mark_interrupted();

 private:
  // Marks the runs begun here and still `running` interrupted (the destructor's work).
  void mark_unfinished_runs();
  Status require_latest() const override;
  Status require_readable() const override;
  Status require_history() const override { return require_readable(); }
  Error error(const std::string& message) const override { return conn_->error(message); }
  // The store core's transactions, a read's READ ONLY; a failed write says what it left undone.
  Status in_write_transaction(const std::function<Status()>& body) override {
    return in_transaction(Transaction::begin(*conn_), body);
  }
  Status in_snapshot(const std::function<Status()>& body) override {
    return in_transaction(Transaction::begin(*conn_, /*read_only=*/true), body);
  }
  Status each_row(const std::string& sql, const std::function<void(const SqlRow&)>& row) override;
  Error write_failed(const Error& e, const std::string& undone) override {
    return Error{e.message + "; " + undone};
  }

  // Row writers without their own transaction.
  Result<int64_t> insert_run_row(const RunRecord& run, int64_t checksum) override;
  Status insert_run_values(const std::string& table, int64_t run_id,
                           const KeyValues& values) override;
  Result<bool> has_run(const std::string& uuid) override;
  Result<bool> has_variant(int64_t run_id, int64_t benchmark, const std::string& name) override;
  Result<std::optional<std::string>> run_uuid(int64_t run_id) override;
  Result<int64_t> insert_variant_row(int64_t run_id, int64_t benchmark,
                                     const VariantColumns& columns, int64_t checksum) override;
  Result<std::optional<std::string>> stored_variant_key(int64_t variant_id) override;
  Status insert_instance(int64_t variant_id, const InstanceRecord& instance) override;
  Status insert_summary(int64_t variant_id, const SummaryRecord& summary) override;
  Status keep_run_counts(int64_t run_id, const RunCounts& counts) override;
  Result<int64_t> benchmark_id(const std::string& name) override;
  Result<int64_t> stored_metric_id(const std::string& name) override;
  Status insert_metric(const MetricInfo& metric) override;
  Status update_run_end(int64_t run_id, int64_t finished_at, const std::string& status);
  Result<int64_t> last_instance_end(int64_t run_id);
  // Runs still `running` with a recorded writer whose lock is free: (id, finished_at).
  Result<std::vector<std::pair<int64_t, int64_t>>> gone_runs();

  // Readers (pg_read.cpp).
  Result<std::vector<std::pair<int64_t, std::string>>> find_runs(RunMatch match,
                                                                 const std::string& ref) override;
  Result<RunRecord> read_run_record(int64_t run_id) override;
  Result<RunData> read_run(int64_t run_id, const LoadOptions& options) override;
  Status apply_effective_status(RunRecord& run, int64_t run_id) override;
  Result<std::optional<std::string>> read_series_cache(int64_t run_id,
                                                       const std::string& key) override;
  // The series cache (0011) is read where the table exists.
  static constexpr int kSeriesCacheVersion = 11;
  // Instances keep counts beyond instructions and cycles (0012).
  static constexpr int kInstanceCountsVersion = 12;
  // Ended runs keep their counts (0013, store/run_counts.hpp).
  static constexpr int kRunCountsVersion = 13;
  // The run_counts row of an ended run counted from its rows (none for a running one).
  Status count_run(int64_t run_id);
  Status read_instances(int64_t run_id, const std::vector<int64_t>& variant_ids, RunData& data,
                        const LoadOptions& options);

  std::unique_ptr<Conn> conn_;
};

}  // namespace benchguard::store::postgres
