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

// A read-only connection (SQLITE_OPEN_READONLY) to an existing benchguard database of any
// known version: nothing is written, and no file is created beside it, so it works on a
// read-only file, in a read-only directory and as another user. When no -wal file holds
// commits, the file alone is the database: it is opened `immutable` (SQLite then needs no
// -wal or -shm file) while a read lock on SQLite's shared-lock bytes keeps a writer that
// starts meanwhile from checkpointing into it when it closes. Otherwise SQLite reads the -wal
// file through the existing -shm file; where there is none and none can be made, the error
// says what to do.
Result<std::unique_ptr<Db>> open_read_only(const std::string& path);

// Copies the database behind `source` into a new file at `dest` (online backup API).
Status copy_database(Db& source, const std::string& dest);

// Removes a database file with its -wal and -shm companions, ignoring missing ones.
void remove_database_files(const std::string& path);

// A temporary database file (in $TMPDIR), removed with its -wal and -shm companions.
class TempDatabase {
 public:
  // `purpose` names it: benchguard-PURPOSE-XXXXXX.
  static Result<TempDatabase> create(const std::string& purpose);
  TempDatabase(TempDatabase&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  TempDatabase(const TempDatabase&) = delete;
  TempDatabase& operator=(const TempDatabase&) = delete;
  TempDatabase& operator=(TempDatabase&&) = delete;
  ~TempDatabase();
  const std::string& path() const { return path_; }

 private:
  explicit TempDatabase(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace benchguard::store::sqlite
