// Writing runs into PostgreSQL: begin_run, add_variant, add_instance, finish_run, add_runs,
// and the row writers merge_from() reuses inside its own transaction; runs whose writer is
// gone.
#include "store/postgres/pg_store.hpp"

#include <algorithm>
#include <cmath>

#include "store/checksum.hpp"
#include "store/run_counts.hpp"
#include "store/sql_rows.hpp"
#include "store/sqlite/iteration_columns.hpp"

namespace benchguard::store::postgres {
namespace {

using sqlite::pack_iterations;
using sqlite::PackedIterations;

// The second key of a run's advisory lock.
int64_t lock_key(int64_t run_id) {
  return run_id % 2147483648LL;
}

constexpr const char* kInstanceColumns =
    "variant_id, idx, schedule_order, start_ns, end_ns, started_at, exit_code, signal, "
    "timed_out, failure, user_s, sys_s, max_rss_bytes, mem_peak_bytes, mem_avg_bytes, "
    "mem_samples, instructions, cycles, cpus, schedule_tag, schedule, timed_outside, checksum, "
    "rss_floor_bytes, mem_source, prepare_s, conclude_s";

// The statement storing an instance, its iteration block (when `block`), `metrics`
// iteration_values rows and `counts` instance_counts rows, and removing its run's run_counts
// row, at once: one round trip, one transaction of its own. Parameters: the instance's 27, the
// block's 6, then a triple for each metric and each count.
std::string instance_sql(bool block, size_t metrics, size_t counts) {
  std::string values;
  for (int i = 1; i <= 27; ++i) values += (i > 1 ? ",$" : "$") + std::to_string(i);
  // The run's kept counts (0013) no longer hold: its rows count it until it is counted again.
  std::string sql =
      "WITH u AS (DELETE FROM run_counts WHERE run_id = (SELECT run_id FROM "
      "variants WHERE id = $1)), i AS (INSERT INTO instances(" +
      std::string(kInstanceColumns) + ") VALUES(" + values + ") RETURNING id)";
  int n = 28;
  if (block) {
    sql +=
        ", b AS (INSERT INTO iteration_blocks(instance_id, count, idx, start_ns, end_ns, flags, "
        "failures) SELECT id, $28, $29, $30, $31, $32, $33 FROM i RETURNING instance_id)";
    n = 34;
  }
  const auto triples = [&](size_t k_count, const char* t1, const char* t2, const char* t3) {
    std::string rows;
    for (size_t k = 0; k < k_count; ++k, n += 3)
      rows += (k ? ",($" : "($") + std::to_string(n) + "::" + t1 + ",$" + std::to_string(n + 1) +
              "::" + t2 + ",$" + std::to_string(n + 2) + "::" + t3 + ")";
    return rows;
  };
  const std::string value_rows = triples(block ? metrics : 0, "int8", "bytea", "bytea");
  if (counts > 0)
    sql +=
        ", c AS (INSERT INTO instance_counts(instance_id, metric_id, position, value) SELECT "
        "i.id, v.m, v.p, v.x FROM i, (VALUES " +
        triples(counts, "int8", "int8", "int8") + ") AS v(m, p, x) RETURNING instance_id)";
  if (!block || metrics == 0) return sql + " SELECT id FROM i";
  return sql +
         " INSERT INTO iteration_values(instance_id, metric_id, present, data) SELECT "
         "b.instance_id, v.m, v.p, v.d FROM b, (VALUES " +
         value_rows + ") AS v(m, p, d)";
}

}  // namespace

PgStore::PgStore(std::unique_ptr<Conn> conn, int schema_version, bool read_only)
    : StoreCore(schema_version, read_only), conn_(std::move(conn)) {}

PgStore::~PgStore() {
  if (read_only_) return;
  // Runs begun here and never finished (an error ended the writer). Best effort: a destructor
  // throws nothing, and a run left `running` reads as interrupted once this session ends.
  try {
    mark_unfinished_runs();
  } catch (...) {
  }
}

void PgStore::mark_unfinished_runs() {
  for (int64_t run_id : own_runs_) {
    auto marked = [&]() -> Status {
      BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
      BG_ASSIGN(Rows still, conn_->query("SELECT 1 FROM runs WHERE id = $1 AND status = "
                                         "'running' FOR UPDATE",
                                         {int8(run_id)}));
      if (still.size() == 0) return ok_status();
      BG_ASSIGN(int64_t end, last_instance_end(run_id));
      BG_TRY(update_run_end(run_id, end, "interrupted"));
      return txn.commit();
    }();
    (void)marked;
  }
}

Status PgStore::require_latest() const {
  if (schema_version_ == pg_latest_version()) return ok_status();
  return schema_error("is not this benchguard's", pg_latest_version());
}

Status PgStore::require_readable() const {
  if (schema_version_ == pg_latest_version()) return ok_status();
  if (schema_version_ == 0)
    return error(
        "no benchguard schema in this database yet; open it for writing once (e.g. "
        "`benchguard db migrate --db URL`)");
  return require_latest();
}

// ---------------------------------------------------------------- row writers

Result<int64_t> PgStore::insert_run_row(const RunRecord& run, int64_t checksum) {
  return conn_->query_int(
      "INSERT INTO runs(uuid, started_at, finished_at, status, suite, suite_path, hostname, "
      "git_commit, git_branch, git_dirty, command_line, checksum) VALUES($1,$2,$3,$4,$5,$6,$7,$8,"
      "$9,$10,$11,$12) RETURNING id",
      {text(run.uuid), int8(run.started_at), int8(run.finished_at), text(run.status),
       text(run.suite), text(run.suite_path), text(run.hostname), text(run.git_commit),
       text(run.git_branch), int8(int64_t{run.git_dirty ? 1 : 0}), text(run.command_line),
       int8(checksum)});
}

Status PgStore::insert_run_values(const std::string& table, int64_t run_id,
                                  const KeyValues& values) {
  const std::string sql = "INSERT INTO " + table + "(run_id, key, value) VALUES($1,$2,$3)";
  for (const auto& [k, v] : values) BG_TRY(conn_->query(sql, {int8(run_id), text(k), text(v)}));
  return ok_status();
}

Result<int64_t> PgStore::benchmark_id(const std::string& name) {
  BG_TRY(conn_->query("INSERT INTO benchmarks(name) VALUES($1) ON CONFLICT (name) DO NOTHING",
                      {text(name)}));
  BG_ASSIGN(Rows rows, conn_->query("SELECT id FROM benchmarks WHERE name = $1", {text(name)}));
  if (rows.size() == 0) return error("benchmark '" + name + "' vanished while being stored");
  return rows.int64(0, 0);
}

Status PgStore::insert_metric(const MetricInfo& metric) {
  const std::string direction = direction_text(metric.direction);
  BG_TRY(
      conn_->query("INSERT INTO metrics(name, unit, direction, checksum) VALUES($1,$2,$3,$4) "
                   "ON CONFLICT (name) DO NOTHING",
                   {text(metric.name), text(metric.unit), text(direction),
                    int8(metric_checksum(metric.name, metric.unit, direction))}));
  return ok_status();
}

Result<int64_t> PgStore::stored_metric_id(const std::string& name) {
  BG_ASSIGN(Rows rows, conn_->query("SELECT id FROM metrics WHERE name = $1", {text(name)}));
  if (rows.size() == 0) {
    const MetricInfo* builtin = find_builtin_metric(name);
    BG_TRY(insert_metric(builtin ? *builtin : MetricInfo{name, "", Direction::kLowerIsBetter}));
    BG_ASSIGN(rows, conn_->query("SELECT id FROM metrics WHERE name = $1", {text(name)}));
    if (rows.size() == 0) return error("metric '" + name + "' vanished while being stored");
  }
  return rows.int64(0, 0);
}

Result<bool> PgStore::has_run(const std::string& uuid) {
  BG_ASSIGN(Rows known, conn_->query("SELECT 1 FROM runs WHERE uuid = $1", {text(uuid)}));
  return known.size() > 0;
}

Result<bool> PgStore::has_variant(int64_t run_id, int64_t benchmark, const std::string& name) {
  BG_ASSIGN(Rows dup, conn_->query("SELECT 1 FROM variants WHERE run_id = $1 AND benchmark_id = "
                                   "$2 AND name = $3",
                                   {int8(run_id), int8(benchmark), text(name)}));
  return dup.size() > 0;
}

Result<std::optional<std::string>> PgStore::run_uuid(int64_t run_id) {
  BG_ASSIGN(Rows uuid, conn_->query("SELECT uuid FROM runs WHERE id = $1", {int8(run_id)}));
  if (uuid.size() == 0) return std::optional<std::string>();
  return std::optional<std::string>(uuid.text(0, 0));
}

Result<int64_t> PgStore::insert_variant_row(int64_t run_id, int64_t benchmark,
                                            const VariantColumns& columns, int64_t checksum) {
  return conn_->query_int(
      "INSERT INTO variants(run_id, benchmark_id, name, command, params, env, config_json, "
      "checksum) VALUES($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
      {int8(run_id), int8(benchmark), text(columns.name), text(columns.command),
       text(columns.params), text(columns.env), text(columns.config_json), int8(checksum)});
}

Result<std::optional<std::string>> PgStore::stored_variant_key(int64_t variant_id) {
  BG_ASSIGN(Rows rows, conn_->query("SELECT r.uuid, b.name, v.name FROM variants v JOIN runs r ON "
                                    "r.id = v.run_id JOIN benchmarks b ON b.id = v.benchmark_id "
                                    "WHERE v.id = $1",
                                    {int8(variant_id)}));
  if (rows.size() == 0) return std::optional<std::string>();
  return std::optional<std::string>(variant_key(rows.text(0, 0), rows.text(0, 1), rows.text(0, 2)));
}

Status PgStore::insert_instance(int64_t variant_id, const InstanceRecord& in) {
  BG_ASSIGN(const std::string key, variant_key_of(variant_id));
  std::vector<Param> params = {int8(variant_id),
                               int8(int64_t{in.index}),
                               int8(in.order),
                               int8(in.start_ns),
                               int8(in.end_ns),
                               int8(in.started_at),
                               int8(int64_t{in.exit_code}),
                               int8(int64_t{in.signal}),
                               int8(int64_t{in.timed_out ? 1 : 0}),
                               text(null_if_empty(in.failure)),
                               float8(in.user_s),
                               float8(in.sys_s),
                               int8(in.max_rss_bytes),
                               int8(in.mem_peak_bytes),
                               float8(in.mem_avg_bytes),
                               int8(int64_t{in.mem_samples}),
                               int8(in.instructions),
                               int8(in.cycles),
                               text(in.cpus),
                               text(in.schedule_tag),
                               text(in.schedule),
                               int8(int64_t{in.timed_outside ? 1 : 0}),
                               int8(instance_checksum(key, in)),
                               int8(in.rss_floor_bytes),
                               text(in.mem_source),
                               float8(in.prepare_s),
                               float8(in.conclude_s)};
  // Timed from outside: the one iteration is rebuilt from the instance's columns on reading.
  const bool outside_only =
      in.timed_outside && in.iterations.size() == 1 && is_outside_iteration(in, in.iterations[0]);
  const bool block = !outside_only && !in.iterations.empty();
  std::size_t metrics = 0;
  if (block) {
    BG_ASSIGN(PackedIterations packed,
              pack_iterations(in.iterations, in.index, /*with_metrics=*/!in.timed_outside));
    params.push_back(int8(packed.count));
    params.push_back(bytea(packed.idx));
    params.push_back(bytea(packed.start_ns));
    params.push_back(bytea(packed.end_ns));
    params.push_back(bytea(packed.flags));
    params.push_back(text(packed.failures));
    for (auto& m : packed.metrics) {
      BG_ASSIGN(int64_t metric, metric_id(m.name));
      params.push_back(int8(metric));
      params.push_back(bytea(std::move(m.present)));
      params.push_back(bytea(std::move(m.data)));
    }
    metrics = packed.metrics.size();
  }
  for (std::size_t k = 0; k < in.counts.size(); ++k) {
    BG_ASSIGN(int64_t metric, metric_id(in.counts[k].first));
    params.push_back(int8(metric));
    params.push_back(int8(static_cast<int64_t>(k)));
    params.push_back(int8(in.counts[k].second));
  }
  BG_TRY(conn_->query(instance_sql(block, metrics, in.counts.size()), params));
  return ok_status();
}

Status PgStore::insert_summary(int64_t variant_id, const SummaryRecord& s) {
  BG_ASSIGN(const std::string key, variant_key_of(variant_id));
  BG_ASSIGN(int64_t metric, metric_id(s.metric));
  BG_ASSIGN(Rows dup, conn_->query("SELECT 1 FROM summaries WHERE variant_id = $1 AND metric_id = "
                                   "$2",
                                   {int8(variant_id), int8(metric)}));
  if (dup.size() > 0)
    return error("a variant reports a summary of metric '" + s.metric + "' twice");
  // A NaN mean is stored as NULL, as SQLite does.
  const std::optional<double> mean =
      std::isnan(s.mean) ? std::nullopt : std::optional<double>(s.mean);
  BG_TRY(conn_->query(
      "INSERT INTO summaries(variant_id, metric_id, count, mean, stddev, median, "
      "min, max, checksum) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
      {int8(variant_id), int8(metric), int8(s.count), float8(mean), float8(s.stddev),
       float8(s.median), float8(s.min), float8(s.max), int8(summary_checksum(key, s))}));
  return ok_status();
}

Status PgStore::keep_run_counts(int64_t run_id, const RunCounts& counts) {
  if (schema_version_ < kRunCountsVersion) return ok_status();
  BG_TRY(conn_->query("INSERT INTO run_counts(run_id, benchmarks, instances) VALUES($1,$2,$3)",
                      {int8(run_id), int8(counts.benchmarks), int8(counts.instances)}));
  return ok_status();
}

Status PgStore::count_run(int64_t run_id) {
  if (schema_version_ < kRunCountsVersion) return ok_status();
  static const std::string sql = count_run_sql("$1");
  BG_TRY(conn_->query(sql, {int8(run_id)}));
  return ok_status();
}

Status PgStore::update_run_end(int64_t run_id, int64_t finished_at, const std::string& status) {
  BG_ASSIGN(RunRecord run, read_run_record(run_id));
  run.finished_at = finished_at;
  run.status = status;
  BG_TRY(conn_->query("UPDATE runs SET finished_at = $1, status = $2, checksum = $3 WHERE id = $4",
                      {int8(finished_at), text(status), int8(run_checksum(run)), int8(run_id)}));
  return count_run(run_id);
}

Result<int64_t> PgStore::last_instance_end(int64_t run_id) {
  BG_ASSIGN(Rows rows, conn_->query("SELECT MAX(i.started_at + (i.end_ns - i.start_ns)) FROM "
                                    "instances i JOIN variants v ON v.id = i.variant_id WHERE "
                                    "v.run_id = $1",
                                    {int8(run_id)}));
  if (rows.size() == 0 || rows.is_null(0, 0)) return now_ns();
  return rows.int64(0, 0);
}

// ---------------------------------------------------------------- public writers

Result<int64_t> PgStore::begin_run(const RunRecord& run) {
  BG_TRY(before_write());
  WriterIdentity writer = this_writer();
  writer.lock = "pg-advisory";
  BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
  BG_ASSIGN(int64_t run_id, insert_run(run));
  BG_TRY(conn_->query(
      "INSERT INTO run_writers(run_id, hostname, machine_id, boot_id, pid_ns, pid, "
      "pid_start, lock, checksum) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
      {int8(run_id), text(writer.hostname), text(writer.machine_id), text(writer.boot_id),
       text(writer.pid_ns), int8(writer.pid), int8(writer.pid_start), text(writer.lock),
       int8(writer_checksum(run.uuid, writer))}));
  // Held by this connection until it closes: taken before the run is visible to others, so
  // no reader ever sees the run without its lock held while this writer lives.
  BG_TRY(conn_->query("SELECT pg_advisory_lock($1::int4, $2::int4)",
                      {int8(int64_t{kRunLockClass}), int8(lock_key(run_id))}));
  BG_TRY(txn.commit());
  own_runs_.push_back(run_id);
  return run_id;
}

Status PgStore::add_instance(int64_t variant_id, const InstanceRecord& instance) {
  BG_TRY(before_write());
  // Metrics are created (and committed) first; the instance, its block and its values are
  // then one statement, so one transaction.
  if (auto s = insert_instance(variant_id, instance); !s.ok()) {
    clear_caches();
    return s;
  }
  return ok_status();
}

Status PgStore::add_instance_batched(int64_t variant_id, const InstanceRecord& instance) {
  return add_instance(variant_id, instance);
}

Status PgStore::finish_run(int64_t run_id, int64_t finished_at, const std::string& status,
                           const KeyValues& artifacts) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
  BG_ASSIGN(Rows found,
            conn_->query("SELECT 1 FROM runs WHERE id = $1 FOR UPDATE", {int8(run_id)}));
  if (found.size() == 0) return error("no run with id " + std::to_string(run_id));
  BG_TRY(insert_run_values("artifacts", run_id, artifacts));
  BG_TRY(update_run_end(run_id, finished_at, status));
  BG_TRY(txn.commit());
  // Finished: its lock has nothing more to say.
  if (std::find(own_runs_.begin(), own_runs_.end(), run_id) != own_runs_.end())
    (void)conn_->query("SELECT pg_advisory_unlock($1::int4, $2::int4)",
                       {int8(int64_t{kRunLockClass}), int8(lock_key(run_id))});
  return ok_status();
}

