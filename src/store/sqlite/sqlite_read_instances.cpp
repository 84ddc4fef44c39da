// Reading a run's measurements: instances, their iterations and metric values. Each level
// is one query over the whole run, joined to its parents by id in memory. The caller holds
// a read transaction, so the levels agree; rows without a parent are skipped regardless.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/instance_table.hpp"
#include "store/sql_rows.hpp"
#include "store/sqlite/iteration_columns.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {

namespace {

using InstanceMap = std::unordered_map<int64_t, InstanceRecord*>;
using MetricNames = std::unordered_map<int64_t, std::string>;

// Before 0009: iterations with their metric values in one pass, a row per (iteration, metric).
// The order is the one the indexes give (variant, instance id, iteration id, metric id), so
// SQLite sorts nothing and each instance's and iteration's rows arrive together.
Status read_iteration_rows(Db& db, int64_t run_id, const InstanceMap& instances,
                           const MetricNames& metric_names) {
  BG_ASSIGN(Stmt stmt, db.prepare("SELECT i.id, it.id, it.idx, it.start_ns, it.end_ns, it.burn_in, "
                                  "it.timed_out, it.failure, mv.metric_id, mv.value "
                                  "FROM variants v JOIN instances i ON i.variant_id = v.id "
                                  "JOIN iterations it ON it.instance_id = i.id "
                                  "LEFT JOIN metric_values mv ON mv.iteration_id = it.id "
                                  "WHERE v.run_id = ? "
                                  "ORDER BY v.benchmark_id, v.name, i.id, it.id, mv.metric_id"));
  stmt.bind(1, run_id);
  int64_t instance_id = 0, iteration_id = 0, metric = 0;
  InstanceRecord* owner = nullptr;
  const std::string* metric_name = nullptr;
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) break;
    if (const int64_t id = stmt.int64(0); owner == nullptr || id != instance_id) {
      const auto found = instances.find(id);
      if (found == instances.end()) continue;
      owner = found->second;
      instance_id = id;
      iteration_id = 0;
    }
    if (const int64_t id = stmt.int64(1); owner->iterations.empty() || id != iteration_id) {
      owner->iterations.push_back(iteration_from_row(stmt, 2));
      iteration_id = id;
    }
    if (stmt.is_null(8)) continue;  // an iteration without metric values
    if (metric_name == nullptr || stmt.int64(8) != metric) {
      metric = stmt.int64(8);
      const auto name = metric_names.find(metric);
      metric_name = name == metric_names.end() ? nullptr : &name->second;
      if (metric_name == nullptr) continue;
    }
    // NULL is how a NaN was stored.
    const double value = real_or_nan(stmt, 9);
    owner->iterations.back().metrics.emplace_back(*metric_name, value);
  }
  return ok_status();
}

// From 0009: the iteration_blocks rows, then the iteration_values rows, of the run's range of
// instance ids, both in id order (their primary keys' order: SQLite sorts nothing, and
// instances without iterations cost no lookup). A range may hold another run's instances,
// written while this one was; they are skipped. Arrays are decoded straight from the rows:
// into records, or with `options.columns` into InstanceRecord::columns for an instance of at
// least kColumnsFrom iterations (fewer cost less as records than as five arrays) not timed
// from outside (whose one record the caller completes).
constexpr int64_t kColumnsFrom = 32;

// The smallest and the largest id of `instances` (not empty): the range a read walks.
std::pair<int64_t, int64_t> id_range(const InstanceMap& instances) {
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const auto& [id, instance] : instances) {
    first = std::min(first, id);
    last = std::max(last, id);
  }
  return {first, last};
}

