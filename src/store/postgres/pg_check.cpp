// `benchguard db check` on PostgreSQL, on a read-only connection in one read-only
// transaction: the row checksums (src/store/checksum.hpp) of every run, variant, instance,
// summary, metric and run writer, whether every run's measurements can be read back, and the
// invariants of times. Referential integrity is PostgreSQL's own (foreign keys are enforced),
// as is page integrity (data checksums, when the cluster has them).
#include <fmt/format.h>

#include <unordered_map>

#include "store/checksum.hpp"
#include "store/postgres/pg_store.hpp"
#include "store/run_counts.hpp"

namespace benchguard::store::postgres {

Result<CheckReport> PgStore::check() {
  CheckReport report;
  report.schema_version = schema_version_;
  BG_TRY(require_readable());
  BG_ASSIGN(Transaction snapshot, Transaction::begin(*conn_, /*read_only=*/true));
  const auto problem = [&](const std::string& source, std::string text) {
    report.problems.push_back({source, std::move(text)});
  };
  const auto verify = [&](const std::string& where, const Rows& rows, int row, int col,
                          int64_t computed) {
    if (rows.is_null(row, col)) {
      ++report.checksums_absent;
    } else if (rows.int64(row, col) != computed) {
      problem("checksum", where + ": checksum mismatch: what it holds changed after it was stored");
    } else {
      ++report.checksums_verified;
    }
  };

  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT v.id, r.uuid, b.name, v.name, v.command, v.params, "
                                      "v.env, v.config_json, v.checksum FROM variants v JOIN runs "
                                      "r ON r.id = v.run_id JOIN benchmarks b ON b.id = "
                                      "v.benchmark_id ORDER BY v.id"));
    for (int r = 0; r < rows.size(); ++r) {
      ++report.variants;
      const VariantColumns columns{rows.text(r, 1), rows.text(r, 2), rows.text(r, 3),
                                   rows.text(r, 4), rows.text(r, 5), rows.text(r, 6),
                                   rows.text(r, 7)};
      verify("variants row " + std::to_string(rows.int64(r, 0)), rows, r, 8,
             variant_checksum(columns));
    }
  }
  BG_ASSIGN(Rows run_rows, conn_->query("SELECT id, checksum, started_at, finished_at, status "
                                        "FROM runs ORDER BY id"));
  report.runs = run_rows.size();
  for (int rr = 0; rr < run_rows.size(); ++rr) {
    const int64_t run_id = run_rows.int64(rr, 0);
    const std::string where = "runs row " + std::to_string(run_id);
    auto record = read_run_record(run_id);
    if (!record.ok()) {
      problem("read", where + ": cannot be read: " + record.error().message);
      continue;
    }
    verify(where, run_rows, rr, 1, run_checksum(*record));
    const std::string status = run_rows.text(rr, 4);
    if (status != "running" && status != "complete" && status != "interrupted" &&
        status != "failed" && status != "imported")
      problem("invariant", fmt::format("{}: status '{}' is not one of running, complete, failed, "
                                       "interrupted, imported",
                                       where, status));
    if ((status == "complete" || status == "failed" || status == "interrupted") &&
        run_rows.int64(rr, 3) < run_rows.int64(rr, 2))
      problem("invariant", where + ": finishes before it starts");
    RunData data;
    auto read = read_run(run_id, LoadOptions{});
    if (!read.ok()) {
      problem("read", where + ": its measurements cannot be read: " + read.error().message);
      continue;
    }
    data = std::move(read).value();
    std::vector<int64_t> variant_ids;
    {
      BG_ASSIGN(Rows ids, conn_->query("SELECT id FROM variants WHERE run_id = $1 ORDER BY id",
                                       {int8(run_id)}));
      for (int r = 0; r < ids.size(); ++r) variant_ids.push_back(ids.int64(r, 0));
    }
    if (variant_ids.size() != data.variants.size()) {
      problem("read", where + ": its variants changed while being checked");
      continue;
    }
    std::unordered_map<int64_t, size_t> variant_pos;
    std::vector<std::string> keys;
    for (size_t i = 0; i < variant_ids.size(); ++i) {
      variant_pos.emplace(variant_ids[i], i);
      keys.push_back(variant_key(data.run.uuid, data.variants[i].variant.benchmark,
                                 data.variants[i].variant.name));
    }
    std::vector<size_t> next(variant_ids.size(), 0);
    BG_ASSIGN(Rows instances, conn_->query("SELECT i.id, i.variant_id, i.checksum, i.start_ns, "
                                           "i.end_ns FROM instances i JOIN variants v ON v.id = "
                                           "i.variant_id WHERE v.run_id = $1 ORDER BY i.id",
                                           {int8(run_id)}));
    for (int r = 0; r < instances.size(); ++r) {
      ++report.instances;
      const std::string at = "instances row " + std::to_string(instances.int64(r, 0));
      if (instances.int64(r, 4) < instances.int64(r, 3))
        problem("invariant", at + ": ends before it starts");
      const auto pos = variant_pos.find(instances.int64(r, 1));
      if (pos == variant_pos.end()) continue;
      const size_t v = pos->second;
      const size_t k = next[v]++;
      if (k >= data.variants[v].instances.size()) continue;
      verify(at, instances, r, 2, instance_checksum(keys[v], data.variants[v].instances[k]));
    }
    std::vector<size_t> next_summary(variant_ids.size(), 0);
    BG_ASSIGN(Rows summaries, conn_->query("SELECT s.id, s.variant_id, s.checksum FROM summaries "
                                           "s JOIN variants v ON v.id = s.variant_id WHERE "
                                           "v.run_id = $1 ORDER BY s.id",
                                           {int8(run_id)}));
    for (int r = 0; r < summaries.size(); ++r) {
      const auto pos = variant_pos.find(summaries.int64(r, 1));
      if (pos == variant_pos.end()) continue;
      const size_t v = pos->second;
      const size_t k = next_summary[v]++;
      if (k >= data.variants[v].summaries.size()) continue;
      verify("summaries row " + std::to_string(summaries.int64(r, 0)), summaries, r, 2,
             summary_checksum(keys[v], data.variants[v].summaries[k]));
    }
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT id, name, unit, direction, checksum FROM metrics "
                                      "ORDER BY id"));
    for (int r = 0; r < rows.size(); ++r)
      verify("metrics row " + std::to_string(rows.int64(r, 0)), rows, r, 4,
             metric_checksum(rows.text(r, 1), rows.text(r, 2), rows.text(r, 3)));
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT w.run_id, r.uuid, w.hostname, w.machine_id, "
                                      "w.boot_id, w.pid_ns, w.pid, w.pid_start, w.lock, "
                                      "w.checksum FROM run_writers w JOIN runs r ON r.id = "
                                      "w.run_id ORDER BY w.run_id"));
    for (int r = 0; r < rows.size(); ++r) {
      WriterIdentity w;
      w.hostname = rows.text(r, 2);
      w.machine_id = rows.text(r, 3);
      w.boot_id = rows.text(r, 4);
      w.pid_ns = rows.text(r, 5);
      w.pid = rows.int64(r, 6);
      w.pid_start = rows.int64(r, 7);
      w.lock = rows.text(r, 8);
      verify("run_writers row " + std::to_string(rows.int64(r, 0)), rows, r, 9,
             writer_checksum(rows.text(r, 1), w));
    }
  }
  if (schema_version_ >= kSeriesCacheVersion) {
    BG_ASSIGN(Rows rows, conn_->query("SELECT c.id, r.uuid, c.key, c.data, c.checksum, r.status "
                                      "FROM series_cache c JOIN runs r ON r.id = c.run_id ORDER "
                                      "BY c.id"));
    for (int r = 0; r < rows.size(); ++r) {
      const std::string where = "series_cache row " + std::to_string(rows.int64(r, 0));
      ++report.series_cache_entries;
      verify(where, rows, r, 4,
             series_cache_checksum(rows.text(r, 1), rows.text(r, 2), rows.bytes(r, 3)));
      if (rows.text(r, 5) == "running")
        report.problems.push_back(
            {"invariant", where + ": an entry for a run that is still running"});
    }
  }
  if (schema_version_ >= kRunCountsVersion) {
    const auto live = run_counts_sql("c.run_id");
    BG_ASSIGN(Rows rows, conn_->query("SELECT c.run_id, c.benchmarks, c.instances, " +
                                      live.benchmarks + ", " + live.instances +
                                      ", r.status FROM run_counts c JOIN runs r ON r.id = "
                                      "c.run_id ORDER BY c.run_id"));
    for (int r = 0; r < rows.size(); ++r) {
      const std::string where = "run_counts row " + std::to_string(rows.int64(r, 0));
      if (rows.int64(r, 1) != rows.int64(r, 3) || rows.int64(r, 2) != rows.int64(r, 4))
        problem("invariant", fmt::format("{}: holds {} benchmarks and {} instances where its "
                                         "rows give {} and {}",
                                         where, rows.int64(r, 1), rows.int64(r, 2),
                                         rows.int64(r, 3), rows.int64(r, 4)));
      if (rows.text(r, 5) == "running")
        problem("invariant", where + ": counts of a run still running");
    }
  }
  // Not problems, but worth knowing.
  BG_ASSIGN(auto gone, gone_runs());
  for (const auto& g : gone)
    report.notes.push_back("runs row " + std::to_string(g.first) +
                           ": running, but its writer's connection is gone: it reads as "
                           "interrupted, and the next write marks it");
  if (report.checksums_absent > 0)
    report.notes.push_back(std::to_string(report.checksums_absent) +
                           " row(s) hold no checksum and are not verified");
  BG_TRY(snapshot.commit());
  return report;
}

Result<CheckReport> check_pg_store(const std::string& url) {
  BG_ASSIGN(std::unique_ptr<Store> store,
            open_pg_store(url, OpenOptions{.create = false, .migrate = false, .read_only = true}));
  return static_cast<PgStore&>(*store).check();
}

}  // namespace benchguard::store::postgres
