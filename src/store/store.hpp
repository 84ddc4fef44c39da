// The Store keeps every measurement. One interface, one implementation per backend
// (sqlite/, postgres/), chosen by the location (location.hpp, open_store). Writes are
// transactional: add_instance() commits an instance with all its iterations and metric values
// at once, so a killed run loses at most the instance in flight. A run whose writer is gone
// before it finished reads as `interrupted` (writer.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "store/location.hpp"

namespace benchguard::store {

struct RunSummary {
  int64_t id = 0;
  std::string uuid;
  int64_t started_at = 0;
  int64_t finished_at = 0;
  // As stored, except `interrupted` (and finished_at its last instance's end) for a run
  // still `running` whose writer is gone.
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

struct PrunedRun {
  std::string uuid;
  bool removed = false;  // left without measurements, so removed; otherwise it keeps others
};

struct PruneCounts {
  int64_t variants = 0;
  int64_t instances = 0;
  int64_t iterations = 0;
  int runs_emptied = 0;         // runs left without measurements and removed
  std::vector<PrunedRun> runs;  // every run the filter touched, oldest first
};

struct PruneFilter {
  std::string benchmark;  // exact name; required
  int64_t before = 0;     // unix ns; 0 = all time
  bool dry_run = false;   // count and list, then roll back: nothing is deleted
};

// History (docs/history.md): a change point `detect` found in a series.
struct ChangeRecord {
  std::string id;          // stable: from the series key and first_bad
  std::string series_key;  // "benchmark|variant|metric|machine"
  std::string benchmark;
  std::string variant;
  std::string metric;
  std::string machine;
  std::string method;
  std::string last_good;  // commit (or run uuid) of the last point before the change
  std::string first_bad;  // ... and of the first point after it
  int64_t first_bad_time = 0;
  int64_t index = 0;          // of first_bad in the series
  int64_t segment_start = 0;  // the segments compared: [segment_start, index), [index, segment_end)
  int64_t segment_end = 0;
  double before = 0;  // means of the points before and after
  double after = 0;
  double change = 0;  // after / before - 1, and its interval (NaN: unbounded)
  double change_lower = 0;
  double change_upper = 0;
  double p_value = 0;
  std::string kind;  // regression | improvement
  // suspected | confirmed | refuted (measured again) | alarm (failed the gate, kept open) |
  // undone (an alarm the newest commits undid; docs/history.md)
  std::string status;
  int64_t detected_at = 0;
};

// What detection last examined in a series, to re-examine only new points next time.
struct SeriesState {
  std::string series_key;
  std::string settings;  // method and options
  int64_t points = 0;
  std::string digest;  // of the points examined
  int64_t updated_at = 0;
};

struct AckRecord {
  std::string change_id;
  std::string reason;
  int64_t acked_at = 0;
};

// What list_runs gives beside each run's own row.
struct ListOptions {
  // RunSummary::benchmarks and instances (0 when off): kept per ended run (run_counts,
  // store/run_counts.hpp), counted from the rows of a running run (and of every run in a
  // database from before them: half a second on a history of 3,000,000 instances).
  bool counts = true;
};

// How load_run returns iterations.
struct LoadOptions {
  // Instances of many iterations by column (InstanceRecord::columns, read by IterationsView):
  // what analysis needs, in a fraction of the memory and time. Off: a record per iteration,
  // with its index and failure text (show, export, merge).
  bool columns = false;
  // Each variant's instances as one InstanceTable (VariantData::table, read through
  // for_each_instance), read a slice of the run at a time: the memory analysis of a run of
  // millions of instances needs (docs/store.md). Implies `columns`. A store may ignore it and
  // return records.
  bool instance_table = false;
  int64_t table_slice = 16384;  // instance ids read at a time for instance_table
};

// The series cache (docs/store.md): bytes analysis derived from a finished run, saved under
// a key that names their encoding and settings; opaque to the store.
struct SeriesCacheEntry {
  int64_t run_id = 0;
  std::string key;
  std::string data;
};

// A run as history reads it: with the cache entry under the key asked for, and then without
// its variants (`data.variants` empty: the entry holds what history needs of them); else the
// run in full, as load_run reads it, and no entry.
struct CachedRun {
  RunData data;
  std::optional<std::string> cache;
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
  // Begun runs not finished when the store closes are marked `interrupted`. `artifacts` are
  // added to the run's in the same transaction (what only the end of a run knows: a
  // sequential run's looks and why it stopped).
  virtual Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                            const KeyValues& artifacts) = 0;
  Status finish_run(int64_t run_id, int64_t finished_at, const std::string& status) {
    return finish_run(run_id, finished_at, status, {});
  }
  // Whole runs at once (importers): each run with its labels, artifacts, variants, instances,
  // iterations and metric values, all in one transaction, so a failure stores nothing.
  // `metrics` declares the unit and direction of metrics not known yet (a known metric keeps
  // its own). Returns the new run ids in order.
  virtual Result<std::vector<int64_t>> add_runs(const std::vector<RunData>& runs,
                                                const std::vector<MetricInfo>& metrics) = 0;
  // The unit and direction of metrics not known yet, before instances report them (a known
  // metric keeps its own): what a run of Google Benchmark binaries declares for their rates.
  virtual Status declare_metrics(const std::vector<MetricInfo>& metrics) = 0;