// The counts (0012) of the instances in `instances`, in the order they were measured.
Status read_instance_counts(Db& db, const InstanceMap& instances, const MetricNames& metric_names) {
  if (instances.empty()) return ok_status();
  const auto [first, last] = id_range(instances);
  BG_ASSIGN(Stmt stmt, db.prepare("SELECT instance_id, metric_id, value FROM instance_counts "
                                  "WHERE instance_id BETWEEN ? AND ? ORDER BY instance_id, "
                                  "position"));
  stmt.bind_all(first, last);
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return ok_status();
    const auto found = instances.find(stmt.int64(0));
    if (found == instances.end()) continue;
    const auto name = metric_names.find(stmt.int64(1));
    if (name == metric_names.end())
      return Error{"instance_counts row of instance " + std::to_string(stmt.int64(0)) +
                   " names metric id " + std::to_string(stmt.int64(1)) + ", which is not stored"};
    found->second->counts.emplace_back(name->second, stmt.int64(2));
  }
}

Status read_iteration_columns(Db& db, const InstanceMap& instances, const MetricNames& metric_names,
                              const LoadOptions& options) {
  if (instances.empty()) return ok_status();
  const auto [first, last] = id_range(instances);
  const auto optional_blob = [](Stmt& stmt, int col) -> std::optional<std::string_view> {
    if (stmt.is_null(col)) return std::nullopt;
    return stmt.blob(col);
  };
  const auto where = [](int64_t id, const Error& e) {
    return Error{"iteration_blocks row " + std::to_string(id) + ": " + e.message};
  };
  // The instances read into columns, filled in while their values are read.
  std::unordered_map<int64_t, IterationColumns*> columns;
  {
    BG_ASSIGN(Stmt stmt, db.prepare("SELECT instance_id, count, idx, start_ns, end_ns, flags, "
                                    "failures FROM iteration_blocks WHERE instance_id BETWEEN ? "
                                    "AND ? ORDER BY instance_id"));
    stmt.bind_all(first, last);
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      const auto found = instances.find(stmt.int64(0));
      if (found == instances.end()) continue;
      BlockView block;
      block.count = stmt.int64(1);
      block.idx = optional_blob(stmt, 2);
      block.start_ns = stmt.blob(3);
      block.end_ns = stmt.blob(4);
      block.flags = optional_blob(stmt, 5);
      block.failures = optional_blob(stmt, 6);
      InstanceRecord& in = *found->second;
      if (options.columns && block.count >= kColumnsFrom && !in.timed_outside) {
        auto c = std::make_shared<IterationColumns>();
        if (auto s = unpack_columns(block, *c); !s.ok()) return where(stmt.int64(0), s.error());
        columns.emplace(found->first, c.get());
        in.columns = std::move(c);
      } else if (auto s = unpack_iterations(block, in.iterations); !s.ok()) {
        return where(stmt.int64(0), s.error());
      }
    }
  }
  BG_ASSIGN(Stmt stmt, db.prepare("SELECT instance_id, metric_id, present, data FROM "
                                  "iteration_values WHERE instance_id BETWEEN ? AND ? "
                                  "ORDER BY instance_id, metric_id"));
  stmt.bind_all(first, last);
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return ok_status();
    const auto found = instances.find(stmt.int64(0));
    const auto name = metric_names.find(stmt.int64(1));
    if (found == instances.end() || name == metric_names.end()) continue;
    const auto column = columns.find(found->first);
    if (auto s = column != columns.end()
                     ? unpack_metric_column(name->second, optional_blob(stmt, 2), stmt.blob(3),
                                            *column->second)
                     : unpack_metric(name->second, optional_blob(stmt, 2), stmt.blob(3),
                                     found->second->iterations);
        !s.ok())
      return Error{"iteration_values row " + std::to_string(stmt.int64(0)) + "/" +
                   std::to_string(stmt.int64(1)) + ": " + s.error().message};
  }
}

}  // namespace

Result<std::vector<std::pair<int64_t, MetricInfo>>> SqliteStore::read_metrics() {
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT id, name, unit, direction FROM metrics ORDER BY id"));
  std::vector<std::pair<int64_t, MetricInfo>> out;
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return out;
    out.emplace_back(stmt.int64(0),
                     MetricInfo{stmt.text(1), stmt.text(2), direction_of(stmt.text(3))});
  }
}

