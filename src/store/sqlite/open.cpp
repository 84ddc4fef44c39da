#include "store/sqlite/open.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "store/sqlite/migrate.hpp"

namespace benchguard::store::sqlite {
namespace {

namespace fs = std::filesystem;

constexpr int kBusyTimeoutMs = 5000;

// Checks the location before SQLite sees it: SQLite's own message for these cases is a
// bare "unable to open database file".
Status check_location(const std::string& path, bool create) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st))
    return Error{path + ": is a directory, not a database file; give a file path"};
  if (fs::exists(st)) return ok_status();
  if (!create) return Error{path + ": no such database file"};
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  const fs::file_status pst = fs::status(parent, ec);
  if (!fs::exists(pst))
    return Error{path + ": cannot create the database: directory '" + parent.string() +
                 "' does not exist"};
  if (!fs::is_directory(pst))
    return Error{path + ": cannot create the database: '" + parent.string() +
                 "' is not a directory"};
  return ok_status();
}

Status configure_read_write(Db& db, const OpenOptions& options) {
  sqlite3_busy_timeout(db.handle(), kBusyTimeoutMs);
  BG_TRY(db.exec("PRAGMA foreign_keys = ON"));
  // Look before writing anything: a refused file must stay byte-for-byte as it was.
  BG_ASSIGN(SchemaProbe probe, check_schema(db));
  if (sqlite3_db_readonly(db.handle(), "main") == 1)
    return Error{db.path() + ": the database is read-only; check the file's permissions"};
  {
    BG_ASSIGN(Stmt wal, db.prepare("PRAGMA journal_mode = WAL"));
    BG_ASSIGN(bool row, wal.step());
    if (!row || wal.text(0) != "wal")
      return Error{db.path() + ": cannot switch the database to WAL journal mode" +
                   (row ? " (got '" + wal.text(0) + "')" : std::string())};
  }
  // NORMAL in WAL mode: a commit survives a killed process; only power loss can undo it.
  BG_TRY(db.exec("PRAGMA synchronous = NORMAL"));
  // A checkpoint costs two fsyncs; at SQLite's default (every 1000 pages, about 150
  // instances) they dominated the cost of storing an instance. 8192 pages bounds the WAL
  // to about 32 MiB.
  BG_TRY(db.exec("PRAGMA wal_autocheckpoint = 8192"));
  const int latest = latest_schema_version();
  if (options.migrate && probe.version < latest) BG_TRY(apply_migrations(db, latest));
  return ok_status();
}

}  // namespace

Result<std::unique_ptr<Db>> open_read_write(const std::string& path, const OpenOptions& options) {
  BG_TRY(check_location(path, options.create));
  std::error_code ec;
  const bool existed = fs::exists(path, ec);
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (options.create) flags |= SQLITE_OPEN_CREATE;
  auto db = Db::open(path, flags);
  if (db.ok()) {
    if (auto configured = configure_read_write(**db, options); !configured.ok())
      db = configured.error();
  }
  // Leave no half-made file behind when a database could not be created.
  if (!db.ok() && !existed) remove_database_files(path);
  return db;
}

Result<std::unique_ptr<Db>> open_for_reading(const std::string& path) {
  BG_TRY(check_location(path, /*create=*/false));
  const int access =
      ::access(path.c_str(), W_OK) == 0 ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  BG_ASSIGN(std::unique_ptr<Db> db, Db::open(path, access | SQLITE_OPEN_NOMUTEX));
  sqlite3_busy_timeout(db->handle(), kBusyTimeoutMs);
  BG_TRY(check_schema(*db));
  return db;
}

Status copy_database(Db& source, const std::string& dest) {
  BG_ASSIGN(std::unique_ptr<Db> target,
            Db::open(dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX));
  sqlite3_backup* backup = sqlite3_backup_init(target->handle(), "main", source.handle(), "main");
  if (backup == nullptr) return target->error("cannot copy " + source.path());
  sqlite3_backup_step(backup, -1);
  if (sqlite3_backup_finish(backup) != SQLITE_OK)
    return target->error("cannot copy " + source.path());
  return ok_status();
}

void remove_database_files(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

}  // namespace benchguard::store::sqlite
