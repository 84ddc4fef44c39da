// The PostgreSQL Store (docs/postgres.md). One connection, used from one thread at a time.
// Writing is in pg_store.cpp, reading in pg_read.cpp, history, merge and prune in
// pg_maintenance.cpp, migrations in pg_migrate.cpp.
//
// What differs from the SQLite store: a run's writer is its connection, which holds the
// advisory lock (kRunLockClass, run id) for as long as it lives, so a run still `running`
// whose lock is free reads as `interrupted` (and the next read-write open marks it so);
// add_instance_batched() commits each instance at once (there is no instance log), so a
// killed writer loses at most the instance in flight.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/embedded.hpp"
#include "store/postgres/pg.hpp"
#include "store/store.hpp"
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

class PgStore final : public Store {
 public:
  PgStore(std::unique_ptr<Conn> conn, int schema_version, bool read_only);
  PgStore(const PgStore&) = delete;
  PgStore& operator=(const PgStore&) = delete;
  // Marks the runs begun here and not finished `interrupted`; closing the connection frees
  // their locks.
  ~PgStore() override;

  Result<int64_t> begin_run(const RunRecord& run) override;
  Result<int64_t> add_variant(int64_t run_id, const VariantRecord& variant) override;
  Status add_instance(int64_t variant_id, const InstanceRecord& instance) override;
  // Commits at once, like add_instance().
  Status add_instance_batched(int64_t variant_id, const InstanceRecord& instance) override;
  Status flush() override { return ok_status(); }
  using Store::finish_run;
  Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                    const KeyValues& artifacts) override;
  Result<std::vector<int64_t>> add_runs(const std::vector<RunData>& runs,
                                        const std::vector<MetricInfo>& metrics) override;
  Status declare_metrics(const std::vector<MetricInfo>& metrics) override;

  using Store::list_runs;
  Result<std::vector<RunSummary>> list_runs(const ListOptions& options) override;
  Result<std::string> measurements_stamp() override;
  using Store::load_run;
  Result<RunData> load_run(const std::string& ref, const LoadOptions& options) override;

  Result<CachedRun> load_cached_run(int64_t run_id, const std::string& key,
                                    const LoadOptions& options) override;
  Status save_series_cache(const std::vector<SeriesCacheEntry>& entries) override;
  bool writable() const override { return !read_only_; }

  Result<std::vector<SeriesState>> load_series_states() override;
  Result<std::vector<ChangeRecord>> load_changes() override;
  Status save_detection(const std::vector<SeriesState>& states,
                        const std::vector<ChangeRecord>& changes) override;
  Result<std::vector<AckRecord>> load_acks() override;
  Result<bool> set_ack(const AckRecord& ack) override;
  Result<bool> remove_ack(const std::string& change_id) override;

  Result<SchemaStatus> schema_status() override;
  Result<MergeCounts> merge_from(const std::string& other_path) override;
  Result<PruneCounts> prune(const PruneFilter& filter) override;

  // `benchguard db check` (pg_check.cpp).
  Result<CheckReport> check();

  // Marks `interrupted` the runs still `running` whose writer's lock is free (a read-write
  // open does this first).
  Status mark_interrupted();

 private:
  // Marks the runs begun here and still `running` interrupted (the destructor's work).
  void mark_unfinished_runs();
  Status require_latest() const;
  Status require_readable() const;
  Status require_writable() const;
  Error error(const std::string& message) const { return conn_->error(message); }
  void clear_caches() {
    metric_ids_.clear();
    variant_keys_.clear();
  }

  // Row writers without their own transaction.
  Result<int64_t> insert_run(const RunRecord& run);
  Result<int64_t> insert_variant(int64_t run_id, const VariantRecord& variant);
  Result<std::string> variant_key_of(int64_t variant_id);
  Status insert_instance(int64_t variant_id, const InstanceRecord& instance);
  Status insert_summary(int64_t variant_id, const SummaryRecord& summary);
  Result<int64_t> insert_run_data(const RunData& data);
  Result<int64_t> benchmark_id(const std::string& name);
  Result<int64_t> metric_id(const std::string& name);
  Status insert_metric(const MetricInfo& metric);
  Status update_run_end(int64_t run_id, int64_t finished_at, const std::string& status);
  Result<int64_t> last_instance_end(int64_t run_id);
  // Runs still `running` with a recorded writer whose lock is free: (id, finished_at).
  Result<std::vector<std::pair<int64_t, int64_t>>> gone_runs();

  // Readers (pg_read.cpp).
  Result<int64_t> resolve_ref(const std::string& ref);
  Result<RunRecord> read_run_record(int64_t run_id);
  Result<RunData> read_run(int64_t run_id, const LoadOptions& options);
  // Status and end as readers see them: `interrupted` for a run whose writer is gone.
  Status apply_effective_status(RunRecord& run, int64_t run_id);
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
  int schema_version_;
  bool read_only_;
  std::vector<int64_t> own_runs_;
  std::unordered_map<int64_t, std::string> variant_keys_;
  std::unordered_map<std::string, int64_t> metric_ids_;
};

}  // namespace benchguard::store::postgres
