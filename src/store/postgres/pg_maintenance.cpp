// History (change points, series states, acknowledgements), merge_from and prune on
// PostgreSQL.
#include <string>

#include "store/checksum.hpp"
#include "store/location.hpp"
#include "store/postgres/pg_store.hpp"
#include "store/sql_rows.hpp"

namespace benchguard::store::postgres {

// ---------------------------------------------------------------- history

Status PgStore::save_detection(const std::vector<SeriesState>& states,
                               const std::vector<ChangeRecord>& changes) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
  for (const auto& s : states) {
    // The series' change points go with its old state (ON DELETE CASCADE).
    BG_TRY(conn_->query("DELETE FROM history_series WHERE series_key = $1", {text(s.series_key)}));
    BG_TRY(
        conn_->query("INSERT INTO history_series(series_key, settings, points, digest, "
                     "updated_at) VALUES($1,$2,$3,$4,$5)",
                     {text(s.series_key), text(s.settings), int8(s.points), text(s.digest),
                      int8(s.updated_at)}));
  }
  for (const auto& c : changes) {
    auto stored = conn_->query(
        "INSERT INTO change_points(" + kChangeColumns +
            ") VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,"
            "$22)",
        {text(c.id),
         text(c.series_key),
         text(c.benchmark),
         text(c.variant),
         text(c.metric),
         text(c.machine),
         text(c.method),
         text(c.last_good),
         text(c.first_bad),
         int8(c.first_bad_time),
         int8(c.index),
         int8(c.segment_start),
         int8(c.segment_end),
         float8(finite_or_null(c.before)),
         float8(finite_or_null(c.after)),
         float8(finite_or_null(c.change)),
         float8(finite_or_null(c.change_lower)),
         float8(finite_or_null(c.change_upper)),
         float8(finite_or_null(c.p_value)),
         text(c.kind),
         text(c.status),
         int8(c.detected_at)});
    if (!stored.ok())
      return Error{"cannot store change point " + c.id + " of " + c.series_key + ": " +
                   stored.error().message};
  }
  return txn.commit();
}

Result<bool> PgStore::set_ack(const AckRecord& ack) {
  BG_TRY(before_write());
  // Acknowledging again keeps the first time and takes a new non-empty reason.
  BG_ASSIGN(Rows rows, conn_->query("INSERT INTO change_acks(change_id, reason, acked_at) "
                                    "VALUES($1,$2,$3) ON CONFLICT (change_id) DO UPDATE SET "
                                    "reason = CASE WHEN EXCLUDED.reason = '' THEN "
                                    "change_acks.reason ELSE EXCLUDED.reason END "
                                    "RETURNING (xmax = 0)",
                                    {text(ack.change_id), text(ack.reason), int8(ack.acked_at)}));
  return rows.size() > 0 && rows.int64(0, 0) != 0;
}

Result<bool> PgStore::remove_ack(const std::string& change_id) {
  BG_TRY(before_write());
  BG_ASSIGN(Rows rows,
            conn_->query("DELETE FROM change_acks WHERE change_id = $1", {text(change_id)}));
  return rows.affected() > 0;
}

// ---------------------------------------------------------------- merge

Result<MergeCounts> PgStore::merge_from(const std::string& other_path) {
  BG_TRY(before_write());
  if (is_postgres_url(other_path) && redact_url(other_path) == conn_->where())
    return error("cannot merge a database into itself");
  // OTHER is only read: a SQLite file through its own store (an older schema or a killed
  // writer's log read through a temporary copy; runs whose writer is gone read as
  // `interrupted`), or another PostgreSQL database.
  BG_ASSIGN(
      std::unique_ptr<Store> source,
      open_store(other_path, OpenOptions{.create = false, .migrate = true, .read_only = true}));
  BG_ASSIGN(std::vector<RunSummary> runs, source->list_runs());
  return merge_runs({}, runs, [&](const RunSummary& summary) -> Result<RunData> {
    BG_ASSIGN(RunData data, source->load_run(std::to_string(summary.id)));
    if (data.run.uuid != summary.uuid)
      return error("merging " + other_path + ": run " + std::to_string(summary.id) +
                   " changed while being read");
    // Metrics the target lacks arrive with their unit and direction.
    for (const auto& v : data.variants)
      for (const auto& m : v.metrics) BG_TRY(insert_metric(m));
    return data;
  });
}

// ---------------------------------------------------------------- series cache