// The run's instances with ids in [first, last] (all of them without a range), appended to
// their variants' records in id order.
Status SqliteStore::read_instance_rows(int64_t run_id,
                                       const std::unordered_map<int64_t, size_t>& variant_pos,
                                       const std::unordered_map<int64_t, std::string>& metric_names,
                                       RunData& data, const LoadOptions& options,
                                       std::optional<std::pair<int64_t, int64_t>> ids) {
  // Instances first, in index order (each variant's by id; nothing to sort); pointers to them
  // are taken only once every vector has stopped growing.
  std::vector<std::pair<int64_t, std::pair<size_t, size_t>>> instance_slots;
  if (!ids) {
    // Each variant's room at once: a million instance records are not moved twenty times.
    BG_ASSIGN(Stmt count, db_->prepare("SELECT i.variant_id, COUNT(*) FROM instances i JOIN "
                                       "variants v ON v.id = i.variant_id WHERE v.run_id = ? "
                                       "GROUP BY i.variant_id"));
    count.bind(1, run_id);
    size_t total = 0;
    while (true) {
      BG_ASSIGN(bool row, count.step());
      if (!row) break;
      const auto n = static_cast<size_t>(count.int64(1));
      total += n;
      if (const auto v = variant_pos.find(count.int64(0)); v != variant_pos.end())
        data.variants[v->second].instances.reserve(n);
    }
    instance_slots.reserve(total);
  }
  {
    const std::string columns =
        "SELECT i.id, i.variant_id, i.idx, i.schedule_order, i.start_ns, i.end_ns, "
        "i.started_at, i.exit_code, i.signal, i.timed_out, i.failure, i.user_s, i.sys_s, "
        "i.max_rss_bytes, i.mem_peak_bytes, i.mem_avg_bytes, i.mem_samples, i.instructions, "
        "i.cycles, i.cpus, i.schedule_tag, i.schedule, i.timed_outside, " +
        std::string(schema_version_ >= kRssFloorVersion ? "i.rss_floor_bytes" : "0") +
        std::string(schema_version_ >= kMemSourceVersion ? ", i.mem_source" : ", ''") +
        std::string(schema_version_ >= kHookTimesVersion ? ", i.prepare_s, i.conclude_s"
                                                         : ", 0.0, 0.0");
    // A slice walks the instances' primary key (CROSS JOIN keeps it the outer loop).
    BG_ASSIGN(
        Stmt stmt,
        db_->prepare(ids ? columns + " FROM instances i CROSS JOIN variants v ON v.id = "
                                     "i.variant_id WHERE i.id BETWEEN ? AND ? AND v.run_id = ? "
                                     "ORDER BY i.id"
                         : columns + " FROM instances i JOIN variants v ON v.id = i.variant_id "
                                     "WHERE v.run_id = ? ORDER BY v.benchmark_id, v.name, i.id"));
    if (ids)
      stmt.bind_all(ids->first, ids->second, run_id);
    else
      stmt.bind(1, run_id);
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      InstanceRecord in = instance_from(stmt);
      const auto variant = variant_pos.find(stmt.int64(1));
      if (variant == variant_pos.end()) continue;
      const size_t v = variant->second;
      instance_slots.push_back({stmt.int64(0), {v, data.variants[v].instances.size()}});
      data.variants[v].instances.push_back(std::move(in));
    }
  }
  InstanceMap instances;
  instances.reserve(instance_slots.size());
  for (const auto& [id, slot] : instance_slots)
    instances.emplace(id, &data.variants[slot.first].instances[slot.second]);

  if (schema_version_ >= kIterationColumnsVersion)
    BG_TRY(read_iteration_columns(*db_, instances, metric_names, options));
  else
    BG_TRY(read_iteration_rows(*db_, run_id, instances, metric_names));
  if (schema_version_ >= kInstanceCountsVersion)
    BG_TRY(read_instance_counts(*db_, instances, metric_names));
  for (auto& v : data.variants) complete_outside_iterations(v.instances);
  return ok_status();
}

