// Reading runs back from PostgreSQL: list_runs, the runs a reference may name, a run's rows.
// Each level of a run (variants, instances, iteration blocks, iteration values, summaries) is one
// query in one read-only transaction, joined to its parents by id in memory. Iteration arrays are
// decoded straight from the binary results, into records or (LoadOptions::columns) into
// InstanceRecord::columns, as the SQLite reader does.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "store/postgres/pg_store.hpp"
#include "store/run_counts.hpp"
#include "store/sql_rows.hpp"
#include "store/sqlite/iteration_columns.hpp"

namespace benchguard::store::postgres {
namespace {

using sqlite::BlockView;

// Instances of fewer iterations cost less as records than as columns (as in SQLite).
constexpr int64_t kColumnsFrom = 32;

}  // namespace

Result<std::vector<RunSummary>> PgStore::list_runs(const ListOptions& options) {
  BG_TRY(require_readable());
  BG_ASSIGN(Transaction snapshot, Transaction::begin(*conn_, /*read_only=*/true));
  std::vector<RunSummary> runs;
  std::unordered_map<int64_t, size_t> position;
  {
    // An ended run's counts are kept (0013); others' are counted from their rows.
    std::string counts = "0, 0 FROM runs r ";
    if (options.counts && schema_version_ >= kRunCountsVersion) {
      counts = kept_counts_sql();
    } else if (options.counts) {
      const auto live = run_counts_sql("r.id");
      counts = live.benchmarks + ", " + live.instances + " FROM runs r ";
    }
    BG_ASSIGN(Rows rows,
              conn_->query("SELECT r.id, r.uuid, r.started_at, r.finished_at, r.status, r.suite, "
                           "r.hostname, r.git_commit, r.git_branch, " +
                           counts + "ORDER BY r.started_at DESC, r.id DESC"));
    for (int r = 0; r < rows.size(); ++r) {
      RunSummary s = run_summary_from(Row(rows, r));
      s.benchmarks = static_cast<int>(rows.int64(r, 9));
      s.instances = static_cast<int>(rows.int64(r, 10));
      position.emplace(s.id, runs.size());
      runs.push_back(std::move(s));
    }
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT run_id, key, value FROM run_labels ORDER BY id"));
    for (int r = 0; r < rows.size(); ++r)
      if (auto it = position.find(rows.int64(r, 0)); it != position.end())
        runs[it->second].labels.emplace_back(rows.text(r, 1), rows.text(r, 2));
  }
  if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.status == "running"; })) {
    BG_ASSIGN(auto gone, gone_runs());
    mark_gone(runs, gone);
  }
  BG_TRY(snapshot.commit());
  return runs;
}

Result<std::string> PgStore::measurements_stamp() {
  BG_TRY(require_readable());
  BG_ASSIGN(Rows rows, conn_->query("SELECT (SELECT COALESCE(MAX(id), 0) FROM instances), "
                                    "(SELECT COALESCE(MAX(id), 0) FROM summaries), "
                                    "(SELECT COUNT(*) FROM variants)"));
  if (rows.size() == 0) return error("no row from the measurements' stamp");
  return fmt::format("{}:{}:{}", rows.int64(0, 0), rows.int64(0, 1), rows.int64(0, 2));
}

Status PgStore::each_row(const std::string& sql, const std::function<void(const SqlRow&)>& row) {
  BG_ASSIGN(Rows rows, conn_->query(sql));
  for (int r = 0; r < rows.size(); ++r) {
    const Row current(rows, r);
    row(SqlRowOf<Row>(current));
  }
  return ok_status();
}

Result<std::vector<std::pair<int64_t, std::string>>> PgStore::find_runs(RunMatch match,
                                                                        const std::string& ref) {
  // By RunMatch: the newest, by id, by uuid, by uuid prefix.
  static const char* const kSql[] = {
      "SELECT id, uuid FROM runs ORDER BY started_at DESC, id DESC LIMIT 1",
      "SELECT id, uuid FROM runs WHERE id = $1", "SELECT id, uuid FROM runs WHERE uuid = $1",
      ("SELECT id, uuid FROM runs WHERE lower(left(uuid, length($1))) = lower($1) ORDER BY uuid "
       "LIMIT 4")};
  std::vector<Param> params;
  if (match == RunMatch::kId) params.push_back(int8(std::stoll(ref)));
  if (match == RunMatch::kUuid || match == RunMatch::kUuidPrefix) params.push_back(text(ref));
  BG_ASSIGN(Rows rows, conn_->query(kSql[static_cast<int>(match)], params));
  std::vector<std::pair<int64_t, std::string>> matches;
  matches.reserve(static_cast<size_t>(rows.size()));
  for (int r = 0; r < rows.size(); ++r) matches.emplace_back(rows.int64(r, 0), rows.text(r, 1));
  return matches;
}

