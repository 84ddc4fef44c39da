// `benchguard db check`: SQLite's integrity check and foreign keys, the store's own invariants
// and the row checksums (0006), on a read-only connection. Every problem is one line,
// "TABLE row ID: what is wrong".
#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "store/checksum.hpp"
#include "store/run_counts.hpp"
#include "store/sqlite/json_columns.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

constexpr int kChecksumVersion = 6;
constexpr int kSummariesVersion = 8;
constexpr int kRunWritersVersion = 5;

// The storage class each column must hold ("integer", "real", "text", "null").
struct ColumnTypes {
  std::string table;
  std::string key;  // how a row is named in messages
  std::vector<std::pair<std::string, std::vector<std::string>>> columns;
};

const std::vector<std::string> kInt = {"integer"};
const std::vector<std::string> kIntOrNull = {"integer", "null"};
const std::vector<std::string> kReal = {"real", "integer"};
const std::vector<std::string> kRealOrNull = {"real", "integer", "null"};
const std::vector<std::string> kText = {"text"};
const std::vector<std::string> kTextOrNull = {"text", "null"};
const std::vector<std::string> kBlob = {"blob"};
const std::vector<std::string> kBlobOrNull = {"blob", "null"};

std::vector<ColumnTypes> column_types(int version) {
  std::vector<ColumnTypes> out = {
      {"runs",
       "id",
       {{"uuid", kText},
        {"started_at", kInt},
        {"finished_at", kInt},
        {"status", kText},
        {"suite", kText},
        {"suite_path", kText},
        {"hostname", kText},
        {"git_commit", kText},
        {"git_branch", kText},
        {"git_dirty", kInt},
        {"command_line", kText}}},
      {"run_labels", "id", {{"run_id", kInt}, {"key", kText}, {"value", kText}}},
      {"artifacts", "id", {{"run_id", kInt}, {"key", kText}, {"value", kText}}},
      {"benchmarks", "id", {{"name", kText}}},
      {"metrics", "id", {{"name", kText}, {"unit", kText}, {"direction", kText}}},
      {"variants",
       "id",
       {{"run_id", kInt},
        {"benchmark_id", kInt},
        {"name", kText},
        {"command", kText},
        {"params", kText},
        {"env", kText},
        {"config_json", kText}}},
      {"instances",
       "id",
       {{"variant_id", kInt},
        {"idx", kInt},
        {"schedule_order", kInt},
        {"start_ns", kInt},
        {"end_ns", kInt},
        {"started_at", kInt},
        {"exit_code", kInt},
        {"signal", kInt},
        {"timed_out", kInt},
        {"failure", kTextOrNull},
        {"user_s", kReal},
        {"sys_s", kReal},
        {"max_rss_bytes", kInt},
        {"mem_peak_bytes", kInt},
        {"mem_avg_bytes", kReal},
        {"mem_samples", kInt},
        {"instructions", kIntOrNull},
        {"cycles", kIntOrNull},
        {"cpus", kText},
        {"schedule_tag", kText},
        {"schedule", kText},
        {"timed_outside", kInt}}},
  };
  if (version >= kRssFloorVersion)
    for (auto& table : out)
      if (table.table == "instances") table.columns.push_back({"rss_floor_bytes", kInt});
  if (version >= kIterationColumnsVersion) {
    out.push_back({"iteration_blocks",
                   "instance_id",
                   {{"count", kInt},
                    {"idx", kBlobOrNull},
                    {"start_ns", kBlob},
                    {"end_ns", kBlob},
                    {"flags", kBlobOrNull},
                    {"failures", kTextOrNull}}});
    out.push_back({"iteration_values",
                   "instance_id || '/' || metric_id",
                   {{"metric_id", kInt}, {"present", kBlobOrNull}, {"data", kBlob}}});
  } else {
    out.push_back({"iterations",
                   "id",
                   {{"instance_id", kInt},
                    {"idx", kInt},
                    {"start_ns", kInt},
                    {"end_ns", kInt},
                    {"burn_in", kInt},
                    {"timed_out", kInt},
                    {"failure", kTextOrNull}}});
    out.push_back({"metric_values",
                   "iteration_id || '/' || metric_id",
                   {{"iteration_id", kInt}, {"metric_id", kInt}, {"value", kRealOrNull}}});
  }
  if (version >= kInstanceCountsVersion)
    out.push_back({"instance_counts",
                   "instance_id || '/' || metric_id",
                   {{"position", kInt}, {"value", kInt}}});
  if (version >= kRunCountsVersion)
    out.push_back({"run_counts", "run_id", {{"benchmarks", kInt}, {"instances", kInt}}});
  if (version >= kRunWritersVersion)
    out.push_back({"run_writers",
                   "run_id",
                   {{"hostname", kText},
                    {"machine_id", kText},
                    {"boot_id", kText},
                    {"pid_ns", kText},
                    {"pid", kInt},
                    {"pid_start", kInt},
                    {"lock", kText},
                    {"checksum", kIntOrNull}}});
  if (version >= kSummariesVersion)
    out.push_back({"summaries",
                   "id",
                   {{"variant_id", kInt},
                    {"metric_id", kInt},
                    {"count", kInt},
                    {"mean", kRealOrNull},
                    {"stddev", kRealOrNull},
                    {"median", kRealOrNull},
                    {"min", kRealOrNull},
                    {"max", kRealOrNull},
                    {"checksum", kIntOrNull}}});
  if (version >= kSeriesCacheVersion)
    out.push_back({"series_cache",
                   "id",
                   {{"run_id", kInt}, {"key", kText}, {"data", kBlob}, {"checksum", kInt}}});
  if (version >= kChecksumVersion)
    for (auto& t : out)
      if (t.table == "runs" || t.table == "variants" || t.table == "instances" ||
          t.table == "metrics")
        t.columns.emplace_back("checksum", kIntOrNull);
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "'" : ", '") + i + "'";
  return out;
}

