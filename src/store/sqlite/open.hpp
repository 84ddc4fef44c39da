// Opening a database file safely: clear errors for unusable locations, refusal of files
// that are not benchguard databases (left byte-for-byte untouched), connection pragmas,
// and migrations on request.
#pragma once

#include <memory>
#include <string>

#include "core/result.hpp"
#include "store/sqlite/db.hpp"
#include "store/store.hpp"

namespace benchguard::store::sqlite {

// Read-write connection: WAL, synchronous=NORMAL, foreign_keys=ON, busy_timeout.
// Migrates to the latest version when options.migrate is set.
Result<std::unique_ptr<Db>> open_read_write(const std::string& path, const OpenOptions& options);

// A connection to an existing benchguard database of any known version, to read the other
// side of a merge; nothing is written to it. It is opened read-write when the file allows,
// only so that closing it removes the -wal and -shm files SQLite creates to read a WAL
// database (a read-only connection would leave them behind).
Result<std::unique_ptr<Db>> open_for_reading(const std::string& path);

// Copies the database behind `source` into a new file at `dest` (online backup API).
Status copy_database(Db& source, const std::string& dest);

// Removes a database file with its -wal and -shm companions, ignoring missing ones.
void remove_database_files(const std::string& path);

}  // namespace benchguard::store::sqlite
