// The series cache (migration 0011, docs/store.md): bytes analysis derived from a finished
// run, read with the run in one snapshot.
#include <optional>
#include <string>

#include "store/checksum.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

// What a failed save leaves: the cache is derived data, read from the instances again.
constexpr const char* kCacheKept =
    "the measurements are untouched; history reads those runs from their instances";

}  // namespace

Result<std::optional<std::string>> SqliteStore::read_series_cache(int64_t run_id,
                                                                  const std::string& key) {
  if (schema_version_ < kSeriesCacheVersion) return std::optional<std::string>();
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT data FROM series_cache WHERE run_id = ? AND key = ?"));
  BG_ASSIGN(bool row, stmt.bind_all(run_id, key).step());
  if (!row) return std::optional<std::string>();
  return std::optional<std::string>(stmt.blob(0));
}

Status SqliteStore::save_series_cache(const std::vector<SeriesCacheEntry>& entries) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  for (const auto& e : entries) {
    std::string uuid;
    {
      BG_ASSIGN(Stmt stmt, db_->prepare("SELECT uuid, status FROM runs WHERE id = ?"));
      BG_ASSIGN(bool row, stmt.bind(1, e.run_id).step());
      if (!row) return error("no run with id " + std::to_string(e.run_id));
      if (stmt.text(1) == "running")
        return error("run " + std::to_string(e.run_id) +
                     " is still running: its series are cached once it has finished");
      uuid = stmt.text(0);
    }
    BG_ASSIGN(Stmt stmt, db_->prepare("INSERT INTO series_cache (run_id, key, data, checksum) "
                                      "VALUES (?, ?, ?, ?) ON CONFLICT (run_id, key) DO UPDATE "
                                      "SET data = excluded.data, checksum = excluded.checksum"));
    stmt.bind_all(e.run_id, e.key, Blob{e.data}, series_cache_checksum(uuid, e.key, e.data));
    if (auto st = stmt.run(); !st.ok())
      return disk_full_error(error("cannot store the series cache of run " +
                                   std::to_string(e.run_id) + ": " + st.error().message),
                             kCacheKept);
  }
  if (auto st = txn.commit(); !st.ok()) return disk_full_error(st.error(), kCacheKept);
  return ok_status();
}

}  // namespace benchguard::store::sqlite
