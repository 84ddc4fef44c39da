#include "store/sqlite/migrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>
#include <unordered_map>
#include <utility>

#include "core/embedded.hpp"
#include "core/names.hpp"
#include "store/sqlite/iteration_columns.hpp"

namespace benchguard::store::sqlite {
namespace {

constexpr std::string_view kCreateMigrationsTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)";

// "0002_history_indexes.sql" -> {2, "history_indexes"}.
Result<Migration> parse_migration(const EmbeddedFile& file) {
  const std::string_view name = file.name;
  const auto bad = [&] {
    return Error{"embedded migration '" + std::string(name) +
                 "' is not named NNNN_name.sql; fix src/store/migrations"};
  };
  constexpr std::string_view kSuffix = ".sql";
  if (name.size() < 4 + 1 + 1 + kSuffix.size() || name[4] != '_' || !name.ends_with(kSuffix))
    return bad();
  int version = 0;
  for (size_t i = 0; i < 4; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return bad();
    version = version * 10 + (name[i] - '0');
  }
  std::string label(name.substr(5, name.size() - 5 - kSuffix.size()));
  return Migration{version, std::move(label), file.content};
}

// When a migration is recorded as applied: unix ns of a whole second. A single flipped bit of
// such a value is never a whole second again, which `db check` tells (0013 made the earlier
// records whole seconds too).
int64_t applied_at_now() {
  const int64_t seconds = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  return seconds * 1'000'000'000;
}

std::string join_tables(const std::vector<std::string>& tables) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < tables.size() && i < kShown; ++i) out += (i ? ", " : "") + tables[i];
  if (tables.size() > kShown) out += ", ...";
  return out;
}

// 0009: the rows of iterations and metric_values become one iteration_blocks row per instance
// and one iteration_values row per (instance, metric), one instance at a time; then the two
// tables go.
Status pack_iteration_rows(Db& db) {
  std::unordered_map<int64_t, std::string> names;
  std::unordered_map<std::string, int64_t> ids;
  {
    BG_ASSIGN(Stmt stmt, db.prepare("SELECT id, name FROM metrics"));
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      names.emplace(stmt.int64(0), stmt.text(1));
      ids.emplace(stmt.text(1), stmt.int64(0));
    }
  }
  BG_ASSIGN(Stmt block, db.prepare("INSERT INTO iteration_blocks(instance_id, count, idx, "
                                   "start_ns, end_ns, flags, failures) VALUES(?,?,?,?,?,?,?)"));
  BG_ASSIGN(Stmt values, db.prepare("INSERT INTO iteration_values(instance_id, metric_id, "
                                    "present, data) VALUES(?,?,?,?)"));
  int64_t instance = 0;
  std::vector<IterationRecord> iterations;
  const auto flush = [&]() -> Status {
    if (iterations.empty()) return ok_status();
    BG_ASSIGN(PackedIterations packed, pack_iterations(iterations, 0));
    BG_TRY(block
               .bind_all(instance, packed.count, blob_or_null(packed.idx), Blob{packed.start_ns},
                         Blob{packed.end_ns}, blob_or_null(packed.flags), packed.failures)
               .run());
    for (const auto& m : packed.metrics)
      BG_TRY(
          values.bind_all(instance, ids.at(m.name), blob_or_null(m.present), Blob{m.data}).run());
    iterations.clear();
    return ok_status();
  };
  BG_ASSIGN(Stmt rows, db.prepare("SELECT it.instance_id, it.id, it.idx, it.start_ns, it.end_ns, "
                                  "it.burn_in, it.timed_out, it.failure, mv.metric_id, mv.value "
                                  "FROM iterations it LEFT JOIN metric_values mv "
                                  "ON mv.iteration_id = it.id "
                                  "ORDER BY it.instance_id, it.id, mv.metric_id"));
  int64_t iteration = 0;
  while (true) {
    BG_ASSIGN(bool row, rows.step());
    if (!row) break;
    if (rows.int64(0) != instance) {
      BG_TRY(flush());
      instance = rows.int64(0);
    }
    if (iterations.empty() || rows.int64(1) != iteration) {
      iterations.push_back(iteration_from_row(rows, 2));
      iteration = rows.int64(1);
    }
    if (rows.is_null(8)) continue;
    const auto name = names.find(rows.int64(8));
    if (name == names.end()) continue;  // a value of no metric: foreign keys were off
    iterations.back().metrics.emplace_back(
        name->second, rows.is_null(9) ? std::numeric_limits<double>::quiet_NaN() : rows.real(9));
  }
  BG_TRY(flush());
  rows.reset();
  return db.exec("DROP TABLE metric_values; DROP TABLE iterations;");
}