Status PgStore::save_series_cache(const std::vector<SeriesCacheEntry>& entries) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
  for (const auto& e : entries) {
    BG_ASSIGN(Rows run, conn_->query("SELECT uuid, status FROM runs WHERE id = $1 FOR SHARE",
                                     {int8(e.run_id)}));
    if (run.size() == 0) return error("no run with id " + std::to_string(e.run_id));
    if (run.text(0, 1) == "running")
      return error("run " + std::to_string(e.run_id) +
                   " is still running: its series are cached once it has finished");
    const std::string uuid = run.text(0, 0);
    if (auto st = conn_->query("INSERT INTO series_cache (run_id, key, data, checksum) VALUES "
                               "($1, $2, $3, $4) ON CONFLICT (run_id, key) DO UPDATE SET data = "
                               "excluded.data, checksum = excluded.checksum",
                               {int8(e.run_id), text(e.key), bytea(e.data),
                                int8(series_cache_checksum(uuid, e.key, e.data))});
        !st.ok())
      return error("cannot store the series cache of run " + std::to_string(e.run_id) + ": " +
                   st.error().message);
  }
  return txn.commit();
}

// ---------------------------------------------------------------- prune

Result<PruneCounts> PgStore::prune(const PruneFilter& filter) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*conn_));
  BG_ASSIGN(Rows bench,
            conn_->query("SELECT id FROM benchmarks WHERE name = $1", {text(filter.benchmark)}));
  if (bench.size() == 0) return error("no benchmark named " + filter.benchmark);
  const int64_t benchmark = bench.int64(0, 0);
  // The variants a filter selects: $1 is the benchmark id, $2 the cut-off (0 = none).
  const std::string variants = " FROM variants v JOIN runs r ON r.id = v.run_id";
  const std::string selected = " WHERE v.benchmark_id = $1 AND ($2 = 0 OR r.started_at < $2)";
  const std::vector<Param> params = {int8(benchmark), int8(filter.before)};
  PruneCounts counts;
  {
    // An instance timed from outside may hold its one iteration in its own columns.
    BG_ASSIGN(Rows rows, conn_->query("SELECT COUNT(DISTINCT v.id), COUNT(i.id), "
                                      "COALESCE(SUM(CASE WHEN b.instance_id IS NOT NULL THEN "
                                      "b.count WHEN i.timed_outside = 1 THEN 1 ELSE 0 END), "
                                      "0)::int8" +
                                          variants +
                                          " LEFT JOIN instances i ON i.variant_id = v.id"
                                          " LEFT JOIN iteration_blocks b ON b.instance_id = i.id" +
                                          selected,
                                      params));
    if (rows.size() > 0) {
      counts.variants = rows.int64(0, 0);
      counts.instances = rows.int64(0, 1);
      counts.iterations = rows.int64(0, 2);
    }
  }
  BG_ASSIGN(Rows runs, conn_->query("SELECT DISTINCT v.run_id, r.uuid, r.started_at" + variants +
                                        selected + " ORDER BY r.started_at, v.run_id",
                                    params));
  for (int r = 0; r < runs.size(); ++r) counts.runs.push_back({runs.text(r, 1), false});
  // What history derived from those runs no longer holds (derived again from what is left).
  for (int r = 0; r < runs.size(); ++r)
    BG_TRY(conn_->query("DELETE FROM series_cache WHERE run_id = $1", {int8(runs.int64(r, 0))}));
  // Instances and their iteration arrays follow by ON DELETE CASCADE.
  BG_TRY(conn_->query("DELETE FROM variants WHERE id IN (SELECT v.id" + variants + selected + ")",
                      params));
  variant_keys_.clear();
  for (int r = 0; r < runs.size(); ++r) {
    BG_ASSIGN(Rows removed, conn_->query("DELETE FROM runs WHERE id = $1 AND NOT EXISTS (SELECT 1 "
                                         "FROM variants WHERE run_id = $1)",
                                         {int8(runs.int64(r, 0))}));
    counts.runs_emptied += static_cast<int>(removed.affected());
    counts.runs[static_cast<std::size_t>(r)].removed = removed.affected() > 0;
    if (removed.affected() == 0) BG_TRY(count_run(runs.int64(r, 0)));  // what is left of it
  }
  if (filter.dry_run) {
    variant_keys_.clear();  // rolled back: the cache must not keep what the deletes changed
    return counts;          // the transaction rolls back as it goes
  }
  BG_TRY(txn.commit());
  return counts;
}

}  // namespace benchguard::store::postgres