Status SqliteStore::read_instances(int64_t run_id, const std::vector<int64_t>& variant_ids,
                                   RunData& data, const LoadOptions& options) {
  std::unordered_map<int64_t, size_t> variant_pos;
  for (size_t i = 0; i < variant_ids.size(); ++i) variant_pos.emplace(variant_ids[i], i);

  BG_ASSIGN(auto metrics, read_metrics());
  MetricNames metric_names;
  for (const auto& [id, m] : metrics) metric_names.emplace(id, m.name);

  // Each stored metric a variant's iterations carry, in the order first met; with
  // `instance_table`, the records read so far then move into their variant's table.
  std::vector<std::vector<std::string>> met(data.variants.size());
  std::vector<InstanceTable> tables(options.instance_table ? data.variants.size() : 0);
  const auto take_records = [&] {
    for (size_t v = 0; v < data.variants.size(); ++v) {
      auto& records = data.variants[v].instances;
      for (const auto& in : records) IterationsView(in).add_metric_names(met[v]);
      if (tables.empty()) continue;
      for (const auto& in : records) tables[v].push_back(in);
      records.clear();
    }
  };

  if (options.instance_table && schema_version_ >= kIterationColumnsVersion) {
    // A slice of ids at a time: the records of one slice are all that is held beside the
    // tables.
    BG_ASSIGN(Stmt span, db_->prepare("SELECT i.variant_id, COUNT(*), MIN(i.id), MAX(i.id) FROM "
                                      "instances i JOIN variants v ON v.id = i.variant_id "
                                      "WHERE v.run_id = ? GROUP BY i.variant_id"));
    span.bind(1, run_id);
    int64_t first = INT64_MAX, last = INT64_MIN;
    while (true) {
      BG_ASSIGN(bool row, span.step());
      if (!row) break;
      if (const auto v = variant_pos.find(span.int64(0)); v != variant_pos.end())
        tables[v->second].reserve(static_cast<size_t>(span.int64(1)));
      first = std::min(first, span.int64(2));
      last = std::max(last, span.int64(3));
    }
    LoadOptions slice_options = options;
    slice_options.columns = true;
    const int64_t slice = std::max<int64_t>(options.table_slice, 1);
    for (int64_t lo = first; lo <= last; lo += slice) {
      const int64_t hi = lo > last - (slice - 1) ? last : lo + (slice - 1);
      BG_TRY(
          read_instance_rows(run_id, variant_pos, metric_names, data, slice_options, {{lo, hi}}));
      take_records();
    }
  } else {
    BG_TRY(read_instance_rows(run_id, variant_pos, metric_names, data, options, std::nullopt));
    take_records();
  }
  for (size_t v = 0; v < tables.size(); ++v) {
    data.variants[v].instances.shrink_to_fit();
    tables[v].shrink_to_fit();
    data.variants[v].table = std::make_shared<const InstanceTable>(std::move(tables[v]));
  }
  if (schema_version_ >= kSummaryVersion) {
    BG_ASSIGN(Stmt stmt,
              db_->prepare("SELECT s.variant_id, s.metric_id, s.count, s.mean, s.stddev, "
                           "s.median, s.min, s.max FROM summaries s JOIN variants v "
                           "ON v.id = s.variant_id WHERE v.run_id = ? ORDER BY s.id"));
    stmt.bind(1, run_id);
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      const auto variant = variant_pos.find(stmt.int64(0));
      const auto name = metric_names.find(stmt.int64(1));
      if (variant == variant_pos.end() || name == metric_names.end()) continue;
      data.variants[variant->second].summaries.push_back(summary_from(stmt, name->second));
    }
  }
  std::unordered_map<std::string_view, const MetricInfo*> by_name;
  for (const auto& [id, m] : metrics) by_name.emplace(m.name, &m);
  for (size_t i = 0; i < data.variants.size(); ++i) {
    auto& v = data.variants[i];
    // Each stored metric the variant's iterations (then its summaries) carry, as described in
    // the store, in the order first met.
    for (const auto& s : v.summaries)
      if (std::find(met[i].begin(), met[i].end(), s.metric) == met[i].end())
        met[i].push_back(s.metric);
    for (const auto& name : met[i])
      if (const auto known = by_name.find(name); known != by_name.end())
        v.metrics.push_back(*known->second);
  }
  return ok_status();
}

}  // namespace benchguard::store::sqlite
