// Writing runs: begin_run, add_variant, add_instance, finish_run, and the row writers that
// merge_from() reuses inside its own transaction.
#include "store/sqlite/sqlite_store.hpp"

#include <chrono>

#include "store/checksum.hpp"
#include "store/run_counts.hpp"
#include "store/sqlite/iteration_columns.hpp"
#include "store/sqlite/json_columns.hpp"
#include "store/sqlite/migrate.hpp"

namespace benchguard::store::sqlite {
namespace {

const char* direction_text(Direction d) {
  return d == Direction::kHigherIsBetter ? "higher" : "lower";
}

constexpr const char* kDiskFullRun =
    "the run keeps the instances stored before and is marked interrupted";

// A failure string is NULL when empty, so that "WHERE failure IS NULL" finds successes.
std::optional<std::string> null_if_empty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<Db> db, int schema_version, std::string location,
                         bool read_only)
    : db_(std::move(db)),
      schema_version_(schema_version),
      location_(location.empty() ? std::string(db_->path()) : std::move(location)),
      read_only_(read_only) {}

Status SqliteStore::require_latest() const {
  const int latest = latest_schema_version();
  if (schema_version_ == latest) return ok_status();
  return error("database schema version " + std::to_string(schema_version_) +
               " is older than this benchguard (" + std::to_string(latest) +
               "); run `benchguard db migrate`");
}

Status SqliteStore::require_readable() const {
  if (schema_version_ >= kOldestReadableVersion) return ok_status();
  return error("database schema version " + std::to_string(schema_version_) +
               " is older than this benchguard reads (" + std::to_string(kOldestReadableVersion) +
               "); run `benchguard db migrate --db " + db_->path() + "`");
}

Status SqliteStore::require_writable() const {
  if (!read_only_) return ok_status();
  return error("opened read-only; this command cannot write to the database");
}

Error SqliteStore::disk_full_error(const Error& e, const std::string& what) {
  if (!db_->take_disk_full()) return e;
  return Error{e.message + "; " + what};
}

Result<SchemaStatus> SqliteStore::schema_status() {
  return read_schema_status(*db_);
}

// ---------------------------------------------------------------- row writers

Result<int64_t> SqliteStore::insert_run(const RunRecord& run) {
  if (run.uuid.empty()) return error("cannot store a run without a uuid");
  BG_ASSIGN(Stmt exists, db_->prepare("SELECT 1 FROM runs WHERE uuid = ?"));
  BG_ASSIGN(bool taken, exists.bind(1, run.uuid).step());
  if (taken) return error("a run with uuid " + run.uuid + " is already stored");
  RunRecord stored = run;
  if (stored.status.empty()) stored.status = "running";
  BG_ASSIGN(Stmt insert,
            db_->prepare("INSERT INTO runs(uuid, started_at, finished_at, status, suite, "
                         "suite_path, hostname, git_commit, git_branch, git_dirty, "
                         "command_line, checksum) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run.uuid, run.started_at, run.finished_at, stored.status, run.suite,
                       run.suite_path, run.hostname, run.git_commit, run.git_branch, run.git_dirty,
                       run.command_line, run_checksum(stored))
             .run());
  const int64_t run_id = db_->last_insert_rowid();
  BG_ASSIGN(Stmt label, db_->prepare("INSERT INTO run_labels(run_id, key, value) VALUES(?,?,?)"));
  for (const auto& [k, v] : run.labels) BG_TRY(label.bind_all(run_id, k, v).run());
  BG_ASSIGN(Stmt artifact, db_->prepare("INSERT INTO artifacts(run_id, key, value) VALUES(?,?,?)"));
  for (const auto& [k, v] : run.artifacts) BG_TRY(artifact.bind_all(run_id, k, v).run());
  return run_id;
}

Result<int64_t> SqliteStore::benchmark_id(const std::string& name) {
  {
    BG_ASSIGN(Stmt insert, db_->prepare("INSERT OR IGNORE INTO benchmarks(name) VALUES(?)"));
    BG_TRY(insert.bind(1, name).run());
  }
  BG_ASSIGN(Stmt select, db_->prepare("SELECT id FROM benchmarks WHERE name = ?"));
  BG_ASSIGN(bool row, select.bind(1, name).step());
  if (!row) return error("benchmark '" + name + "' vanished while being stored");
  return select.int64(0);
}

Status SqliteStore::insert_metric(const MetricInfo& metric) {
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT OR IGNORE INTO metrics(name, unit, direction, "
                                      "checksum) VALUES(?,?,?,?)"));
  const std::string direction = direction_text(metric.direction);
  return insert
      .bind_all(metric.name, metric.unit, direction,
                metric_checksum(metric.name, metric.unit, direction))
      .run();
}