Result<RunRecord> PgStore::read_run_record(int64_t run_id) {
  RunRecord r;
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT uuid, started_at, finished_at, status, suite, "
                                      "suite_path, hostname, git_commit, git_branch, git_dirty, "
                                      "command_line FROM runs WHERE id = $1",
                                      {int8(run_id)}));
    if (rows.size() == 0) return error("no run with id " + std::to_string(run_id));
    r = run_record_from(Row(rows, 0));
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT key, value FROM run_labels WHERE run_id = $1 ORDER "
                                      "BY id",
                                      {int8(run_id)}));
    for (int i = 0; i < rows.size(); ++i) r.labels.emplace_back(rows.text(i, 0), rows.text(i, 1));
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT key, value FROM artifacts WHERE run_id = $1 ORDER "
                                      "BY id",
                                      {int8(run_id)}));
    for (int i = 0; i < rows.size(); ++i)
      r.artifacts.emplace_back(rows.text(i, 0), rows.text(i, 1));
  }
  return r;
}

Status PgStore::apply_effective_status(RunRecord& run, int64_t run_id) {
  if (run.status != "running") return ok_status();
  BG_ASSIGN(auto gone, gone_runs());
  mark_gone(run, run_id, gone);
  return ok_status();
}

Result<std::optional<std::string>> PgStore::read_series_cache(int64_t run_id,
                                                              const std::string& key) {
  if (schema_version_ < kSeriesCacheVersion) return std::optional<std::string>();
  BG_ASSIGN(Rows rows, conn_->query("SELECT data FROM series_cache WHERE run_id = $1 AND "
                                    "key = $2",
                                    {int8(run_id), text(key)}));
  if (rows.size() == 0) return std::optional<std::string>();
  return std::optional<std::string>(rows.bytes(0, 0));
}

Result<RunData> PgStore::read_run(int64_t run_id, const LoadOptions& options) {
  RunData data;
  data.id = run_id;
  BG_ASSIGN(data.run, read_run_record(run_id));
  BG_TRY(apply_effective_status(data.run, run_id));
  std::vector<int64_t> variant_ids;
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT v.id, b.name, v.name, v.command, v.params, v.env, "
                                      "v.config_json FROM variants v JOIN benchmarks b ON b.id = "
                                      "v.benchmark_id WHERE v.run_id = $1 ORDER BY v.id",
                                      {int8(run_id)}));
    for (int r = 0; r < rows.size(); ++r) {
      variant_ids.push_back(rows.int64(r, 0));
      auto v = variant_from(Row(rows, r));
      if (!v.ok()) return error(v.error().message);
      data.variants.push_back(VariantData{std::move(v).value(), {}, {}, {}, {}});
    }
  }
  BG_TRY(read_instances(run_id, variant_ids, data, options));
  return data;
}

