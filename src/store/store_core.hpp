// The core both SQL stores are built on (sqlite/, postgres/): what a Store does that does not
// depend on the SQL dialect. The shape of each call (a write refused on a read-only store, in
// one transaction, its ids cached only while they hold; a read in one snapshot), run
// references with their errors, a run written with everything below it, a merge's runs added
// oldest first, the metrics a store declares, and a run still `running` whose writer is gone
// read as `interrupted`. A backend gives its connection and the statements of its dialect
// through the hooks below; the rows both read and write are in sql_rows.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "store/checksum.hpp"
#include "store/run_counts.hpp"
#include "store/store.hpp"

namespace benchguard::store {

// Now, in unix ns: how rows record a time.
int64_t now_ns();

// Runs whose writer is gone, with the end they get: (id, finished_at).
using GoneRuns = std::vector<std::pair<int64_t, int64_t>>;
// `runs` (or `run`, of id `run_id`) as readers see them: a run still `running` whose writer
// is gone is `interrupted`, ended at the end `gone` gives it.
void mark_gone(std::vector<RunSummary>& runs, const GoneRuns& gone);
void mark_gone(RunRecord& run, int64_t run_id, const GoneRuns& gone);

// Completes what the store keeps of instances timed from outside (docs/store.md): the one
// iteration rebuilt from the instance's columns, or its metrics where the row has none.
void complete_outside_iterations(std::vector<InstanceRecord>& instances);

// A result row as the store core reads one (the templates of sql_rows.hpp read it too).
class SqlRow {
 public:
  virtual int64_t int64(int col) const = 0;
  virtual double real(int col) const = 0;  // NULL as the backend reads it
  virtual std::string text(int col) const = 0;
  virtual bool is_null(int col) const = 0;

 protected:
  ~SqlRow() = default;
};

// A backend's row (anything with those four calls) as a SqlRow.
template <class Row>
class SqlRowOf final : public SqlRow {
 public:
  explicit SqlRowOf(const Row& row) : row_(row) {}
  int64_t int64(int col) const override { return row_.int64(col); }
  double real(int col) const override { return row_.real(col); }
  std::string text(int col) const override { return row_.text(col); }
  bool is_null(int col) const override { return row_.is_null(col); }

 private:
  const Row& row_;
};

class StoreCore : public Store {
 public:
  StoreCore(const StoreCore&) = delete;
  StoreCore& operator=(const StoreCore&) = delete;
  Result<std::vector<int64_t>> add_runs(const std::vector<RunData>& runs,
                                        const std::vector<MetricInfo>& metrics) final;
  Status declare_metrics(const std::vector<MetricInfo>& metrics) final;
  Result<int64_t> add_variant(int64_t run_id, const VariantRecord& variant) final;
  using Store::load_run;
  Result<RunData> load_run(const std::string& ref, const LoadOptions& options) final;
  Result<CachedRun> load_cached_run(int64_t run_id, const std::string& key,
                                    const LoadOptions& options) final;
  bool writable() const final { return !read_only_; }

  Result<std::vector<SeriesState>> load_series_states() final;
  Result<std::vector<ChangeRecord>> load_changes() final;
  Result<std::vector<AckRecord>> load_acks() final;
  Result<bool> artifact_seen(const std::string& hostname, const std::string& key,
                             const std::string& value, int64_t except_run) final;

 protected:
  StoreCore(int schema_version, bool read_only)
      : schema_version_(schema_version), read_only_(read_only) {}

  // ---- the shape of a call
  // An Error naming the database: "WHERE: message".
  virtual Error error(const std::string& message) const = 0;
  // Writes refuse a read-only store.
  Status require_writable() const;
  // Writes need the latest schema; an Error telling how to migrate.
  virtual Status require_latest() const = 0;
  // What a store whose schema is not the one asked for says: "database schema version N IS
  // (OTHER); run `benchguard db migrate MIGRATE_ARGS`".
  Error schema_error(const std::string& is, int other, const std::string& migrate_args = "") const;
  // What every write does first: require_writable, require_latest, and what the store holds
  // back committed (flush: SQLite's batched instances).
  Status before_write();
  // `body` in one write transaction: committed when it succeeds, rolled back when it fails.
  virtual Status in_write_transaction(const std::function<Status()>& body) = 0;
  // The error of a write whose transaction was rolled back, with `undone` (what it did not
  // store) said where the backend says it.
  virtual Error write_failed(const Error& e, const std::string& undone) = 0;
  // Reads need a schema the readers understand; history (docs/history.md) its tables.
  virtual Status require_readable() const = 0;
  virtual Status require_history() const = 0;
  // Each row of `sql`, a query without parameters, handed to `row` while it is current.
  virtual Status each_row(const std::string& sql,
                          const std::function<void(const SqlRow&)>& row) = 0;
  // `body` in one read snapshot: every query it makes sees the same database.
  virtual Status in_snapshot(const std::function<Status()>& body) = 0;

