// open_store: picks the backend for a location. Only SQLite files exist so far.
#include <memory>

#include "store/sqlite/migrate.hpp"
#include "store/sqlite/open.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "store/store.hpp"

namespace benchguard::store {

Result<std::unique_ptr<Store>> open_store(const std::string& location, const OpenOptions& options) {
  if (location.empty()) return Error{"no database given; pass --db PATH"};
  if (location.starts_with("postgresql://") || location.starts_with("postgres://"))
    return Error{location + ": PostgreSQL databases are not supported yet; give a file path"};
  BG_ASSIGN(std::unique_ptr<sqlite::Db> db, sqlite::open_read_write(location, options));
  BG_ASSIGN(int64_t version, db->query_int("PRAGMA user_version"));
  auto store = std::make_unique<sqlite::SqliteStore>(std::move(db), static_cast<int>(version));
  // What a killed writer logged but never committed goes in before anything else is read.
  if (options.migrate && version == sqlite::latest_schema_version())
    BG_TRY(store->replay_instance_logs());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace benchguard::store