// ---------------------------------------------------------------- runs whose writer is gone

Result<std::vector<std::pair<int64_t, int64_t>>> PgStore::gone_runs() {
  std::vector<std::pair<int64_t, int64_t>> out;
  BG_ASSIGN(Rows rows,
            conn_->query("SELECT r.id, r.started_at FROM runs r JOIN run_writers w ON w.run_id = "
                         "r.id WHERE r.status = 'running' AND NOT EXISTS (SELECT 1 FROM pg_locks l "
                         "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND "
                         "l.database = (SELECT oid FROM pg_database WHERE datname = "
                         "current_database()) AND l.classid = $1::oid AND l.objid = "
                         "(r.id % 2147483648)::oid) ORDER BY r.id",
                         {int8(int64_t{kRunLockClass})}));
  for (int r = 0; r < rows.size(); ++r) {
    BG_ASSIGN(int64_t end, last_instance_end(rows.int64(r, 0)));
    out.emplace_back(rows.int64(r, 0), std::max(end, rows.int64(r, 1)));
  }
  return out;
}

Status PgStore::mark_interrupted() {
  BG_ASSIGN(auto gone, gone_runs());
  for (const auto& [id, end] : gone) {
    BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
    // Another process may have marked it since.
    BG_ASSIGN(Rows still, conn_->query("SELECT 1 FROM runs WHERE id = $1 AND status = 'running' "
                                       "FOR UPDATE",
                                       {int8(id)}));
    if (still.size() > 0) BG_TRY(update_run_end(id, end, "interrupted"));
    BG_TRY(txn.commit());
  }
  return ok_status();
}

}  // namespace benchguard::store::postgres
