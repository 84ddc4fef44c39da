// open_store: picks the backend for a location: a postgresql:// URL (postgres/), else a SQLite
// file.
#include <filesystem>
#include <memory>

#include "store/instance_log.hpp"
#ifdef BENCHGUARD_WITH_POSTGRES
#include "store/postgres/pg_store.hpp"
#endif
#include "store/location.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/open.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "store/store.hpp"

namespace benchguard::store {
namespace {

#ifndef BENCHGUARD_WITH_POSTGRES
// The location without what follows its scheme: it may hold a password.
std::string postgres_unavailable(const std::string& location) {
  return location.substr(0, location.find("://")) +
         "://...: this benchguard was built without PostgreSQL support (install libpq-dev and "
         "rebuild)";
}
#endif

// Where instance logs (and so writers' locks) live: beside the file itself, whichever path
// or symbolic link leads to it.
std::string log_base(const std::string& location) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(location, ec);
  return ec || canonical.empty() ? location : canonical.string();
}

Result<std::unique_ptr<Store>> open_read_only(const std::string& location,
                                              const OpenOptions& options) {
  BG_ASSIGN(std::unique_ptr<sqlite::Db> db, sqlite::open_read_only(location));
  BG_ASSIGN(int64_t version, db->query_int("PRAGMA user_version"));
  const std::string base = log_base(location);
  std::vector<OrphanLog> logs;
  if (options.migrate) {
    // Instances a killed writer logged but never committed: read through a copy.
    BG_ASSIGN(std::vector<OrphanLog> orphans, orphan_logs(base));
    for (auto& log : orphans) {
      BG_ASSIGN(std::vector<LoggedInstance> logged, log.read());
      if (!logged.empty()) logs.push_back(std::move(log));
    }
  }
  const bool old = version < sqlite::kOldestReadableVersion;
  if (!options.migrate || (!old && logs.empty()))
    return std::unique_ptr<Store>(std::make_unique<sqlite::SqliteStore>(
        std::move(db), static_cast<int>(version), base, /*read_only=*/true));

  // The database stays as it is: an older schema is migrated, and logs replayed, in a copy.
  BG_ASSIGN(sqlite::TempDatabase temp, sqlite::TempDatabase::create("read"));
  BG_TRY(sqlite::copy_database(*db, temp.path()));
  db.reset();
  BG_ASSIGN(db,
            sqlite::open_read_write(temp.path(), OpenOptions{.create = false, .migrate = true}));
  db->set_path(location);
  auto store = std::make_unique<sqlite::SqliteStore>(std::move(db), sqlite::latest_schema_version(),
                                                     base, /*read_only=*/true);
  store->keep_temp(std::move(temp));
  BG_TRY(store->replay(logs, /*remove=*/false));
  store->set_held_logs(logs);
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace

Result<std::unique_ptr<Store>> open_store(const std::string& location, const OpenOptions& options) {
  if (location.empty()) return Error{"no database given; pass --db PATH"};
  if (is_postgres_url(location)) {
#ifdef BENCHGUARD_WITH_POSTGRES
    return postgres::open_pg_store(location, options);
#else
    return Error{postgres_unavailable(location)};
#endif
  }
  if (options.read_only) return open_read_only(location, options);
  BG_ASSIGN(std::unique_ptr<sqlite::Db> db, sqlite::open_read_write(location, options));
  BG_ASSIGN(int64_t version, db->query_int("PRAGMA user_version"));
  auto store = std::make_unique<sqlite::SqliteStore>(std::move(db), static_cast<int>(version),
                                                     log_base(location));
  // What a killed writer logged but never committed goes in before anything else is read,
  // and the runs of writers that are gone are marked interrupted.
  if (options.migrate && version == sqlite::latest_schema_version()) BG_TRY(store->recover());
  return std::unique_ptr<Store>(std::move(store));
}

Result<CheckReport> check_store(const std::string& location) {
  if (location.empty()) return Error{"no database given; pass --db PATH"};
  if (is_postgres_url(location)) {
#ifdef BENCHGUARD_WITH_POSTGRES
    return postgres::check_pg_store(location);
#else
    return Error{postgres_unavailable(location)};
#endif
  }
  BG_ASSIGN(std::unique_ptr<sqlite::Db> db, sqlite::open_read_only(location));
  BG_ASSIGN(int64_t version, db->query_int("PRAGMA user_version"));
  sqlite::SqliteStore store(std::move(db), static_cast<int>(version), log_base(location),
                            /*read_only=*/true);
  return store.check();
}

}  // namespace benchguard::store
