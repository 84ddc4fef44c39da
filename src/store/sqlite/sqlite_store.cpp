// Writing runs: begin_run, add_variant, add_instance, finish_run, and the row writers that
// merge_from() reuses inside its own transaction.
#include "store/sqlite/sqlite_store.hpp"

#include <chrono>

#include "store/checksum.hpp"
#include "store/run_counts.hpp"
#include "store/sql_rows.hpp"
#include "store/sqlite/iteration_columns.hpp"
#include "store/sqlite/migrate.hpp"

namespace benchguard::store::sqlite {
namespace {

constexpr const char* kDiskFullRun =
    "the run keeps the instances stored before and is marked interrupted";

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<Db> db, int schema_version, std::string location,
                         bool read_only)
    : StoreCore(schema_version, read_only),
      db_(std::move(db)),
      location_(location.empty() ? std::string(db_->path()) : std::move(location)) {}

Status SqliteStore::require_latest() const {
  if (schema_version_ == latest_schema_version()) return ok_status();
  return schema_error("is older than this benchguard", latest_schema_version());
}

Status SqliteStore::require_readable() const {
  if (schema_version_ >= kOldestReadableVersion) return ok_status();
  return schema_error("is older than this benchguard reads", kOldestReadableVersion,
                      " --db " + db_->path());
}

Error SqliteStore::disk_full_error(const Error& e, const std::string& what) {
  if (!db_->take_disk_full()) return e;
  return Error{e.message + "; " + what};
}

Result<SchemaStatus> SqliteStore::schema_status() {
  return read_schema_status(*db_);
}

// ---------------------------------------------------------------- row writers

Result<int64_t> SqliteStore::insert_run_row(const RunRecord& run, int64_t checksum) {
  BG_ASSIGN(Stmt insert,
            db_->prepare("INSERT INTO runs(uuid, started_at, finished_at, status, suite, "
                         "suite_path, hostname, git_commit, git_branch, git_dirty, "
                         "command_line, checksum) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run.uuid, run.started_at, run.finished_at, run.status, run.suite,
                       run.suite_path, run.hostname, run.git_commit, run.git_branch, run.git_dirty,
                       run.command_line, checksum)
             .run());
  return db_->last_insert_rowid();
}

Status SqliteStore::insert_run_values(const std::string& table, int64_t run_id,
                                      const KeyValues& values) {
  BG_ASSIGN(Stmt insert,
            db_->prepare("INSERT INTO " + table + "(run_id, key, value) VALUES(?,?,?)"));
  for (const auto& [k, v] : values) BG_TRY(insert.bind_all(run_id, k, v).run());
  return ok_status();
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

Result<int64_t> SqliteStore::stored_metric_id(const std::string& name) {
  const MetricInfo* builtin = find_builtin_metric(name);
  BG_TRY(insert_metric(builtin ? *builtin : MetricInfo{name, "", Direction::kLowerIsBetter}));
  BG_ASSIGN(Stmt select, db_->prepare("SELECT id FROM metrics WHERE name = ?"));
  BG_ASSIGN(bool row, select.bind(1, name).step());
  if (!row) return error("metric '" + name + "' vanished while being stored");
  return select.int64(0);
}

Result<bool> SqliteStore::has_run(const std::string& uuid) {
  BG_ASSIGN(Stmt known, db_->prepare("SELECT 1 FROM runs WHERE uuid = ?"));
  return known.bind(1, uuid).step();
}

Result<bool> SqliteStore::has_variant(int64_t run_id, int64_t benchmark, const std::string& name) {
  BG_ASSIGN(Stmt dup, db_->prepare("SELECT 1 FROM variants WHERE run_id = ? AND "
                                   "benchmark_id = ? AND name = ?"));
  return dup.bind_all(run_id, benchmark, name).step();
}

Result<std::optional<std::string>> SqliteStore::run_uuid(int64_t run_id) {
  BG_ASSIGN(Stmt uuid, db_->prepare("SELECT uuid FROM runs WHERE id = ?"));
  BG_ASSIGN(bool found, uuid.bind(1, run_id).step());
  return found ? std::optional<std::string>(uuid.text(0)) : std::nullopt;
}

Result<int64_t> SqliteStore::insert_variant_row(int64_t run_id, int64_t benchmark,
                                                const VariantColumns& columns, int64_t checksum) {
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT INTO variants(run_id, benchmark_id, name, command, "
                                      "params, env, config_json, checksum) "
                                      "VALUES(?,?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run_id, benchmark, columns.name, columns.command, columns.params,
                       columns.env, columns.config_json, checksum)
             .run());
  return db_->last_insert_rowid();
}

Result<std::optional<std::string>> SqliteStore::stored_variant_key(int64_t variant_id) {
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT r.uuid, b.name, v.name FROM variants v JOIN runs r ON "
                                    "r.id = v.run_id JOIN benchmarks b ON b.id = v.benchmark_id "
                                    "WHERE v.id = ?"));
  BG_ASSIGN(bool found, stmt.bind(1, variant_id).step());
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(variant_key(stmt.text(0), stmt.text(1), stmt.text(2)));
}

Status SqliteStore::insert_instance(int64_t variant_id, const InstanceRecord& in) {
  BG_ASSIGN(const std::string key, variant_key_of(variant_id));
  BG_ASSIGN(Stmt instance,
            db_->prepare("INSERT INTO instances(variant_id, idx, schedule_order, start_ns, end_ns, "
                         "started_at, exit_code, signal, timed_out, failure, user_s, sys_s, "
                         "max_rss_bytes, mem_peak_bytes, mem_avg_bytes, mem_samples, instructions, "
                         "cycles, cpus, schedule_tag, schedule, timed_outside, checksum, "
                         "rss_floor_bytes, mem_source, prepare_s, conclude_s) "
                         "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(instance
             .bind_all(variant_id, in.index, in.order, in.start_ns, in.end_ns, in.started_at,
                       in.exit_code, in.signal, in.timed_out, null_if_empty(in.failure), in.user_s,
                       in.sys_s, in.max_rss_bytes, in.mem_peak_bytes, in.mem_avg_bytes,
                       in.mem_samples, in.instructions, in.cycles, in.cpus, in.schedule_tag,
                       in.schedule, in.timed_outside, instance_checksum(key, in),
                       in.rss_floor_bytes, in.mem_source, in.prepare_s, in.conclude_s)
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

Status SqliteStore::keep_run_counts(int64_t run_id, const RunCounts& counts) {
  if (schema_version_ < kRunCountsVersion) return ok_status();
  BG_ASSIGN(Stmt stmt, db_->prepare("INSERT INTO run_counts(run_id, benchmarks, instances) "
                                    "VALUES(?,?,?)"));
  return stmt.bind_all(run_id, counts.benchmarks, counts.instances).run();
}

// ---------------------------------------------------------------- public writers

Result<int64_t> SqliteStore::begin_run(const RunRecord& run) {
  BG_TRY(before_write());
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

Status SqliteStore::add_instance(int64_t variant_id, const InstanceRecord& instance) {
  BG_TRY(before_write());  // batched instances first: instances are stored in the order given
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

Status SqliteStore::finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                               const KeyValues& artifacts) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  if (!artifacts.empty()) BG_TRY(insert_run_values("artifacts", run_id, artifacts));
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