  // ---- rows written, within the caller's transaction
  // The runs row of `run` (its status set), its checksum given; returns its id.
  virtual Result<int64_t> insert_run_row(const RunRecord& run, int64_t checksum) = 0;
  // Rows (run_id, key, value) of `table` (run_labels, artifacts), in order.
  virtual Status insert_run_values(const std::string& table, int64_t run_id,
                                   const KeyValues& values) = 0;
  virtual Status insert_instance(int64_t variant_id, const InstanceRecord& instance) = 0;
  virtual Status insert_summary(int64_t variant_id, const SummaryRecord& summary) = 0;
  // The metric's row, unless one of its name is stored: a known metric keeps its own.
  virtual Status insert_metric(const MetricInfo& metric) = 0;
  // The id of benchmark `name`, its row added when missing.
  virtual Result<int64_t> benchmark_id(const std::string& name) = 0;
  // Whether run `run_id` has variant `name` of benchmark `benchmark`.
  virtual Result<bool> has_variant(int64_t run_id, int64_t benchmark, const std::string& name) = 0;
  // The uuid of run `run_id`; nullopt when there is none.
  virtual Result<std::optional<std::string>> run_uuid(int64_t run_id) = 0;
  // The variant's row, its checksum given; returns its id.
  virtual Result<int64_t> insert_variant_row(int64_t run_id, int64_t benchmark,
                                             const VariantColumns& columns, int64_t checksum) = 0;
  // The key of variant `variant_id` in instance checksums (variant_key of its run's uuid, its
  // benchmark and its name); nullopt when there is no such variant.
  virtual Result<std::optional<std::string>> stored_variant_key(int64_t variant_id) = 0;
  // The id of metric `name`, its row added when missing (as built in, or lower is better
  // without a unit).
  virtual Result<int64_t> stored_metric_id(const std::string& name) = 0;
  // An ended run added whole: its run_counts row (store/run_counts.hpp), where the schema
  // keeps them.
  virtual Status keep_run_counts(int64_t run_id, const RunCounts& counts) = 0;
  // Whether a run of this uuid is stored.
  virtual Result<bool> has_run(const std::string& uuid) = 0;

  // A run with its labels and artifacts, `running` unless it has a status; returns its id.
  Result<int64_t> insert_run(const RunRecord& run);
  // A variant and its key, cached for the instances' checksums (variant_key_of).
  Result<int64_t> insert_variant(int64_t run_id, const VariantRecord& variant);
  // A run with everything below it; returns its id.
  Result<int64_t> insert_run_data(const RunData& data);
  // The variant's key in instance checksums (checksum.hpp), cached by variant id.
  Result<std::string> variant_key_of(int64_t variant_id);
  // Metric ids by name, cached: metric rows are never deleted.
  Result<int64_t> metric_id(const std::string& name);
  // Ids cached from rows a rolled-back transaction may have created.
  void clear_caches() {
    metric_ids_.clear();
    variant_keys_.clear();
  }
  // The merge's one transaction (before_write done): `metrics` declared, then each of `runs`
  // (list_runs of the other store, newest first) added oldest first, as `read` reads it, unless
  // a run of its uuid is here already. Nothing is merged when it fails.
  Result<MergeCounts> merge_runs(const std::vector<MetricInfo>& metrics,
                                 const std::vector<RunSummary>& runs,
                                 const std::function<Result<RunData>(const RunSummary&)>& read);

  // ---- readers, within the caller's snapshot
  // Which runs a reference may name (resolve_ref): the newest, the one of an id, of a uuid, or
  // those whose uuid starts with the reference, case-insensitive (at most 4, by uuid). Each
  // as (id, uuid).
  enum class RunMatch { kNewest, kId, kUuid, kUuidPrefix };
  virtual Result<std::vector<std::pair<int64_t, std::string>>> find_runs(
      RunMatch match, const std::string& ref) = 0;
  // ref: "latest" (or ""), a numeric id, a uuid or a unique uuid prefix.
  Result<int64_t> resolve_ref(const std::string& ref);
  virtual Result<RunData> read_run(int64_t run_id, const LoadOptions& options) = 0;
  // The runs row as stored, with its labels and artifacts.
  virtual Result<RunRecord> read_run_record(int64_t run_id) = 0;
  // Status and end as readers see them: `interrupted` for a run whose writer is gone.
  virtual Status apply_effective_status(RunRecord& run, int64_t run_id) = 0;
  // The run's series cache entry under `key`, where the schema has the cache.
  virtual Result<std::optional<std::string>> read_series_cache(int64_t run_id,
                                                               const std::string& key) = 0;

  int schema_version_;
  bool read_only_;
  // Runs begun here: marked `interrupted` at close unless finished.
  std::vector<int64_t> own_runs_;
  // Variant keys of instance checksums by variant id; cleared with metric_ids_.
  std::unordered_map<int64_t, std::string> variant_keys_;
  // Metric ids by name; cleared when a transaction that may have created one rolls back.
  std::unordered_map<std::string, int64_t> metric_ids_;
};

}  // namespace benchguard::store
