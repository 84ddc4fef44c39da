#include "store/store_core.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <unordered_map>

#include "store/sql_rows.hpp"
#include "store/sqlite/json_columns.hpp"

namespace benchguard::store {
namespace {

// A run id as a reference gives it: digits only, and few enough to fit.
bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 19 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void mark_gone(std::vector<RunSummary>& runs, const GoneRuns& gone) {
  const std::unordered_map<int64_t, int64_t> ends(gone.begin(), gone.end());
  for (auto& r : runs) {
    const auto it = ends.find(r.id);
    if (it == ends.end() || r.status != "running") continue;
    r.status = "interrupted";
    r.finished_at = it->second;
  }
}

void mark_gone(RunRecord& run, int64_t run_id, const GoneRuns& gone) {
  if (run.status != "running") return;
  for (const auto& [id, end] : gone) {
    if (id != run_id) continue;
    run.status = "interrupted";
    run.finished_at = end;
  }
}

void complete_outside_iterations(std::vector<InstanceRecord>& instances) {
  for (auto& in : instances) {
    if (!in.timed_outside) continue;
    // Stored as the instance's columns alone (0004), or as one row without metric values.
    if (in.iterations.empty())
      in.iterations.push_back(outside_iteration(in));
    else if (in.iterations.size() == 1 && in.iterations[0].metrics.empty())
      in.iterations[0].metrics = outside_metrics(in);
  }
}

// ---------------------------------------------------------------- writing

Status StoreCore::require_writable() const {
  if (!read_only_) return ok_status();
  return error("opened read-only; this command cannot write to the database");
}

Error StoreCore::schema_error(const std::string& is, int other,
                              const std::string& migrate_args) const {
  return error("database schema version " + std::to_string(schema_version_) + " " + is + " (" +
               std::to_string(other) + "); run `benchguard db migrate" + migrate_args + "`");
}

Status StoreCore::before_write() {
  BG_TRY(require_writable());
  BG_TRY(require_latest());
  return flush();
}

Result<int64_t> StoreCore::insert_run(const RunRecord& run) {
  if (run.uuid.empty()) return error("cannot store a run without a uuid");
  BG_ASSIGN(bool taken, has_run(run.uuid));
  if (taken) return error("a run with uuid " + run.uuid + " is already stored");
  RunRecord stored = run;
  if (stored.status.empty()) stored.status = "running";
  BG_ASSIGN(int64_t run_id, insert_run_row(stored, run_checksum(stored)));
  BG_TRY(insert_run_values("run_labels", run_id, run.labels));
  BG_TRY(insert_run_values("artifacts", run_id, run.artifacts));
  return run_id;
}

Result<int64_t> StoreCore::insert_variant(int64_t run_id, const VariantRecord& variant) {
  BG_ASSIGN(int64_t bench, benchmark_id(variant.benchmark));
  BG_ASSIGN(bool taken, has_variant(run_id, bench, variant.name));
  if (taken)
    return error("run " + std::to_string(run_id) + " already has variant '" + variant.name +
                 "' of benchmark '" + variant.benchmark + "'");
  BG_ASSIGN(std::optional<std::string> uuid, run_uuid(run_id));
  if (!uuid) return error("no run with id " + std::to_string(run_id));
  const VariantColumns columns{std::move(*uuid),
                               variant.benchmark,
                               variant.name,
                               sqlite::command_to_json(variant.command),
                               sqlite::key_values_to_json(variant.params),
                               sqlite::key_values_to_json(variant.env),
                               variant.config_json};
  BG_ASSIGN(int64_t id, insert_variant_row(run_id, bench, columns, variant_checksum(columns)));
  variant_keys_[id] = variant_key(columns.run_uuid, variant.benchmark, variant.name);
  return id;
}

Result<std::string> StoreCore::variant_key_of(int64_t variant_id) {
  if (auto it = variant_keys_.find(variant_id); it != variant_keys_.end()) return it->second;
  BG_ASSIGN(std::optional<std::string> key, stored_variant_key(variant_id));
  if (!key) return error("no variant with id " + std::to_string(variant_id));
  variant_keys_.emplace(variant_id, *key);
  return std::move(*key);
}

Result<int64_t> StoreCore::metric_id(const std::string& name) {
  if (auto it = metric_ids_.find(name); it != metric_ids_.end()) return it->second;
  BG_ASSIGN(int64_t id, stored_metric_id(name));
  metric_ids_.emplace(name, id);
  return id;
}

Result<int64_t> StoreCore::insert_run_data(const RunData& data) {
  BG_ASSIGN(int64_t run_id, insert_run(data.run));
  for (const auto& v : data.variants) {
    BG_ASSIGN(int64_t variant_id, insert_variant(run_id, v.variant));
    for (const auto& instance : v.instances) BG_TRY(insert_instance(variant_id, instance));
    for (const auto& summary : v.summaries) BG_TRY(insert_summary(variant_id, summary));
  }
  if (data.run.status != "running") BG_TRY(keep_run_counts(run_id, run_counts_of(data)));
  return run_id;
}

Result<int64_t> StoreCore::add_variant(int64_t run_id, const VariantRecord& variant) {
  BG_TRY(before_write());
  int64_t variant_id = 0;
  auto written = in_write_transaction([&]() -> Status {
    BG_ASSIGN(variant_id, insert_variant(run_id, variant));
    return ok_status();
  });
  if (!written.ok()) {
    clear_caches();  // a key cached in the rolled-back transaction is gone
    return written.error();
  }
  return variant_id;
}

Status StoreCore::declare_metrics(const std::vector<MetricInfo>& metrics) {
  BG_TRY(before_write());
  return in_write_transaction([&]() -> Status {
    for (const auto& m : metrics) BG_TRY(insert_metric(m));
    return ok_status();
  });
}

Result<std::vector<int64_t>> StoreCore::add_runs(const std::vector<RunData>& runs,
                                                 const std::vector<MetricInfo>& metrics) {
  BG_TRY(before_write());
  std::vector<int64_t> ids;
  auto written = in_write_transaction([&]() -> Status {
    for (const auto& m : metrics) BG_TRY(insert_metric(m));
    for (const auto& data : runs) {
      BG_ASSIGN(int64_t id, insert_run_data(data));
      ids.push_back(id);
    }
    return ok_status();
  });
  if (!written.ok()) {
    clear_caches();  // ids created in the rolled-back transaction are gone
    return write_failed(written.error(), "none of the runs was stored");
  }
  return ids;
}

Result<MergeCounts> StoreCore::merge_runs(
    const std::vector<MetricInfo>& metrics, const std::vector<RunSummary>& runs,
    const std::function<Result<RunData>(const RunSummary&)>& read) {
  MergeCounts counts;
  // One transaction for everything: a failure leaves this database as it was.
  auto merged = in_write_transaction([&]() -> Status {
    // Metrics the target lacks arrive with their unit and direction.
    for (const auto& m : metrics) BG_TRY(insert_metric(m));
    // Oldest first, so that ids here grow with time as they did there.
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      BG_ASSIGN(bool present, has_run(it->uuid));
      if (present) {
        ++counts.runs_skipped;
        continue;
      }
      BG_ASSIGN(RunData data, read(*it));
      BG_TRY(insert_run_data(data));
      for (const auto& v : data.variants)
        counts.instances_added += static_cast<int64_t>(v.instances.size());
      ++counts.runs_added;
    }
    return ok_status();
  });
  if (!merged.ok()) {
    clear_caches();  // ids created in the rolled-back transaction are gone
    return write_failed(merged.error(), "nothing was merged");
  }
  return counts;
}

// ---------------------------------------------------------------- reading

Result<int64_t> StoreCore::resolve_ref(const std::string& ref) {
  if (ref.empty() || ref == "latest") {
    BG_ASSIGN(auto newest, find_runs(RunMatch::kNewest, ref));
    if (newest.empty()) return error("no runs stored yet");
    return newest.front().first;
  }
  if (all_digits(ref)) {
    BG_ASSIGN(auto by_id, find_runs(RunMatch::kId, ref));
    if (!by_id.empty()) return by_id.front().first;
  }
  {
    BG_ASSIGN(auto by_uuid, find_runs(RunMatch::kUuid, ref));
    if (!by_uuid.empty()) return by_uuid.front().first;
  }
  // A uuid prefix, case-insensitive as uuids are hex; a few matches suffice to list.
  BG_ASSIGN(auto matches, find_runs(RunMatch::kUuidPrefix, ref));
  if (matches.empty())
    return error("no run matches '" + ref + "' (give latest, a run id, or a uuid or its prefix)");
  if (matches.size() > 1) {
    std::string listed;
    for (size_t i = 0; i < matches.size() && i < 3; ++i)
      listed += (i ? ", " : "") + matches[i].second;
    if (matches.size() > 3) listed += ", ...";
    return error("run reference '" + ref + "' is ambiguous: it matches " + listed +
                 "; give more of the uuid");
  }
  return matches.front().first;
}

Result<RunData> StoreCore::load_run(const std::string& ref, const LoadOptions& options) {
  BG_TRY(require_readable());
  RunData data;
  BG_TRY(in_snapshot([&]() -> Status {
    BG_ASSIGN(int64_t run_id, resolve_ref(ref));
    BG_ASSIGN(data, read_run(run_id, options));
    return ok_status();
  }));
  return data;
}

Result<CachedRun> StoreCore::load_cached_run(int64_t run_id, const std::string& key,
                                             const LoadOptions& options) {
  BG_TRY(require_readable());
  CachedRun out;
  BG_TRY(in_snapshot([&]() -> Status {
    BG_ASSIGN(out.cache, read_series_cache(run_id, key));
    if (out.cache) {
      out.data.id = run_id;
      BG_ASSIGN(out.data.run, read_run_record(run_id));
      return apply_effective_status(out.data.run, run_id);
    }
    BG_ASSIGN(out.data, read_run(run_id, options));
    return ok_status();
  }));
  return out;
}

// ---------------------------------------------------------------- history

Result<std::vector<SeriesState>> StoreCore::load_series_states() {
  BG_TRY(require_history());
  std::vector<SeriesState> out;
  BG_TRY(
      each_row("SELECT series_key, settings, points, digest, updated_at FROM history_series "
               "ORDER BY series_key",
               [&](const SqlRow& r) {
                 out.push_back({r.text(0), r.text(1), r.int64(2), r.text(3), r.int64(4)});
               }));
  return out;
}

Result<std::vector<ChangeRecord>> StoreCore::load_changes() {
  BG_TRY(require_history());
  std::vector<ChangeRecord> out;
  BG_TRY(
      each_row("SELECT " + kChangeColumns + " FROM change_points ORDER BY series_key, point_index",
               [&](const SqlRow& r) { out.push_back(change_from(r)); }));
  return out;
}

Result<bool> StoreCore::artifact_seen(const std::string& hostname, const std::string& key,
                                      const std::string& value, int64_t except_run) {
  BG_TRY(require_readable());
  // each_row takes no parameters: the texts go in as SQL literals, quotes doubled.
  const auto literal = [](const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  };
  bool seen = false;
  BG_TRY(
      each_row("SELECT 1 FROM artifacts a JOIN artifacts h ON h.run_id = a.run_id WHERE a.key "
               "= " +
                   literal(key) + " AND a.value = " + literal(value) +
                   " AND h.key = 'hostname' AND h.value = " + literal(hostname) +
                   " AND a.run_id <> " + std::to_string(except_run) + " LIMIT 1",
               [&](const SqlRow&) { seen = true; }));
  return seen;
}

Result<std::vector<AckRecord>> StoreCore::load_acks() {
  BG_TRY(require_history());
  std::vector<AckRecord> out;
  BG_TRY(
      each_row("SELECT change_id, reason, acked_at FROM change_acks ORDER BY acked_at, change_id",
               [&](const SqlRow& r) {
                 out.push_back({r.text(0), r.text(1), r.int64(2)});
               }));
  return out;
}

}  // namespace benchguard::store