// The migrations that do what SQL alone cannot, after their SQL (Migration::step).
constexpr std::pair<int, Status (*)(Db&)> kSteps[] = {
    {kIterationColumnsVersion, pack_iteration_rows},
};

// One migration inside the caller's transaction: its SQL, its step, its record.
Status apply_in_transaction(Db& db, const Migration& m) {
  const std::string what = fmt::format("migration {:04d}_{} failed", m.version, m.name);
  if (auto s = db.exec(std::string(m.sql)); !s.ok())
    return Error{s.error().message + " (" + what + ")"};
  if (m.step != nullptr)
    if (auto s = m.step(db); !s.ok()) return Error{s.error().message + " (" + what + ")"};
  BG_TRY(db.exec(std::string(kCreateMigrationsTable)));
  BG_ASSIGN(Stmt insert,
            db.prepare("INSERT INTO schema_migrations(version, name, applied_at) VALUES(?,?,?)"));
  BG_TRY(insert.bind_all(m.version, m.name, applied_at_now()).run());
  // PRAGMA takes no parameters; the version is an integer we produced.
  return db.exec("PRAGMA user_version = " + std::to_string(m.version));
}

// A new database at the latest version in one step: the schema the migrations make
// (src/store/schema/sqlite_latest.sql, checked against them by a test), then each migration's
// record. Their SQL one by one costs three times as much: each ALTER TABLE re-reads the whole
// schema. Their steps move rows, and a new database has none.
Status make_latest(Db& db, const std::vector<Migration>& migrations) {
  const auto& schema = sqlite_schema_files();
  if (schema.size() != 1) return Error{"the embedded SQLite schema is missing; rebuild benchguard"};
  BG_TRY(db.exec(std::string(schema.front().content)));
  BG_ASSIGN(Stmt insert,
            db.prepare("INSERT INTO schema_migrations(version, name, applied_at) VALUES(?,?,?)"));
  const int64_t now = applied_at_now();
  for (const auto& m : migrations) BG_TRY(insert.bind_all(m.version, m.name, now).run());
  return db.exec("PRAGMA user_version = " + std::to_string(migrations.size()));
}

Status apply_one(Db& db, const Migration& m) {
  BG_ASSIGN(Transaction txn, Transaction::begin(db));
  // Another process may have migrated while this one waited for the write lock.
  BG_ASSIGN(int64_t current, db.query_int("PRAGMA user_version"));
  if (current >= m.version) return txn.commit();
  BG_TRY(apply_in_transaction(db, m));
  return txn.commit();
}

}  // namespace

Result<std::vector<Migration>> embedded_migrations() {
  std::vector<Migration> out;
  for (const auto& file : sqlite_migration_files()) {
    BG_ASSIGN(Migration m, parse_migration(file));
    for (const auto& [version, step] : kSteps)
      if (m.version == version) m.step = step;
    if (m.version != static_cast<int>(out.size()) + 1)
      return Error{"embedded migration '" + std::string(file.name) + "' should be version " +
                   std::to_string(out.size() + 1) + "; fix src/store/migrations"};
    out.push_back(std::move(m));
  }
  return out;
}

int latest_schema_version() {
  static const int kLatest = [] {
    auto migrations = embedded_migrations();
    return migrations.ok() ? static_cast<int>(migrations->size()) : 0;
  }();
  return kLatest;
}

