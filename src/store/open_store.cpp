// open_store: picks the backend for a location: a postgresql:// URL (postgres/), else a SQLite
// file.
#include <fmt/format.h>
#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <optional>

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
  // A -wal or hot -journal that a read-only connection cannot use (what a writer leaves when
  // a full disk fails its last checkpoint or its rollback: a -shm gone or in need of
  // recovery, a transaction to roll back, which only a writer may do): the file is checked in
  // a copy with them, as the next writer will find it.
  namespace fs = std::filesystem;
  std::optional<sqlite::TempDatabase> replayed;
  std::string pending;
  std::unique_ptr<sqlite::Db> db;
  auto opened = sqlite::open_read_only(location);
  std::error_code ec;
  for (const char* suffix : {"-wal", "-journal"})
    if (!opened.ok() && fs::file_size(location + suffix, ec) > 0 && !ec) pending = suffix;
  if (!pending.empty()) {
    BG_ASSIGN(sqlite::TempDatabase temp, sqlite::TempDatabase::create("check"));
    for (const std::string suffix : {"", "-wal", "-journal"}) {
      if (suffix != "" && !fs::exists(location + suffix, ec)) continue;
      if (!fs::copy_file(location + suffix, temp.path() + suffix,
                         fs::copy_options::overwrite_existing, ec))
        return Error{location + suffix + ": cannot copy it to check it: " + ec.message()};
    }
    BG_ASSIGN(db, sqlite::Db::open(temp.path(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX));
    replayed.emplace(std::move(temp));
  } else {
    BG_ASSIGN(db, std::move(opened));
  }
  BG_ASSIGN(int64_t version, db->query_int("PRAGMA user_version"));
  const int latest = sqlite::latest_schema_version();
  const auto noted = [&](Result<CheckReport> r) -> Result<CheckReport> {
    if (r.ok() && replayed)
      r->notes.push_back(location + pending +
                         " holds changes that only a writer can apply to the file: the file was "
                         "checked in a copy with them applied, as the next write applies them");
    return r;
  };
  if (version < 1 || version >= latest) {
    sqlite::SqliteStore store(std::move(db), static_cast<int>(version), log_base(location),
                              /*read_only=*/true);
    return noted(store.check());
  }
  // An older schema: the file as it is, its rows in a migrated copy (what every command that
  // opens it to write would make of them), so that one reader checks every version's rows.
  BG_ASSIGN(sqlite::TempDatabase temp, sqlite::TempDatabase::create("check"));
  BG_TRY(sqlite::copy_database(*db, temp.path()));
  sqlite::SqliteStore file(std::move(db), static_cast<int>(version), log_base(location),
                           /*read_only=*/true);
  BG_ASSIGN(CheckReport report, file.check(sqlite::SqliteStore::CheckParts::kFile));
  BG_ASSIGN(std::unique_ptr<sqlite::Db> copy,
            sqlite::open_read_write(temp.path(), OpenOptions{.create = false, .migrate = true}));
  sqlite::SqliteStore migrated(std::move(copy), latest, log_base(temp.path()));
  BG_ASSIGN(CheckReport rows, migrated.check(sqlite::SqliteStore::CheckParts::kRows));
  report.problems.insert(report.problems.end(), rows.problems.begin(), rows.problems.end());
  report.notes.insert(report.notes.end(), rows.notes.begin(), rows.notes.end());
  report.runs = rows.runs;
  report.variants = rows.variants;
  report.instances = rows.instances;
  report.checksums_verified = rows.checksums_verified;
  report.checksums_absent = rows.checksums_absent;
  report.notes.push_back(
      fmt::format("schema version {} is older than this benchguard's {}: its rows were checked as "
                  "migrated, in a copy; `benchguard db migrate` upgrades the file",
                  version, latest));
  return noted(std::move(report));
}

}  // namespace benchguard::store
