// Reading runs back: list_runs, the runs a reference may name, a run's rows.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "store/run_counts.hpp"
#include "store/sql_rows.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

// Reads every row of a key/value table for one run, in insertion order.
Result<KeyValues> read_key_values(Db& db, std::string_view sql, int64_t run_id) {
  BG_ASSIGN(Stmt stmt, db.prepare(sql));
  stmt.bind(1, run_id);
  KeyValues out;
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return out;
    out.emplace_back(stmt.text(0), stmt.text(1));
  }
}

}  // namespace

Result<std::vector<RunSummary>> SqliteStore::list_runs(const ListOptions& options) {
  BG_TRY(require_readable());
  BG_ASSIGN(Transaction snapshot, Transaction::begin_read(*db_));
  std::vector<RunSummary> runs;
  std::unordered_map<int64_t, size_t> position;
  // An ended run's counts are kept (0013); others' are counted from their rows.
  const bool kept_counts = options.counts && schema_version_ >= kRunCountsVersion;
  {
    static const std::string counted = ", " + kept_counts_sql();
    BG_ASSIGN(Stmt stmt,
              db_->prepare("SELECT r.id, r.uuid, r.started_at, r.finished_at, r.status, r.suite, "
                           "r.hostname, r.git_commit, r.git_branch" +
                           (kept_counts ? counted : std::string(" FROM runs r ")) +
                           "ORDER BY r.started_at DESC, r.id DESC"));
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      RunSummary s = run_summary_from(stmt);
      if (kept_counts) {
        s.benchmarks = static_cast<int>(stmt.int64(9));
        s.instances = static_cast<int>(stmt.int64(10));
      }
      position.emplace(s.id, runs.size());
      runs.push_back(std::move(s));
    }
  }
  BG_ASSIGN(Stmt labels, db_->prepare("SELECT run_id, key, value FROM run_labels ORDER BY id"));
  while (true) {
    BG_ASSIGN(bool row, labels.step());
    if (!row) break;
    if (auto it = position.find(labels.int64(0)); it != position.end())
      runs[it->second].labels.emplace_back(labels.text(1), labels.text(2));
  }
  if (options.counts && !kept_counts) BG_TRY(count_runs(runs, position));
  BG_TRY(apply_effective_status(runs));
  BG_TRY(snapshot.commit());
  return runs;
}

// Each run's benchmarks that measured something (an instance, or a summary record) and its
// instances: the variants, the instances' counts and the summarised variants read side by
// side in the order of their ids (the instances' index gives them so), in about two thirds
// of the time a count per run takes on a history of 1,000,000 variants.
Status SqliteStore::count_runs(std::vector<RunSummary>& runs,
                               const std::unordered_map<int64_t, size_t>& position) {
  BG_ASSIGN(Stmt variants, db_->prepare("SELECT id, run_id, benchmark_id FROM variants "
                                        "ORDER BY id"));
  BG_ASSIGN(Stmt counted, db_->prepare("SELECT variant_id, COUNT(*) FROM instances "
                                       "GROUP BY variant_id ORDER BY variant_id"));
  BG_ASSIGN(bool have_count, counted.step());
  std::optional<Stmt> summarised;
  bool have_summary = false;
  if (schema_version_ >= kSummaryVersion) {
    auto prepared = db_->prepare("SELECT DISTINCT variant_id FROM summaries ORDER BY variant_id");
    if (!prepared.ok()) return prepared.error();
    summarised.emplace(std::move(prepared).value());
    BG_ASSIGN(have_summary, summarised->step());
  }
  std::vector<std::pair<int64_t, int64_t>> measuring;  // (run, benchmark)
  while (true) {
    BG_ASSIGN(bool row, variants.step());
    if (!row) break;
    const int64_t id = variants.int64(0);
    while (have_count && counted.int64(0) < id) {
      BG_ASSIGN(have_count, counted.step());
    }
    while (have_summary && summarised->int64(0) < id) {
      BG_ASSIGN(have_summary, summarised->step());
    }
    const int64_t instances = have_count && counted.int64(0) == id ? counted.int64(1) : 0;
    if (instances == 0 && !(have_summary && summarised->int64(0) == id)) continue;
    const int64_t run = variants.int64(1);
    measuring.emplace_back(run, variants.int64(2));
    if (const auto it = position.find(run); it != position.end())
      runs[it->second].instances += static_cast<int>(instances);
  }
  // Distinct benchmarks of a run.
  std::sort(measuring.begin(), measuring.end());
  measuring.erase(std::unique(measuring.begin(), measuring.end()), measuring.end());
  for (const auto& [run, benchmark] : measuring)
    if (const auto it = position.find(run); it != position.end()) ++runs[it->second].benchmarks;
  return ok_status();
}