namespace {

// benchguard's schema has tables and indexes only. A view or a trigger in a file is someone
// else's code, run by reading a table it stands in for (a recursive view in place of
// run_labels made `runs` hang) or by writing one: such a file is refused, naming it.
Status refuse_views_and_triggers(Db& db) {
  BG_ASSIGN(Stmt stmt, db.prepare("SELECT type, name FROM sqlite_master WHERE type IN "
                                  "('view', 'trigger') ORDER BY type, name LIMIT 1"));
  BG_ASSIGN(bool row, stmt.step());
  if (!row) return ok_status();
  return Error{db.path() + ": holds " + stmt.text(0) + " '" + escape_name(stmt.text(1)) +
               "', which benchguard's schema has not; refusing to read it"};
}

}  // namespace

Result<SchemaProbe> probe_schema(Db& db) {
  SchemaProbe probe;
  // The file is not yet known to be benchguard's: no query of it may run for long.
  db.bound_queries(std::chrono::seconds(10));
  struct Unbound {
    Db& db;
    ~Unbound() { db.bound_queries(std::chrono::milliseconds(0)); }
  } unbound{db};
  BG_TRY(refuse_views_and_triggers(db));
  {
    BG_ASSIGN(Stmt stmt, db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                    "name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"));
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      probe.tables.push_back(stmt.text(0));
    }
  }
  BG_ASSIGN(int64_t version, db.query_int("PRAGMA user_version"));
  probe.version = static_cast<int>(version);
  const bool has_migrations = std::binary_search(probe.tables.begin(), probe.tables.end(),
                                                 std::string("schema_migrations"));
  if (probe.tables.empty() && probe.version == 0)
    probe.kind = SchemaKind::kEmpty;
  else if (probe.version > 0 && has_migrations)
    probe.kind = SchemaKind::kBenchguard;
  else
    probe.kind = SchemaKind::kForeign;
  return probe;
}

Result<SchemaProbe> check_schema(Db& db) {
  BG_ASSIGN(SchemaProbe probe, probe_schema(db));
  if (probe.kind == SchemaKind::kForeign) {
    std::string what =
        probe.tables.empty() ? "no benchguard tables" : "tables: " + join_tables(probe.tables);
    return Error{db.path() + ": a SQLite database but not benchguard's (" + what +
                 "); refusing to touch it, give another --db path"};
  }
  const int latest = latest_schema_version();
  if (latest == 0) BG_TRY(embedded_migrations());  // reports what is wrong with them
  if (probe.version > latest)
    return Error{db.path() + ": database schema version " + std::to_string(probe.version) +
                 " is newer than this benchguard understands (" + std::to_string(latest) +
                 "); upgrade benchguard"};
  return probe;
}

Status apply_migrations(Db& db, int target) {
  BG_ASSIGN(std::vector<Migration> migrations, embedded_migrations());
  BG_ASSIGN(int64_t current, db.query_int("PRAGMA user_version"));
  if (current == 0) {
    // A new database gets its whole schema in one transaction: one commit instead of one a
    // migration, and no process ever sees it half made. Another process may have made it
    // meanwhile.
    BG_ASSIGN(Transaction txn, Transaction::begin(db));
    BG_ASSIGN(current, db.query_int("PRAGMA user_version"));
    if (current == 0 && target == static_cast<int>(migrations.size())) {
      BG_TRY(make_latest(db, migrations));
    } else if (current == 0) {
      for (const auto& m : migrations)
        if (m.version <= target) BG_TRY(apply_in_transaction(db, m));
    }
    return txn.commit();
  }
  for (const auto& m : migrations)
    if (m.version > current && m.version <= target) BG_TRY(apply_one(db, m));
  return ok_status();
}

Result<SchemaStatus> read_schema_status(Db& db) {
  BG_ASSIGN(SchemaProbe probe, probe_schema(db));
  BG_ASSIGN(std::vector<Migration> migrations, embedded_migrations());
  SchemaStatus status;
  status.current = probe.version;
  status.latest = static_cast<int>(migrations.size());
  if (probe.kind == SchemaKind::kBenchguard) {
    BG_ASSIGN(Stmt stmt,
              db.prepare("SELECT version, name FROM schema_migrations ORDER BY version"));
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      status.applied.emplace_back(static_cast<int>(stmt.int64(0)), stmt.text(1));
    }
  }
  for (const auto& m : migrations)
    if (m.version > status.current) status.pending.emplace_back(m.version, m.name);
  return status;
}

}  // namespace benchguard::store::sqlite