  // ---- reading back
  // Newest first: by started_at, then by id.
  Result<std::vector<RunSummary>> list_runs() { return list_runs(ListOptions{}); }
  virtual Result<std::vector<RunSummary>> list_runs(const ListOptions& options) = 0;
  // Changes whenever measurements are added or removed: the newest instance's and summary's
  // ids and how many variants there are, read without counting instances. With the runs'
  // ids and statuses (list_runs without counts) it tells serve when to read the store again.
  virtual Result<std::string> measurements_stamp() = 0;
  // ref: "latest" (or ""), a numeric id, a uuid or a unique uuid prefix.
  Result<RunData> load_run(const std::string& ref) { return load_run(ref, LoadOptions{}); }
  virtual Result<RunData> load_run(const std::string& ref, const LoadOptions& options) = 0;

  // ---- the series cache (docs/store.md)
  // The run of id `run_id` with its entry under `key`, read in one snapshot (CachedRun).
  virtual Result<CachedRun> load_cached_run(int64_t run_id, const std::string& key,
                                            const LoadOptions& options) = 0;
  // One transaction; an entry replaces the run's earlier one under the same key. Refused for
  // a run still running (its measurements may still grow). An entry goes with its run, and
  // prune removes those of the runs it touches.
  virtual Status save_series_cache(const std::vector<SeriesCacheEntry>& entries) = 0;
  // False for a store opened read-only (OpenOptions::read_only), which refuses every write.
  virtual bool writable() const = 0;

  // ---- history (docs/history.md)
  virtual Result<std::vector<SeriesState>> load_series_states() = 0;
  virtual Result<std::vector<ChangeRecord>> load_changes() = 0;  // by series, then index
  // One transaction: for each state, the series' earlier state and change points are
  // replaced; then `changes` (of those series) are stored.
  virtual Status save_detection(const std::vector<SeriesState>& states,
                                const std::vector<ChangeRecord>& changes) = 0;
  virtual Result<std::vector<AckRecord>> load_acks() = 0;
  // Stores an acknowledgement; true when new. Again for the same id: the first time stays, a
  // non-empty reason replaces the old one.
  virtual Result<bool> set_ack(const AckRecord& ack) = 0;
  // False when there was none.
  virtual Result<bool> remove_ack(const std::string& change_id) = 0;

  // ---- maintenance
  virtual Result<SchemaStatus> schema_status() = 0;
  virtual Result<MergeCounts> merge_from(const std::string& other_path) = 0;
  virtual Result<PruneCounts> prune(const PruneFilter& filter) = 0;

  // Whether a run other than `except_run`, from the host `hostname`, stored the artifact `key`
  // with `value`: what a note said once per database and machine asks before it is said again.
  virtual Result<bool> artifact_seen(const std::string& hostname, const std::string& key,
                                     const std::string& value, int64_t except_run) = 0;
};

struct OpenOptions {
  bool create = true;  // create the file if missing (not with read_only)
  // Read-write: apply pending migrations on open, commit what killed writers left in their
  // instance logs and mark their runs `interrupted`. Read-only: read a database older than
  // the readers understand, or one with such logs, through a migrated temporary copy (the
  // database itself stays untouched).
  bool migrate = true;
  // Open with SQLITE_OPEN_READONLY: nothing is written or created beside the file (no
  // migration, no replay, no -wal or -shm file), so reading works on a read-only file, in a
  // read-only directory or as another user. Writers then fail.
  bool read_only = false;
};

// Opens a store by location: a file path (SQLite) or a postgresql:// URL. Errors name the
// location (without a password) and what to do.
Result<std::unique_ptr<Store>> open_store(const std::string& location,
                                          const OpenOptions& options = {});

// Opens another connection to one database (for readers on several threads: a Store is used
// by one thread at a time).
using StoreOpener = std::function<Result<std::unique_ptr<Store>>()>;

// What `benchguard db check` found.
struct CheckProblem {
  std::string source;  // integrity | foreign_key | schema | invariant | checksum | read
  std::string text;    // "instances row 17: ends before it starts"
};
struct CheckReport {
  std::vector<CheckProblem> problems;
  std::vector<std::string> notes;  // not problems: a killed writer's log, runs without checksums
  int schema_version = 0;
  int64_t runs = 0;
  int64_t variants = 0;
  int64_t instances = 0;
  int64_t checksums_verified = 0;    // rows whose checksum matched
  int64_t checksums_absent = 0;      // rows written before checksums were kept
  int64_t series_cache_entries = 0;  // series cache rows (their checksums verified)
};

// Checks a database without writing to it (opened read-only): SQLite's integrity check and
// foreign keys, the store's invariants (counts, times, references, statuses) and the row
// checksums. An Error when the file cannot be read as a benchguard database at all.
Result<CheckReport> check_store(const std::string& location);

}  // namespace benchguard::store