Result<int64_t> SqliteStore::metric_id(const std::string& name) {
  if (auto it = metric_ids_.find(name); it != metric_ids_.end()) return it->second;
  const MetricInfo* builtin = find_builtin_metric(name);
  BG_TRY(insert_metric(builtin ? *builtin : MetricInfo{name, "", Direction::kLowerIsBetter}));
  BG_ASSIGN(Stmt select, db_->prepare("SELECT id FROM metrics WHERE name = ?"));
  BG_ASSIGN(bool row, select.bind(1, name).step());
  if (!row) return error("metric '" + name + "' vanished while being stored");
  metric_ids_.emplace(name, select.int64(0));
  return select.int64(0);
}

Result<int64_t> SqliteStore::insert_variant(int64_t run_id, const VariantRecord& variant) {
  BG_ASSIGN(int64_t bench, benchmark_id(variant.benchmark));
  BG_ASSIGN(Stmt dup, db_->prepare("SELECT 1 FROM variants WHERE run_id = ? AND "
                                   "benchmark_id = ? AND name = ?"));
  BG_ASSIGN(bool taken, dup.bind_all(run_id, bench, variant.name).step());
  if (taken)
    return error("run " + std::to_string(run_id) + " already has variant '" + variant.name +
                 "' of benchmark '" + variant.benchmark + "'");
  VariantColumns columns{"",
                         variant.benchmark,
                         variant.name,
                         command_to_json(variant.command),
                         key_values_to_json(variant.params),
                         key_values_to_json(variant.env),
                         variant.config_json};
  {
    BG_ASSIGN(Stmt uuid, db_->prepare("SELECT uuid FROM runs WHERE id = ?"));
    BG_ASSIGN(bool found, uuid.bind(1, run_id).step());
    if (!found) return error("no run with id " + std::to_string(run_id));
    columns.run_uuid = uuid.text(0);
  }
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT INTO variants(run_id, benchmark_id, name, command, "
                                      "params, env, config_json, checksum) "
                                      "VALUES(?,?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run_id, bench, columns.name, columns.command, columns.params, columns.env,
                       columns.config_json, variant_checksum(columns))
             .run());
  const int64_t id = db_->last_insert_rowid();
  variant_keys_[id] = variant_key(columns.run_uuid, variant.benchmark, variant.name);
  return id;
}

Result<std::string> SqliteStore::variant_key_of(int64_t variant_id) {
  if (auto it = variant_keys_.find(variant_id); it != variant_keys_.end()) return it->second;
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT r.uuid, b.name, v.name FROM variants v JOIN runs r ON "
                                    "r.id = v.run_id JOIN benchmarks b ON b.id = v.benchmark_id "
                                    "WHERE v.id = ?"));
  BG_ASSIGN(bool found, stmt.bind(1, variant_id).step());
  if (!found) return error("no variant with id " + std::to_string(variant_id));
  std::string key = variant_key(stmt.text(0), stmt.text(1), stmt.text(2));
  variant_keys_.emplace(variant_id, key);
  return key;
}

