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
#include "store/sqlite/sqlite_check_rules.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

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
    if (schema_version_ < kSummaryVersion) continue;
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
