// Opening a PostgreSQL store and migrating its schema: the embedded
// src/store/postgres/migrations/NNNN_name.sql files, applied in one transaction under an
// advisory lock (so that concurrent openers wait for each other rather than race), recorded
// in schema_migrations.
#include <algorithm>
#include <cctype>

#include "store/location.hpp"
#include "store/postgres/pg_store.hpp"

namespace benchguard::store::postgres {
namespace {

// The schema's version, 0 when there is no schema_migrations table (a new database).
Result<int> current_version(Conn& conn) {
  BG_ASSIGN(Rows rows, conn.query("SELECT to_regclass('schema_migrations') IS NOT NULL"));
  if (rows.int64(0, 0) == 0) return 0;
  BG_ASSIGN(int64_t version, conn.query_int("SELECT COALESCE(MAX(version), 0) FROM "
                                            "schema_migrations"));
  return static_cast<int>(version);
}

Status migrate(Conn& conn) {
  BG_ASSIGN(std::vector<PgMigration> migrations, pg_migrations());
  BG_ASSIGN(Transaction txn, Transaction::begin(conn));
  BG_TRY(conn.query("SELECT pg_advisory_xact_lock($1::int4, 0)",
                    {int8(static_cast<int64_t>(kMigrateLockClass))}));
  BG_TRY(
      conn.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at BIGINT NOT NULL)"));
  BG_ASSIGN(int current, current_version(conn));
  if (current > pg_latest_version())
    return conn.error("database schema version " + std::to_string(current) +
                      " is newer than this benchguard (" + std::to_string(pg_latest_version()) +
                      "); use a newer benchguard");
  for (const auto& m : migrations) {
    if (m.version <= current) continue;
    if (auto s = conn.exec(std::string(m.sql)); !s.ok())
      return Error{s.error().message + " (migration " + std::to_string(m.version) + "_" + m.name +
                   ")"};
    BG_TRY(conn.query("INSERT INTO schema_migrations(version, name, applied_at) VALUES($1, $2, $3)",
                      {int8(static_cast<int64_t>(m.version)), text(m.name), int8(now_ns())}));
  }
  return txn.commit();
}

}  // namespace

Result<std::vector<PgMigration>> pg_migrations() {
  std::vector<PgMigration> out;
  for (const auto& f : postgres_migration_files()) {
    const std::string_view name = f.name;
    if (name.size() < 10 || !std::all_of(name.begin(), name.begin() + 4, ::isdigit) ||
        name[4] != '_' || !name.ends_with(".sql"))
      return Error{"malformed embedded PostgreSQL migration name " + std::string(name)};
    PgMigration m;
    m.version = std::stoi(std::string(name.substr(0, 4)));
    m.name = std::string(name.substr(5, name.size() - 9));
    m.sql = f.content;
    if (!out.empty() && m.version <= out.back().version)
      return Error{"embedded PostgreSQL migrations out of order at " + std::string(name)};
    out.push_back(std::move(m));
  }
  return out;
}

int pg_latest_version() {
  auto migrations = pg_migrations();
  if (!migrations.ok() || migrations->empty()) return 0;
  return migrations->back().version;
}

Result<SchemaStatus> PgStore::schema_status() {
  SchemaStatus st;
  st.latest = pg_latest_version();
  BG_ASSIGN(Transaction snapshot, Transaction::begin(*conn_, /*read_only=*/true));
  BG_ASSIGN(st.current, current_version(*conn_));
  if (st.current > 0) {
    BG_ASSIGN(Rows rows, conn_->query("SELECT version, name FROM schema_migrations ORDER BY "
                                      "version"));
    for (int r = 0; r < rows.size(); ++r)
      st.applied.emplace_back(static_cast<int>(rows.int64(r, 0)), rows.text(r, 1));
  }
  BG_TRY(snapshot.commit());
  BG_ASSIGN(std::vector<PgMigration> migrations, pg_migrations());
  for (const auto& m : migrations)
    if (m.version > st.current) st.pending.emplace_back(m.version, m.name);
  return st;
}

Result<std::unique_ptr<Store>> open_pg_store(const std::string& url, const OpenOptions& options) {
  BG_ASSIGN(std::unique_ptr<Conn> conn, Conn::connect(url));
  if (options.read_only) {
    // Nothing this connection does can write, whatever a bug would try.
    BG_TRY(conn->exec("SET default_transaction_read_only = on"));
  } else if (options.migrate) {
    BG_TRY(migrate(*conn));
  }
  BG_ASSIGN(int version, current_version(*conn));
  if (version > pg_latest_version())
    return conn->error("database schema version " + std::to_string(version) +
                       " is newer than this benchguard (" + std::to_string(pg_latest_version()) +
                       "); use a newer benchguard");
  auto store = std::make_unique<PgStore>(std::move(conn), version, options.read_only);
  // Runs whose writer's connection is gone are marked before anything else is read.
  if (!options.read_only && version == pg_latest_version()) BG_TRY(store->mark_interrupted());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace benchguard::store::postgres