Result<std::string> SqliteStore::measurements_stamp() {
  BG_TRY(require_readable());
  const std::string summaries =
      schema_version_ >= kSummaryVersion ? "(SELECT IFNULL(MAX(id), 0) FROM summaries)" : "0";
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT (SELECT IFNULL(MAX(id), 0) FROM instances), " +
                                    summaries + ", (SELECT COUNT(*) FROM variants)"));
  BG_ASSIGN(bool row, stmt.step());
  if (!row) return error("no row from the measurements' stamp");
  return fmt::format("{}:{}:{}", stmt.int64(0), stmt.int64(1), stmt.int64(2));
}

Status SqliteStore::each_row(const std::string& sql,
                             const std::function<void(const SqlRow&)>& row) {
  BG_ASSIGN(Stmt stmt, db_->prepare(sql));
  const SqlRowOf<Stmt> current(stmt);
  while (true) {
    BG_ASSIGN(bool more, stmt.step());
    if (!more) return ok_status();
    row(current);
  }
}

Result<std::vector<std::pair<int64_t, std::string>>> SqliteStore::find_runs(
    RunMatch match, const std::string& ref) {
  // By RunMatch: the newest, by id, by uuid, by uuid prefix.
  static const char* const kSql[] = {
      "SELECT id, uuid FROM runs ORDER BY started_at DESC, id DESC LIMIT 1",
      "SELECT id, uuid FROM runs WHERE id = ?", "SELECT id, uuid FROM runs WHERE uuid = ?",
      ("SELECT id, uuid FROM runs WHERE lower(substr(uuid, 1, length(?1))) = lower(?1) ORDER BY "
       "uuid LIMIT 4")};
  BG_ASSIGN(Stmt stmt, db_->prepare(kSql[static_cast<int>(match)]));
  if (match == RunMatch::kId) stmt.bind(1, std::stoll(ref));
  if (match == RunMatch::kUuid || match == RunMatch::kUuidPrefix) stmt.bind(1, ref);
  std::vector<std::pair<int64_t, std::string>> matches;
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return matches;
    matches.emplace_back(stmt.int64(0), stmt.text(1));
  }
}

Result<RunRecord> SqliteStore::read_run_record(int64_t run_id) {
  RunRecord r;
  {
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT uuid, started_at, finished_at, status, suite, "
                                      "suite_path, hostname, git_commit, git_branch, git_dirty, "
                                      "command_line FROM runs WHERE id = ?"));
    BG_ASSIGN(bool row, stmt.bind(1, run_id).step());
    if (!row) return error("no run with id " + std::to_string(run_id));
    r = run_record_from(stmt);
  }
  BG_ASSIGN(r.labels,
            read_key_values(*db_, "SELECT key, value FROM run_labels WHERE run_id = ? ORDER BY id",
                            run_id));
  BG_ASSIGN(r.artifacts,
            read_key_values(*db_, "SELECT key, value FROM artifacts WHERE run_id = ? ORDER BY id",
                            run_id));
  return r;
}

Result<RunData> SqliteStore::read_run(int64_t run_id, const LoadOptions& options) {
  RunData data;
  data.id = run_id;
  BG_ASSIGN(data.run, read_run_record(run_id));
  BG_TRY(apply_effective_status(data.run, run_id));
  BG_ASSIGN(std::vector<int64_t> variant_ids, read_variants(run_id, data));
  BG_TRY(read_instances(run_id, variant_ids, data, options));
  return data;
}

Result<std::vector<int64_t>> SqliteStore::read_variants(int64_t run_id, RunData& data) {
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT v.id, b.name, v.name, v.command, v.params, v.env, "
                                    "v.config_json FROM variants v JOIN benchmarks b ON b.id = "
                                    "v.benchmark_id WHERE v.run_id = ? ORDER BY v.id"));
  stmt.bind(1, run_id);
  std::vector<int64_t> ids;
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return ids;
    ids.push_back(stmt.int64(0));
    auto v = variant_from(stmt);
    if (!v.ok()) return error(v.error().message);
    data.variants.push_back(VariantData{std::move(v).value(), {}, {}, {}, {}});
  }
}

}  // namespace benchguard::store::sqlite
