// Writing runs: begin_run, add_variant, add_instance, finish_run, and the row writers that
// merge_from() reuses inside its own transaction.
#include "store/sqlite/sqlite_store.hpp"

#include <chrono>

#include "store/sqlite/json_columns.hpp"
#include "store/sqlite/migrate.hpp"

namespace benchguard::store::sqlite {
namespace {

const char* direction_text(Direction d) {
  return d == Direction::kHigherIsBetter ? "higher" : "lower";
}

// A failure string is NULL when empty, so that "WHERE failure IS NULL" finds successes.
std::optional<std::string> null_if_empty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

Status SqliteStore::require_latest() const {
  const int latest = latest_schema_version();
  if (schema_version_ == latest) return ok_status();
  return error("database schema version " + std::to_string(schema_version_) +
               " is older than this benchguard (" + std::to_string(latest) +
               "); run `benchguard db migrate`");
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
  BG_ASSIGN(Stmt insert,
            db_->prepare("INSERT INTO runs(uuid, started_at, finished_at, status, suite, "
                         "suite_path, hostname, git_commit, git_branch, git_dirty, "
                         "command_line) VALUES(?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run.uuid, run.started_at, run.finished_at,
                       run.status.empty() ? std::string("running") : run.status, run.suite,
                       run.suite_path, run.hostname, run.git_commit, run.git_branch, run.git_dirty,
                       run.command_line)
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
  BG_ASSIGN(Stmt insert,
            db_->prepare("INSERT OR IGNORE INTO metrics(name, unit, direction) VALUES(?,?,?)"));
  return insert.bind_all(metric.name, metric.unit, direction_text(metric.direction)).run();
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
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT INTO variants(run_id, benchmark_id, name, command, "
                                      "params, env, config_json) VALUES(?,?,?,?,?,?,?)"));
  BG_TRY(insert
             .bind_all(run_id, bench, variant.name, command_to_json(variant.command),
                       key_values_to_json(variant.params), key_values_to_json(variant.env),
                       variant.config_json)
             .run());
  return db_->last_insert_rowid();
}

Status SqliteStore::insert_instance(int64_t variant_id, const InstanceRecord& in) {
  BG_ASSIGN(Stmt instance,
            db_->prepare("INSERT INTO instances(variant_id, idx, schedule_order, start_ns, end_ns, "
                         "started_at, exit_code, signal, timed_out, failure, user_s, sys_s, "
                         "max_rss_bytes, mem_peak_bytes, mem_avg_bytes, mem_samples, instructions, "
                         "cycles, cpus, schedule_tag, schedule, timed_outside) "
                         "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  BG_TRY(instance
             .bind_all(variant_id, in.index, in.order, in.start_ns, in.end_ns, in.started_at,
                       in.exit_code, in.signal, in.timed_out, null_if_empty(in.failure), in.user_s,
                       in.sys_s, in.max_rss_bytes, in.mem_peak_bytes, in.mem_avg_bytes,
                       in.mem_samples, in.instructions, in.cycles, in.cpus, in.schedule_tag,
                       in.schedule, in.timed_outside)
             .run());
  const int64_t instance_id = db_->last_insert_rowid();

  // Timed from outside: the one iteration is rebuilt from the instance's columns on reading.
  if (in.timed_outside && in.iterations.size() == 1 && is_outside_iteration(in, in.iterations[0]))
    return ok_status();

  BG_ASSIGN(Stmt iteration, db_->prepare("INSERT INTO iterations(instance_id, idx, start_ns, "
                                         "end_ns, burn_in, timed_out, failure) "
                                         "VALUES(?,?,?,?,?,?,?)"));
  BG_ASSIGN(Stmt value, db_->prepare("INSERT INTO metric_values(iteration_id, metric_id, value) "
                                     "VALUES(?,?,?)"));
  for (const auto& it : in.iterations) {
    BG_TRY(iteration
               .bind_all(instance_id, it.index, it.start_ns, it.end_ns, it.burn_in, it.timed_out,
                         null_if_empty(it.failure))
               .run());
    const int64_t iteration_id = db_->last_insert_rowid();
    // Timed from outside: the metrics are the instance's columns (outside_metrics).
    if (in.timed_outside) continue;
    for (size_t m = 0; m < it.metrics.size(); ++m) {
      const auto& [name, v] = it.metrics[m];
      for (size_t earlier = 0; earlier < m; ++earlier)
        if (it.metrics[earlier].first == name)
          return error("iteration " + std::to_string(it.index) + " of instance " +
                       std::to_string(in.index) + " reports metric '" + name + "' twice");
      BG_ASSIGN(int64_t metric, metric_id(name));
      // NaN binds as NULL (SQLite has no REAL NaN); read back as NaN.
      BG_TRY(value.bind_all(iteration_id, metric, v).run());
    }
  }
  return ok_status();
}

Result<int64_t> SqliteStore::insert_run_data(const RunData& data) {
  BG_ASSIGN(int64_t run_id, insert_run(data.run));
  for (const auto& v : data.variants) {
    BG_ASSIGN(int64_t variant_id, insert_variant(run_id, v.variant));
    for (const auto& instance : v.instances) BG_TRY(insert_instance(variant_id, instance));
  }
  return run_id;
}

// ---------------------------------------------------------------- public writers

Result<int64_t> SqliteStore::begin_run(const RunRecord& run) {
  BG_TRY(require_latest());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  BG_ASSIGN(int64_t run_id, insert_run(run));
  BG_TRY(txn.commit());
  return run_id;
}

Result<int64_t> SqliteStore::add_variant(int64_t run_id, const VariantRecord& variant) {
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
    return txn.commit();
  }();
  if (!written.ok()) metric_ids_.clear();  // a metric created in the rollback is gone
  return written;
}

Result<std::vector<int64_t>> SqliteStore::add_runs(const std::vector<RunData>& runs,
                                                   const std::vector<MetricInfo>& metrics) {
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
    metric_ids_.clear();  // ids created in the rolled-back transaction are gone
    return written.error();
  }
  return ids;
}

Status SqliteStore::finish_run(int64_t run_id, int64_t finished_at, const std::string& status) {
  BG_TRY(require_latest());
  BG_TRY(flush());
  BG_ASSIGN(Stmt update, db_->prepare("UPDATE runs SET finished_at = ?, status = ? WHERE id = ?"));
  BG_TRY(update.bind_all(finished_at, status, run_id).run());
  if (db_->changes() == 0) return error("no run with id " + std::to_string(run_id));
  return ok_status();
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
  // A log whose instances could not be committed stays for the next open to replay.
  if (flush().ok() && log_.has_value()) log_->remove();
}

Status SqliteStore::add_instance_batched(int64_t variant_id, const InstanceRecord& instance) {
  BG_TRY(require_latest());
  if (!log_.has_value()) {
    auto log = InstanceLog::create(db_->path());
    // Where no log can be made, each instance gets its own transaction.
    if (!log.ok()) return add_instance(variant_id, instance);
    log_.emplace(std::move(log.value()));
  }
  BG_TRY(log_->append(variant_id, instance));
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
    for (const auto& [variant_id, instance] : pending_)
      BG_TRY(insert_instance(variant_id, instance));
    return txn.commit();
  }();
  if (!written.ok()) {
    metric_ids_.clear();  // a metric created in the rollback is gone
    return written;
  }
  pending_.clear();
  return log_->clear();
}

Result<int64_t> SqliteStore::replay_instance_logs() {
  BG_ASSIGN(std::vector<OrphanLog> orphans, orphan_logs(db_->path()));
  return replay(orphans, /*remove=*/true);
}

Result<int64_t> SqliteStore::replay(std::vector<OrphanLog>& logs, bool remove) {
  int64_t added = 0;
  for (auto& log : logs) {
    BG_ASSIGN(std::vector<LoggedInstance> logged, log.read());
    if (!logged.empty()) {
      BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
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
          metric_ids_.clear();
          return Error{s.error().message + " (replaying " + log.path() + ")"};
        }
        ++added;
      }
      BG_TRY(txn.commit());
    }
    if (remove) log.remove();
  }
  return added;
}

}  // namespace benchguard::store::sqlite