// One invariant: a query returning (row id, detail) for each row that breaks it, and the
// message for such a row ({} is the detail).
struct Invariant {
  std::string table;
  std::string sql;
  std::string message;
};

// The invariants of the tables a schema `version` has.
std::vector<Invariant> invariants(int version) {
  const std::string builtins = [] {
    std::vector<std::string> names;
    for (const auto& m : builtin_metrics()) names.push_back(m.name);
    return quoted_list(names);
  }();
  std::vector<Invariant> out = {
      {"runs",
       "SELECT id, status FROM runs WHERE status NOT IN ('running', 'complete', 'failed', "
       "'interrupted', 'imported')",
       "status '{}' is not one of running, complete, failed, interrupted, imported"},
      {"runs", "SELECT id, '' FROM runs WHERE uuid = ''", "has no uuid"},
      {"runs", "SELECT id, started_at FROM runs WHERE started_at < 0",
       "started_at is negative ({})"},
      {"runs",
       "SELECT id, finished_at - started_at FROM runs WHERE finished_at <> 0 AND finished_at < "
       "started_at",
       "finished before it started ({} ns)"},
      {"runs", "SELECT id, finished_at FROM runs WHERE status = 'running' AND finished_at <> 0",
       "is running but has finished_at set ({})"},
      {"runs",
       "SELECT id, status FROM runs WHERE status IN ('complete', 'failed', 'interrupted') AND "
       "finished_at = 0",
       "is {} but has no finished_at"},
      {"runs", "SELECT id, git_dirty FROM runs WHERE git_dirty NOT IN (0, 1)",
       "git_dirty is {}, not 0 or 1"},
      {"benchmarks", "SELECT id, '' FROM benchmarks WHERE name = ''", "has no name"},
      {"metrics", "SELECT id, '' FROM metrics WHERE name = ''", "has no name"},
      {"metrics", "SELECT id, direction FROM metrics WHERE direction NOT IN ('lower', 'higher')",
       "direction '{}' is not lower or higher"},
      {"variants", "SELECT id, '' FROM variants WHERE name = ''", "has no name"},
      {"variants",
       "SELECT variant_id, idx FROM instances GROUP BY variant_id, idx HAVING COUNT(*) > 1",
       "instance index {} is stored more than once"},
      {"variants",
       "SELECT variant_id, COUNT(DISTINCT idx) || ' instances, highest index ' || MAX(idx) FROM "
       "instances GROUP BY variant_id HAVING MAX(idx) + 1 <> COUNT(DISTINCT idx)",
       "instance indexes have gaps ({})"},
      {"instances", "SELECT id, end_ns - start_ns FROM instances WHERE end_ns < start_ns",
       "ends before it starts ({} ns)"},
      {"instances", "SELECT id, idx FROM instances WHERE idx < 0", "index is negative ({})"},
      {"instances", "SELECT id, started_at FROM instances WHERE started_at < 0",
       "started_at is negative ({})"},
      {"instances", "SELECT id, timed_out FROM instances WHERE timed_out NOT IN (0, 1)",
       "timed_out is {}, not 0 or 1"},
      {"instances", "SELECT id, timed_outside FROM instances WHERE timed_outside NOT IN (0, 1)",
       "timed_outside is {}, not 0 or 1"},
      {"instances", "SELECT id, signal FROM instances WHERE signal < 0 OR signal > 128",
       "signal {} is not a signal number"},
      {"instances",
       "SELECT id, user_s || ' s user, ' || sys_s || ' s system' FROM instances WHERE user_s < "
       "0 OR sys_s < 0",
       "CPU time is negative ({})"},
      {"instances",
       "SELECT id, max_rss_bytes || ', ' || mem_peak_bytes || ', ' || mem_avg_bytes FROM "
       "instances WHERE max_rss_bytes < 0 OR mem_peak_bytes < 0 OR mem_avg_bytes < 0 OR "
       "mem_samples < 0",
       "memory is negative ({})"},
      {"instances",
       "SELECT id, IFNULL(instructions, '-') || ', ' || IFNULL(cycles, '-') FROM instances WHERE "
       "instructions < 0 OR cycles < 0",
       "hardware counters are negative ({})"},
      {"instances",
       "SELECT id, schedule FROM instances WHERE schedule NOT IN ('', 'interleaved', 'sequential', "
       "'alternate', "
       "'randomized', 'duet', 'sync-duet')",
       "schedule '{}' is unknown"},
      {"instances",
       "SELECT id, schedule_tag FROM instances WHERE schedule_tag NOT IN ('', 'AB', 'BA')",
       "schedule_tag '{}' is not AB or BA"},
      {"instances", "SELECT id, '' FROM instances WHERE failure = ''",
       "failure is an empty string, not NULL"},
  };
  // Before 0009 a row per iteration and per value; from 0009 arrays, whose decoded values
  // check() tests as it reads them.
  const std::vector<Invariant> rows = {
      {"instances",
       "SELECT i.id, COUNT(*) FROM instances i JOIN iterations it ON it.instance_id = i.id "
       "WHERE i.timed_outside = 1 GROUP BY i.id HAVING COUNT(*) > 1",
       "was timed from outside but has {} iterations"},
      {"instances",
       "SELECT i.id, '' FROM instances i WHERE i.timed_outside = 0 AND NOT EXISTS (SELECT 1 FROM "
       "iterations it WHERE it.instance_id = i.id)",
       "has no iterations"},
      {"iterations", "SELECT id, end_ns - start_ns FROM iterations WHERE end_ns < start_ns",
       "ends before it starts ({} ns)"},
      {"iterations", "SELECT id, idx FROM iterations WHERE idx < 0", "index is negative ({})"},
      {"iterations",
       "SELECT id, burn_in || ', ' || timed_out FROM iterations WHERE burn_in NOT IN (0, 1) OR "
       "timed_out NOT IN (0, 1)",
       "burn_in or timed_out is not 0 or 1 ({})"},
      {"iterations", "SELECT id, '' FROM iterations WHERE failure = ''",
       "failure is an empty string, not NULL"},
      {"metric_values",
       "SELECT mv.iteration_id || '/' || mv.metric_id, m.name || ' = ' || mv.value FROM "
       "metric_values mv JOIN metrics m ON m.id = mv.metric_id WHERE m.name IN (" +
           builtins +
           ") AND (mv.value < 0 OR mv.value > 1.7976931348623157e308 OR mv.value < "
           "-1.7976931348623157e308)",
       "a built-in metric is negative or infinite ({})"},
  };
  const std::vector<Invariant> arrays = {
      {"instances",
       "SELECT i.id, b.count FROM instances i JOIN iteration_blocks b ON b.instance_id = i.id "
       "WHERE i.timed_outside = 1 AND b.count > 1",
       "was timed from outside but has {} iterations"},
      {"instances",
       "SELECT i.id, '' FROM instances i WHERE i.timed_outside = 0 AND NOT EXISTS (SELECT 1 FROM "
       "iteration_blocks b WHERE b.instance_id = i.id)",
       "has no iterations"},
      {"iteration_blocks", "SELECT instance_id, count FROM iteration_blocks WHERE count < 1",
       "count is {}, not positive"},
      {"iteration_blocks",
       "SELECT instance_id, count || ' iterations; start_ns ' || length(start_ns) || ', end_ns ' "
       "|| length(end_ns) || ', idx ' || IFNULL(length(idx), '-') || ', flags ' || "
       "IFNULL(length(flags), '-') FROM iteration_blocks WHERE length(start_ns) <> 8 * count OR "
       "length(end_ns) <> 8 * count OR length(idx) <> 8 * count OR length(flags) <> count",
       "arrays do not match its count ({} bytes)"},
      {"iteration_blocks",
       "SELECT instance_id, '' FROM iteration_blocks WHERE failures IS NOT NULL AND "
       "(json_valid(failures) = 0 OR json_type(failures) <> 'array')",
       "failures is not a JSON array"},
      {"iteration_values",
       "SELECT iv.instance_id || '/' || iv.metric_id, b.count || ' iterations; data ' || "
       "length(iv.data) || ', present ' || IFNULL(length(iv.present), '-') FROM "
       "iteration_values iv JOIN iteration_blocks b ON b.instance_id = iv.instance_id WHERE "
       "length(iv.data) <> 8 * b.count OR length(iv.present) <> b.count",
       "arrays do not match its block's count ({} bytes)"},
  };
  for (const auto& inv : version >= kIterationColumnsVersion ? arrays : rows) out.push_back(inv);
  if (version >= kRssFloorVersion)
    out.push_back({"instances",
                   "SELECT id, rss_floor_bytes FROM instances WHERE rss_floor_bytes < 0",
                   "rss_floor_bytes is negative ({})"});
  if (version >= kInstanceCountsVersion)
    out.push_back({"instance_counts",
                   "SELECT instance_id || '/' || metric_id, value FROM instance_counts WHERE "
                   "value < 0",
                   "count is negative ({})"});
  if (version >= kSummariesVersion) {
    out.push_back(
        {"summaries", "SELECT id, count FROM summaries WHERE count < 0", "count is negative ({})"});
    out.push_back({"summaries", "SELECT id, '' FROM summaries WHERE mean IS NULL", "has no mean"});
    out.push_back({"summaries", "SELECT id, stddev FROM summaries WHERE stddev < 0",
                   "standard deviation is negative ({})"});
    out.push_back({"summaries", "SELECT id, min || ' > ' || max FROM summaries WHERE min > max",
                   "min is above max ({})"});
    out.push_back({"summaries",
                   "SELECT s.id, m.name || ' = ' || s.mean FROM summaries s JOIN metrics m ON "
                   "m.id = s.metric_id WHERE m.name IN (" +
                       builtins + ") AND (s.mean < 0 OR s.min < 0)",
                   "a built-in metric is negative ({})"});
  }
  if (version >= kSeriesCacheVersion)
    out.push_back({"series_cache",
                   "SELECT c.id, c.run_id FROM series_cache c JOIN runs r ON r.id = c.run_id "
                   "WHERE r.status = 'running'",
                   "an entry for run {}, which is still running"});
  if (version >= kRunCountsVersion) {
    const auto live = run_counts_sql("c.run_id");
    out.push_back({"run_counts",
                   "SELECT run_id, benchmarks || ' benchmarks and ' || instances || ' instances "
                   "where its rows give ' || b || ' and ' || n FROM (SELECT c.run_id, "
                   "c.benchmarks, c.instances, " +
                       live.benchmarks + " AS b, " + live.instances +
                       " AS n FROM run_counts c) WHERE benchmarks <> b OR instances <> n",
                   "holds {}"});
    out.push_back({"run_counts",
                   "SELECT c.run_id, '' FROM run_counts c JOIN runs r ON r.id = c.run_id WHERE "
                   "r.status = 'running'",
                   "counts of a run still running"});
  }
  return out;
}