Status SqliteStore::insert_instance(int64_t variant_id, const InstanceRecord& in) {
  BG_ASSIGN(const std::string key, variant_key_of(variant_id));
  BG_ASSIGN(
      Stmt instance,
      db_->prepare("INSERT INTO instances(variant_id, idx, schedule_order, start_ns, end_ns, "
                   "started_at, exit_code, signal, timed_out, failure, user_s, sys_s, "
                   "max_rss_bytes, mem_peak_bytes, mem_avg_bytes, mem_samples, instructions, "
                   "cycles, cpus, schedule_tag, schedule, timed_outside, checksum, "
                   "rss_floor_bytes) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(instance
             .bind_all(variant_id, in.index, in.order, in.start_ns, in.end_ns, in.started_at,
                       in.exit_code, in.signal, in.timed_out, null_if_empty(in.failure), in.user_s,
                       in.sys_s, in.max_rss_bytes, in.mem_peak_bytes, in.mem_avg_bytes,
                       in.mem_samples, in.instructions, in.cycles, in.cpus, in.schedule_tag,
                       in.schedule, in.timed_outside, instance_checksum(key, in),
                       in.rss_floor_bytes)
             .run());
  const int64_t instance_id = db_->last_insert_rowid();
  if (!in.counts.empty()) {
    BG_ASSIGN(Stmt counts, db_->prepare("INSERT INTO instance_counts(instance_id, metric_id, "
                                        "position, value) VALUES(?,?,?,?)"));
    for (std::size_t k = 0; k < in.counts.size(); ++k) {
      BG_ASSIGN(int64_t metric, metric_id(in.counts[k].first));
      BG_TRY(
          counts.bind_all(instance_id, metric, static_cast<int64_t>(k), in.counts[k].second).run());
    }
  }

  // Timed from outside: the one iteration is rebuilt from the instance's columns on reading.
  if (in.timed_outside && in.iterations.size() == 1 && is_outside_iteration(in, in.iterations[0]))
    return ok_status();

  if (in.iterations.empty()) return ok_status();
  // Timed from outside: the metrics are the instance's columns (outside_metrics).
  BG_ASSIGN(PackedIterations packed,
            pack_iterations(in.iterations, in.index, /*with_metrics=*/!in.timed_outside));
  BG_ASSIGN(Stmt block, db_->prepare("INSERT INTO iteration_blocks(instance_id, count, idx, "
                                     "start_ns, end_ns, flags, failures) VALUES(?,?,?,?,?,?,?)"));
  BG_TRY(block
             .bind_all(instance_id, packed.count, blob_or_null(packed.idx), Blob{packed.start_ns},
                       Blob{packed.end_ns}, blob_or_null(packed.flags), packed.failures)
             .run());
  BG_ASSIGN(Stmt values, db_->prepare("INSERT INTO iteration_values(instance_id, metric_id, "
                                      "present, data) VALUES(?,?,?,?)"));
  for (const auto& m : packed.metrics) {
    BG_ASSIGN(int64_t metric, metric_id(m.name));
    BG_TRY(values.bind_all(instance_id, metric, blob_or_null(m.present), Blob{m.data}).run());
  }
  return ok_status();
}

Status SqliteStore::insert_summary(int64_t variant_id, const SummaryRecord& s) {
  BG_ASSIGN(const std::string key, variant_key_of(variant_id));
  BG_ASSIGN(int64_t metric, metric_id(s.metric));
  BG_ASSIGN(Stmt dup, db_->prepare("SELECT 1 FROM summaries WHERE variant_id = ? AND "
                                   "metric_id = ?"));
  BG_ASSIGN(bool taken, dup.bind_all(variant_id, metric).step());
  if (taken) return error("a variant reports a summary of metric '" + s.metric + "' twice");
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT INTO summaries(variant_id, metric_id, count, mean, "
                                      "stddev, median, min, max, checksum) "
                                      "VALUES(?,?,?,?,?,?,?,?,?)"));
  return insert
      .bind_all(variant_id, metric, s.count, s.mean, s.stddev, s.median, s.min, s.max,
                summary_checksum(key, s))
      .run();
}