Status PgStore::read_instances(int64_t run_id, const std::vector<int64_t>& variant_ids,
                               RunData& data, const LoadOptions& options) {
  std::unordered_map<int64_t, size_t> variant_pos;
  for (size_t i = 0; i < variant_ids.size(); ++i) variant_pos.emplace(variant_ids[i], i);

  // Instances in index order; pointers to them are taken once every vector is complete.
  std::vector<std::pair<int64_t, std::pair<size_t, size_t>>> slots;
  {
    BG_ASSIGN(Rows rows,
              conn_->query("SELECT i.id, i.variant_id, i.idx, i.schedule_order, i.start_ns, "
                           "i.end_ns, i.started_at, i.exit_code, i.signal, i.timed_out, i.failure, "
                           "i.user_s, i.sys_s, i.max_rss_bytes, i.mem_peak_bytes, i.mem_avg_bytes, "
                           "i.mem_samples, i.instructions, i.cycles, i.cpus, i.schedule_tag, "
                           "i.schedule, i.timed_outside, i.rss_floor_bytes, i.mem_source, "
                           "i.prepare_s, i.conclude_s "
                           "FROM instances i JOIN variants v ON v.id = i.variant_id "
                           "WHERE v.run_id = $1 ORDER BY v.benchmark_id, v.name, i.id",
                           {int8(run_id)}));
    slots.reserve(static_cast<size_t>(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
      const auto variant = variant_pos.find(rows.int64(r, 1));
      if (variant == variant_pos.end()) continue;
      InstanceRecord in = instance_from(Row(rows, r));
      const size_t v = variant->second;
      slots.push_back({rows.int64(r, 0), {v, data.variants[v].instances.size()}});
      data.variants[v].instances.push_back(std::move(in));
    }
  }
  std::unordered_map<int64_t, InstanceRecord*> instances;
  for (const auto& slot : slots)
    instances.emplace(slot.first, &data.variants[slot.second.first].instances[slot.second.second]);

  std::vector<std::pair<int64_t, MetricInfo>> metrics;
  std::unordered_map<int64_t, std::string> metric_names;
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT id, name, unit, direction FROM metrics ORDER BY id"));
    for (int r = 0; r < rows.size(); ++r) {
      metrics.emplace_back(rows.int64(r, 0), MetricInfo{rows.text(r, 1), rows.text(r, 2),
                                                        direction_of(rows.text(r, 3))});
      metric_names.emplace(rows.int64(r, 0), rows.text(r, 1));
    }
  }

  std::unordered_map<int64_t, IterationColumns*> columns;
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT b.instance_id, b.count, b.idx, b.start_ns, b.end_ns, "
                                      "b.flags, b.failures FROM iteration_blocks b JOIN instances "
                                      "i ON i.id = b.instance_id JOIN variants v ON v.id = "
                                      "i.variant_id WHERE v.run_id = $1 ORDER BY b.instance_id",
                                      {int8(run_id)}));
    for (int r = 0; r < rows.size(); ++r) {
      const auto found = instances.find(rows.int64(r, 0));
      if (found == instances.end()) continue;
      BlockView block;
      block.count = rows.int64(r, 1);
      block.idx = rows.optional_bytes(r, 2);
      block.start_ns = rows.bytes(r, 3);
      block.end_ns = rows.bytes(r, 4);
      block.flags = rows.optional_bytes(r, 5);
      block.failures = rows.optional_bytes(r, 6);
      InstanceRecord& in = *found->second;
      const auto where = [&](const Error& e) {
        return error("iteration_blocks row " + std::to_string(found->first) + ": " + e.message);
      };
      if (options.columns && block.count >= kColumnsFrom && !in.timed_outside) {
        auto c = std::make_shared<IterationColumns>();
        if (auto s = sqlite::unpack_columns(block, *c); !s.ok()) return where(s.error());
        columns.emplace(found->first, c.get());
        in.columns = std::move(c);
      } else if (auto s = sqlite::unpack_iterations(block, in.iterations); !s.ok()) {
        return where(s.error());
      }
    }
  }
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT x.instance_id, x.metric_id, x.present, x.data FROM "
                                      "iteration_values x JOIN instances i ON i.id = "
                                      "x.instance_id JOIN variants v ON v.id = i.variant_id WHERE "
                                      "v.run_id = $1 ORDER BY x.instance_id, x.metric_id",
                                      {int8(run_id)}));
    for (int r = 0; r < rows.size(); ++r) {
      const auto found = instances.find(rows.int64(r, 0));
      const auto name = metric_names.find(rows.int64(r, 1));
      if (found == instances.end() || name == metric_names.end()) continue;
      const auto column = columns.find(found->first);
      if (auto s = column != columns.end()
                       ? sqlite::unpack_metric_column(name->second, rows.optional_bytes(r, 2),
                                                      rows.bytes(r, 3), *column->second)
                       : sqlite::unpack_metric(name->second, rows.optional_bytes(r, 2),
                                               rows.bytes(r, 3), found->second->iterations);
          !s.ok())
        return error("iteration_values row " + std::to_string(found->first) + "/" +
                     std::to_string(rows.int64(r, 1)) + ": " + s.error().message);
    }
  }
  if (schema_version_ >= kInstanceCountsVersion) {
    BG_ASSIGN(Rows rows, conn_->query("SELECT c.instance_id, c.metric_id, c.value FROM "
                                      "instance_counts c JOIN instances i ON i.id = "
                                      "c.instance_id JOIN variants v ON v.id = i.variant_id WHERE "
                                      "v.run_id = $1 ORDER BY c.instance_id, c.position",
                                      {int8(run_id)}));
    for (int r = 0; r < rows.size(); ++r) {
      const auto found = instances.find(rows.int64(r, 0));
      if (found == instances.end()) continue;
      const auto name = metric_names.find(rows.int64(r, 1));
      if (name == metric_names.end())
        return error("instance_counts row of instance " + std::to_string(found->first) +
                     " names metric id " + std::to_string(rows.int64(r, 1)) +
                     ", which is not stored");
      found->second->counts.emplace_back(name->second, rows.int64(r, 2));
    }
  }
  for (auto& v : data.variants) complete_outside_iterations(v.instances);
  {
    BG_ASSIGN(Rows rows, conn_->query("SELECT s.variant_id, s.metric_id, s.count, s.mean, "
                                      "s.stddev, s.median, s.min, s.max FROM summaries s JOIN "
                                      "variants v ON v.id = s.variant_id WHERE v.run_id = $1 "
                                      "ORDER BY s.id",
                                      {int8(run_id)}));
    for (int r = 0; r < rows.size(); ++r) {
      const auto variant = variant_pos.find(rows.int64(r, 0));
      const auto name = metric_names.find(rows.int64(r, 1));
      if (variant == variant_pos.end() || name == metric_names.end()) continue;
      data.variants[variant->second].summaries.push_back(summary_from(Row(rows, r), name->second));
    }
  }
  std::unordered_map<std::string_view, const MetricInfo*> by_name;
  for (const auto& m : metrics) by_name.emplace(m.second.name, &m.second);
  for (auto& v : data.variants) {
    std::unordered_set<std::string_view> listed;
    const auto list = [&](const std::string& name) {
      if (listed.contains(name)) return;
      listed.insert(name);
      if (const auto known = by_name.find(name); known != by_name.end())
        v.metrics.push_back(*known->second);
    };
    for (const auto& in : v.instances) {
      if (in.columns)
        for (const auto& c : in.columns->metrics) list(c.name);
      for (const auto& it : in.iterations)
        for (const auto& m : it.metrics) list(m.first);
    }
    for (const auto& s : v.summaries) list(s.metric);
  }
  return ok_status();
}

}  // namespace benchguard::store::postgres