// A schema definition without what cannot matter: white space and the double quotes SQLite
// may put around a renamed table's name.
std::string normalized_sql(const std::string& sql) {
  std::string out;
  for (const char c : sql)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != '"') out += c;
  return out;
}

struct SchemaObject {
  std::string type;
  std::string table;
  std::string sql;
};

Result<std::map<std::string, SchemaObject>> schema_objects(Db& db) {
  std::map<std::string, SchemaObject> out;
  BG_ASSIGN(Stmt stmt, db.prepare("SELECT name, type, tbl_name, IFNULL(sql, '') FROM sqlite_master "
                                  "WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'"));
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) return out;
    out[stmt.text(0)] = {stmt.text(1), stmt.text(2), normalized_sql(stmt.text(3))};
  }
}

}  // namespace

Result<CheckReport> SqliteStore::check(CheckParts parts) {
  CheckReport report;
  report.schema_version = schema_version_;
  auto problem = [&](const std::string& source, std::string text) {
    report.problems.push_back({source, std::move(text)});
  };
  // A query that fails on a damaged file is itself a finding.
  auto each_row = [&](const std::string& source, const std::string& sql,
                      const std::function<void(Stmt&)>& fn) {
    auto stmt = db_->prepare(sql);
    if (!stmt.ok()) {
      problem(source, "cannot read: " + stmt.error().message);
      return;
    }
    while (true) {
      auto row = stmt->step();
      if (!row.ok()) {
        problem(source, "cannot read: " + row.error().message);
        return;
      }
      if (!*row) return;
      fn(*stmt);
    }
  };
  BG_ASSIGN(Transaction snapshot, Transaction::begin_read(*db_));

  if (parts != CheckParts::kRows) {
    // SQLite's own structure: pages, b-trees, indexes against their tables, NOT NULL and CHECK.
    each_row("integrity", "PRAGMA integrity_check(1000)", [&](Stmt& s) {
      if (s.text(0) != "ok") problem("integrity", "integrity check: " + s.text(0));
    });
    each_row("foreign_key", "PRAGMA foreign_key_check", [&](Stmt& s) {
      problem("foreign_key", fmt::format("{} row {}: refers to a {} row that does not exist",
                                         s.text(0), s.text(1), s.text(2)));
    });

    // The schema itself, against what the migrations make of an empty database: a changed
    // default, type or constraint changes what every later row gets.
    {
      auto expected = [&]() -> Result<std::map<std::string, SchemaObject>> {
        BG_ASSIGN(std::unique_ptr<Db> fresh,
                  Db::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
        BG_TRY(apply_migrations(*fresh, schema_version_));
        return schema_objects(*fresh);
      }();
      // Types first: a name read back as the same text may be stored as a blob (one flipped
      // bit of its record header), which sorts and compares as another value.
      each_row("schema",
               "SELECT IFNULL(CAST(name AS TEXT), ''), typeof(type), typeof(name), "
               "typeof(tbl_name), typeof(rootpage), typeof(sql) FROM sqlite_master",
               [&](Stmt& s) {
                 const char* columns[] = {"type", "name", "tbl_name", "rootpage", "sql"};
                 for (int c = 0; c < 5; ++c) {
                   const std::string type = s.text(c + 1);
                   const bool ok = c == 3   ? type == "integer"
                                   : c == 4 ? (type == "text" || type == "null")
                                            : type == "text";
                   if (!ok)
                     problem("schema", fmt::format("schema: sqlite_master row {}: {} holds a value "
                                                   "of type {}",
                                                   s.text(0), columns[c], type));
                 }
               });
      auto actual = schema_objects(*db_);
      if (!actual.ok()) {
        problem("schema", "schema: cannot read: " + actual.error().message);
      } else if (expected.ok()) {
        for (const auto& [name, want] : *expected) {
          const auto it = actual->find(name);
          if (it == actual->end())
            problem("schema", fmt::format("schema: {} {} is missing", want.type, name));
          else if (it->second.type != want.type || it->second.table != want.table ||
                   it->second.sql != want.sql)
            problem("schema",
                    fmt::format("schema: the definition of {} {} is not what migrations 1 to {} "
                                "make",
                                want.type, name, schema_version_));
        }
        for (const auto& [name, have] : *actual)
          if (!expected->contains(name))
            problem("schema", fmt::format("schema: {} {} is not benchguard's", have.type, name));
      }
    }

    // Schema history: versions 1..user_version, as this binary names them, applied in order.
    if (auto migrations = embedded_migrations(); migrations.ok()) {
      std::unordered_map<int64_t, std::string> recorded;
      int64_t previous = 0;
      const int64_t tomorrow =
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              (std::chrono::system_clock::now() + std::chrono::hours(24)).time_since_epoch())
              .count();
      each_row("invariant",
               "SELECT version, name, applied_at FROM schema_migrations ORDER BY version",
               [&](Stmt& s) {
                 recorded.emplace(s.int64(0), s.text(1));
                 const int64_t at = s.int64(2);
                 if (at <= 0 || at > tomorrow)
                   problem("invariant", fmt::format("schema_migrations row {}: applied_at {} is "
                                                    "not a time it can have been applied at",
                                                    s.int64(0), at));
                 else if (schema_version_ >= kRunCountsVersion && at % 1'000'000'000 != 0)
                   problem("invariant", fmt::format("schema_migrations row {}: applied_at {} is "
                                                    "not a whole second, as it is recorded",
                                                    s.int64(0), at));
                 else if (at < previous)
                   problem("invariant", fmt::format("schema_migrations row {}: applied before "
                                                    "the migration that precedes it",
                                                    s.int64(0)));
                 previous = std::max(previous, at);
               });
      for (const auto& m : *migrations) {
        if (m.version > schema_version_) break;
        const auto it = recorded.find(m.version);
        if (it == recorded.end())
          problem("invariant", fmt::format("schema_migrations: version {} is not recorded, though "
                                           "the database is at version {}",
                                           m.version, schema_version_));
        else if (it->second != m.name)
          problem("invariant", fmt::format("schema_migrations row {}: name '{}' should be '{}'",
                                           m.version, it->second, m.name));
      }
      for (const auto& [version, name] : recorded)
        if (version > schema_version_ || version < 1)
          problem("invariant", fmt::format("schema_migrations row {}: version {} is not between 1 "
                                           "and the database's version {}",
                                           version, version, schema_version_));
    }

    for (const std::string& log : instance_logs(location_)) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(log, ec);
      if (ec || size == 0) continue;
      report.notes.push_back(fmt::format(
          "{}: {} bytes of instances a writer logged but has not committed yet; the next "
          "read-write open commits them once that writer is gone",
          log, size));
    }
  }
  if (parts == CheckParts::kFile) {
    (void)snapshot.commit();
    return report;
  }

  for (const auto& t : column_types(schema_version_)) {
    std::string select = "SELECT " + t.key;
    std::string where;
    for (const auto& [column, types] : t.columns) {
      select += ", typeof(" + column + ")";
      where += (where.empty() ? "" : " OR ") +
               ("typeof(" + column + ") NOT IN (" + quoted_list(types) + ")");
    }
    select += " FROM " + t.table + " WHERE ";
    select += where;
    each_row("invariant", select, [&](Stmt& s) {
      for (size_t c = 0; c < t.columns.size(); ++c) {
        const auto& [column, types] = t.columns[c];
        const std::string type = s.text(static_cast<int>(c) + 1);
        if (std::find(types.begin(), types.end(), type) == types.end())
          problem("invariant", fmt::format("{} row {}: {} holds a value of type {}, not {}",
                                           t.table, s.text(0), column, type, types.front()));
      }
    });
  }
  for (const auto& inv : invariants(schema_version_))
    each_row("invariant", inv.sql, [&](Stmt& s) {
      problem("invariant", fmt::format("{} row {}: {}", inv.table, s.text(0),
                                       fmt::format(fmt::runtime(inv.message), s.text(1))));
    });

  each_row("invariant", "SELECT id, command, params, env FROM variants", [&](Stmt& s) {
    const std::string where = fmt::format("variants row {}", s.text(0));
    if (!command_from_json(s.text(1), "command").ok())
      problem("invariant", where + ": command is not a JSON array of strings");
    if (!key_values_from_json(s.text(2), "params").ok())
      problem("invariant", where + ": params is not a JSON object of strings");
    if (!key_values_from_json(s.text(3), "env").ok())
      problem("invariant", where + ": env is not a JSON object of strings");
  });

  // From 0009 the values of an instance's iterations are arrays, tested once decoded. An
  // instance timed from outside is tested by its own columns.
  std::unordered_set<std::string> builtin_names;
  for (const auto& m : builtin_metrics()) builtin_names.insert(m.name);
  const auto check_iterations = [&](int64_t id, const InstanceRecord& instance) {
    if (instance.timed_outside) return;
    const std::string where = fmt::format("iteration_blocks row {}", id);
    for (size_t k = 0; k < instance.iterations.size(); ++k) {
      const IterationRecord& it = instance.iterations[k];
      if (it.end_ns < it.start_ns)
        problem("invariant", fmt::format("{}: iteration {} ends before it starts ({} ns)", where, k,
                                         it.end_ns - it.start_ns));
      if (it.index < 0)
        problem("invariant",
                fmt::format("{}: iteration {} has a negative index ({})", where, k, it.index));
      for (const auto& [name, value] : it.metrics)
        if (builtin_names.contains(name) && (value < 0 || std::isinf(value)))
          problem("invariant",
                  fmt::format("{}: iteration {}: a built-in metric is negative or infinite ({} = "
                              "{})",
                              where, k, name, value));
    }
  };

  // Counts, and the checksums of every run, variant and instance that has one.
  std::vector<int64_t> run_ids;
  each_row("read", "SELECT id FROM runs ORDER BY id",
           [&](Stmt& s) { run_ids.push_back(s.int64(0)); });
  report.runs = static_cast<int64_t>(run_ids.size());
  const bool checksums = schema_version_ >= kChecksumVersion;
  auto verify = [&](const std::string& where, bool is_null, int64_t stored, int64_t computed) {
    if (is_null) {
      ++report.checksums_absent;
    } else if (stored != computed) {
      problem("checksum", where + ": checksum mismatch: what it holds changed after it was stored");
    } else {
      ++report.checksums_verified;
    }
  };
  each_row("read",
           "SELECT v.id, IFNULL(r.uuid, ''), IFNULL(b.name, ''), v.name, v.command, v.params, "
           "v.env, v.config_json" +
               std::string(checksums ? ", v.checksum" : ", NULL") +
               " FROM variants v LEFT JOIN runs r ON r.id = v.run_id LEFT JOIN benchmarks b ON "
               "b.id = v.benchmark_id ORDER BY v.id",
           [&](Stmt& s) {
             ++report.variants;
             if (!checksums) return;
             const VariantColumns columns{s.text(1), s.text(2), s.text(3), s.text(4),
                                          s.text(5), s.text(6), s.text(7)};
             verify(fmt::format("variants row {}", s.int64(0)), s.is_null(8), s.int64(8),
                    variant_checksum(columns));
           });
  for (const int64_t run_id : run_ids) {
    const std::string where = fmt::format("runs row {}", run_id);
    auto record = read_run_record(run_id);
    if (!record.ok()) {
      problem("read", where + ": cannot be read: " + record.error().message);
      continue;
    }
    if (checksums)
      each_row("read", fmt::format("SELECT checksum FROM runs WHERE id = {}", run_id),
               [&](Stmt& s) { verify(where, s.is_null(0), s.int64(0), run_checksum(*record)); });
    RunData data;
    data.id = run_id;
    data.run = *record;
    auto variant_ids = read_variants(run_id, data);
    if (variant_ids.ok()) {
      if (auto read = read_instances(run_id, *variant_ids, data); !read.ok())
        variant_ids = read.error();
    }
    if (!variant_ids.ok()) {
      problem("read", where + ": its measurements cannot be read: " + variant_ids.error().message);
      continue;
    }
    std::unordered_map<int64_t, size_t> variant_pos;
    std::vector<size_t> next(variant_ids->size(), 0);
    std::vector<std::string> keys;
    for (size_t i = 0; i < variant_ids->size(); ++i) {
      variant_pos.emplace((*variant_ids)[i], i);
      keys.push_back(variant_key(data.run.uuid, data.variants[i].variant.benchmark,
                                 data.variants[i].variant.name));
    }
    each_row("read",
             "SELECT i.id, i.variant_id" + std::string(checksums ? ", i.checksum" : ", NULL") +
                 " FROM instances i JOIN variants v ON v.id = i.variant_id WHERE v.run_id = " +
                 std::to_string(run_id) + " ORDER BY i.id",
             [&](Stmt& s) {
               ++report.instances;
               const auto pos = variant_pos.find(s.int64(1));
               if (pos == variant_pos.end()) return;
               const size_t v = pos->second;
               const size_t k = next[v]++;
               if (k >= data.variants[v].instances.size()) return;
               const InstanceRecord& instance = data.variants[v].instances[k];
               if (schema_version_ >= kIterationColumnsVersion)
                 check_iterations(s.int64(0), instance);
               if (checksums)
                 verify(fmt::format("instances row {}", s.int64(0)), s.is_null(2), s.int64(2),
                        instance_checksum(keys[v], instance));
             });
    if (schema_version_ < kSummariesVersion) continue;
    std::vector<size_t> next_summary(variant_ids->size(), 0);
    each_row("read",
             "SELECT s.id, s.variant_id, s.checksum FROM summaries s JOIN variants v ON v.id = "
             "s.variant_id WHERE v.run_id = " +
                 std::to_string(run_id) + " ORDER BY s.id",
             [&](Stmt& s) {
               const auto pos = variant_pos.find(s.int64(1));
               if (pos == variant_pos.end()) return;
               const size_t v = pos->second;
               const size_t k = next_summary[v]++;
               if (k >= data.variants[v].summaries.size()) return;
               verify(fmt::format("summaries row {}", s.int64(0)), s.is_null(2), s.int64(2),
                      summary_checksum(keys[v], data.variants[v].summaries[k]));
             });
  }

  if (checksums)
    each_row("read", "SELECT id, name, unit, direction, checksum FROM metrics ORDER BY id",
             [&](Stmt& s) {
               verify(fmt::format("metrics row {}", s.int64(0)), s.is_null(4), s.int64(4),
                      metric_checksum(s.text(1), s.text(2), s.text(3)));
             });
  if (schema_version_ >= kRunWritersVersion)
    each_row("read",
             "SELECT w.run_id, IFNULL(r.uuid, ''), w.hostname, w.machine_id, w.boot_id, w.pid_ns, "
             "w.pid, w.pid_start, w.lock, w.checksum FROM run_writers w LEFT JOIN runs r ON r.id "
             "= w.run_id ORDER BY w.run_id",
             [&](Stmt& s) {
               WriterIdentity w;
               w.hostname = s.text(2);
               w.machine_id = s.text(3);
               w.boot_id = s.text(4);
               w.pid_ns = s.text(5);
               w.pid = s.int64(6);
               w.pid_start = s.int64(7);
               w.lock = s.text(8);
               verify(fmt::format("run_writers row {}", s.int64(0)), s.is_null(9), s.int64(9),
                      writer_checksum(s.text(1), w));
             });

  if (schema_version_ >= kSeriesCacheVersion)
    each_row("read",
             "SELECT c.id, IFNULL(r.uuid, ''), c.key, c.data, c.checksum FROM series_cache c LEFT "
             "JOIN runs r ON r.id = c.run_id ORDER BY c.id",
             [&](Stmt& s) {
               ++report.series_cache_entries;
               verify(fmt::format("series_cache row {}", s.int64(0)), false, s.int64(4),
                      series_cache_checksum(s.text(1), s.text(2), s.blob(3)));
             });

  // Not problems, but worth knowing.
  if (schema_version_ >= kRunWritersVersion) {
    auto gone = gone_runs(held_logs_, /*settled_only=*/false);
    if (gone.ok())
      for (const auto& [id, end] : *gone)
        report.notes.push_back(
            fmt::format("runs row {}: running, but its writer is gone: it "
                        "reads as interrupted, and the next write marks it",
                        id));
  }
  if (report.checksums_absent > 0)
    report.notes.push_back(
        fmt::format("{} row(s) were stored before checksums were kept "
                    "(schema 0006) and are not verified",
                    report.checksums_absent));
  (void)snapshot.commit();
  return report;
}

}  // namespace benchguard::store::sqlite