Result<int64_t> SqliteStore::insert_run_data(const RunData& data) {
  BG_ASSIGN(int64_t run_id, insert_run(data.run));
  for (const auto& v : data.variants) {
    BG_ASSIGN(int64_t variant_id, insert_variant(run_id, v.variant));
    for (const auto& instance : v.instances) BG_TRY(insert_instance(variant_id, instance));
    for (const auto& summary : v.summaries) BG_TRY(insert_summary(variant_id, summary));
  }
  if (schema_version_ >= kRunCountsVersion && data.run.status != "running") {
    const RunCounts counts = run_counts_of(data);
    BG_ASSIGN(Stmt stmt, db_->prepare("INSERT INTO run_counts(run_id, benchmarks, instances) "
                                      "VALUES(?,?,?)"));
    BG_TRY(stmt.bind_all(run_id, counts.benchmarks, counts.instances).run());
  }
  return run_id;
}

// ---------------------------------------------------------------- public writers

Result<int64_t> SqliteStore::begin_run(const RunRecord& run) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());
  // The instance log's lock tells readers that this writer lives (writer.hpp). Where no log
  // can be made, the process id and start time alone tell it.
  if (!log_.has_value()) {
    if (auto log = InstanceLog::create(location_); log.ok()) log_.emplace(std::move(log.value()));
  }
  WriterIdentity writer = this_writer();
  const std::string prefix = location_ + ".pending-";
  if (log_.has_value() && log_->path().starts_with(prefix))
    writer.lock = log_->path().substr(prefix.size());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  BG_ASSIGN(int64_t run_id, insert_run(run));
  BG_TRY(insert_writer(run_id, run.uuid, writer));
  BG_TRY(txn.commit());
  own_runs_.push_back(run_id);
  return run_id;
}

Result<int64_t> SqliteStore::add_variant(int64_t run_id, const VariantRecord& variant) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  BG_ASSIGN(Stmt run, db_->prepare("SELECT 1 FROM runs WHERE id = ?"));
  BG_ASSIGN(bool found, run.bind(1, run_id).step());
  if (!found) return error("no run with id " + std::to_string(run_id));
  BG_ASSIGN(int64_t variant_id, insert_variant(run_id, variant));
  BG_TRY(txn.commit());
  return variant_id;
}

Status SqliteStore::add_instance(int64_t variant_id, const InstanceRecord& instance) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());  // instances are stored in the order they were given
  auto written = [&]() -> Status {
    BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
    if (auto s = insert_instance(variant_id, instance); !s.ok()) {
      // The foreign key failure alone would not say which id was wrong.
      BG_ASSIGN(Stmt variant, db_->prepare("SELECT 1 FROM variants WHERE id = ?"));
      BG_ASSIGN(bool found, variant.bind(1, variant_id).step());
      if (!found) return error("no variant with id " + std::to_string(variant_id));
      return s;
    }
    BG_TRY(uncount_variants({variant_id}));
    return txn.commit();
  }();
  if (!written.ok()) {
    clear_caches();  // a metric created in the rollback is gone
    return disk_full_error(written.error(), kDiskFullRun);
  }
  return written;
}

Status SqliteStore::declare_metrics(const std::vector<MetricInfo>& metrics) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  for (const auto& m : metrics) BG_TRY(insert_metric(m));
  return txn.commit();
}

Result<std::vector<int64_t>> SqliteStore::add_runs(const std::vector<RunData>& runs,
                                                   const std::vector<MetricInfo>& metrics) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());
  std::vector<int64_t> ids;
  auto written = [&]() -> Status {
    BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
    for (const auto& m : metrics) BG_TRY(insert_metric(m));
    for (const auto& data : runs) {
      BG_ASSIGN(int64_t id, insert_run_data(data));
      ids.push_back(id);
    }
    return txn.commit();
  }();
  if (!written.ok()) {
    clear_caches();  // ids created in the rolled-back transaction are gone
    return disk_full_error(written.error(), "none of the runs was stored");
  }
  return ids;
}

Status SqliteStore::finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                               const KeyValues& artifacts) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  if (!artifacts.empty()) {
    BG_ASSIGN(Stmt artifact,
              db_->prepare("INSERT INTO artifacts(run_id, key, value) VALUES(?,?,?)"));
    for (const auto& [k, v] : artifacts) BG_TRY(artifact.bind_all(run_id, k, v).run());
  }
  BG_TRY(update_run_end(run_id, finished_at, status));
  return txn.commit();
}

// ---------------------------------------------------------------- batched instances

namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SqliteStore::~SqliteStore() {
  if (read_only_) return;
  // A log whose instances could not be committed stays for the next open to replay.
  const bool flushed = flush().ok();
  // Runs begun here and never finished (an error ended the writer): their writer is going.
  // Where this fails too (a full disk), readers judge them by the log's lock.
  for (int64_t run_id : own_runs_) {
    auto marked = [&]() -> Status {
      auto running = [&]() -> Result<bool> {
        BG_ASSIGN(Stmt still,
                  db_->prepare("SELECT 1 FROM runs WHERE id = ? AND status = 'running'"));
        return still.bind(1, run_id).step();
      };
      BG_ASSIGN(bool unfinished, running());
      if (!unfinished) return ok_status();  // the usual case: no write lock taken
      BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
      BG_ASSIGN(unfinished, running());
      if (!unfinished) return ok_status();
      BG_ASSIGN(int64_t end, last_instance_end(run_id));
      BG_TRY(update_run_end(run_id, end, "interrupted"));
      return txn.commit();
    }();
    (void)marked;
  }
  if (flushed && log_.has_value()) log_->remove();
}

Status SqliteStore::add_instance_batched(int64_t variant_id, const InstanceRecord& instance) {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  if (!log_.has_value()) {
    auto log = InstanceLog::create(location_);
    // Where no log can be made, each instance gets its own transaction.
    if (!log.ok()) return add_instance(variant_id, instance);
    log_.emplace(std::move(log.value()));
  }
  if (auto appended = log_->append(variant_id, instance); !appended.ok())
    return Error{appended.error().message +
                 (appended.error().message.find(": disk full:") != std::string::npos
                      ? std::string("; ") + kDiskFullRun
                      : std::string())};
  const int64_t now = steady_ns();
  if (pending_.empty()) pending_since_ns_ = now;
  pending_.emplace_back(variant_id, instance);
  if (pending_.size() >= kBatchSize || now - pending_since_ns_ >= kBatchAgeNs) return flush();
  return ok_status();
}

Status SqliteStore::flush() {
  if (pending_.empty()) return ok_status();
  auto written = [&]() -> Status {
    BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
    std::vector<int64_t> variants;
    variants.reserve(pending_.size());
    for (const auto& [variant_id, instance] : pending_) {
      BG_TRY(insert_instance(variant_id, instance));
      variants.push_back(variant_id);
    }
    BG_TRY(uncount_variants(std::move(variants)));
    return txn.commit();
  }();
  if (!written.ok()) {
    clear_caches();  // a metric created in the rollback is gone
    return disk_full_error(written.error(), kDiskFullRun);
  }
  pending_.clear();
  return log_->clear();
}

Result<int64_t> SqliteStore::replay(std::vector<OrphanLog>& logs, bool remove) {
  int64_t added = 0;
  for (auto& log : logs) {
    BG_ASSIGN(std::vector<LoggedInstance> logged, log.read());
    if (!logged.empty()) {
      BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
      std::vector<int64_t> variants;
      for (const auto& [variant_id, instance] : logged) {
        // A flush may have committed it before its writer was killed; a prune may have
        // deleted its variant since.
        BG_ASSIGN(Stmt variant, db_->prepare("SELECT 1 FROM variants WHERE id = ?"));
        BG_ASSIGN(bool has_variant, variant.bind(1, variant_id).step());
        if (!has_variant) continue;
        BG_ASSIGN(Stmt stored, db_->prepare("SELECT 1 FROM instances WHERE variant_id = ? AND "
                                            "idx = ? AND schedule_order = ?"));
        BG_ASSIGN(bool present, stored.bind_all(variant_id, instance.index, instance.order).step());
        if (present) continue;
        if (auto s = insert_instance(variant_id, instance); !s.ok()) {
          clear_caches();
          return Error{s.error().message + " (replaying " + log.path() + ")"};
        }
        variants.push_back(variant_id);
        ++added;
      }
      BG_TRY(uncount_variants(std::move(variants)));
      BG_TRY(txn.commit());
    }
    if (remove) log.remove();
  }
  return added;
}

}  // namespace benchguard::store::sqlite
