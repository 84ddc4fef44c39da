#include "store/sqlite/open.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#include "store/location.hpp"
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

Status switch_to_wal(Db& db) {
  BG_ASSIGN(Stmt wal, db.prepare("PRAGMA journal_mode = WAL"));
  BG_ASSIGN(bool row, wal.step());
  if (!row || wal.text(0) != "wal")
    return Error{db.path() + ": cannot switch the database to WAL journal mode" +
                 (row ? " (got '" + wal.text(0) + "')" : std::string())};
  return ok_status();
}

Status configure_read_write(Db& db, const OpenOptions& options) {
  sqlite3_busy_timeout(db.handle(), kBusyTimeoutMs);
  BG_TRY(db.exec("PRAGMA foreign_keys = ON"));
  // Look before writing anything: a refused file must stay byte-for-byte as it was.
  BG_ASSIGN(SchemaProbe probe, check_schema(db));
  if (sqlite3_db_readonly(db.handle(), "main") == 1)
    return Error{db.path() + ": the database is read-only; check the file's permissions"};
  BG_TRY(switch_to_wal(db));
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

// Whether anything of the database lives outside its file: commits in PATH-wal not yet
// checkpointed, or a rollback journal. An empty -wal holds nothing.
bool holds_pending_changes(const std::string& path) {
  std::error_code ec;
  const auto wal = fs::file_size(path + "-wal", ec);
  if (!ec && wal > 0) return true;
  return fs::exists(path + "-journal", ec);
}

// "file:///abs/path", with the characters a URI gives a meaning escaped.
std::string file_uri(const std::string& path) {
  std::error_code ec;
  std::string abs = fs::absolute(path, ec).string();
  if (ec) abs = path;
  std::string uri = "file://";
  for (const char c : abs) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
      uri += kHex[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  return uri;
}

// The name of a file a creation of PATH works in: "PATH.creating-HOST-PID-N".
std::string creation_prefix(const std::string& path) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return path + ".creating-" + host + "-";
}

// Removes what creations of PATH on this host left when their process was killed mid-way:
// files "PATH.creating-HOST-PID-N" (and their -journal, -wal, -shm) whose process is gone.
void remove_abandoned_creations(const std::string& path) {
  const std::string prefix = fs::path(creation_prefix(path)).filename().string();
  const std::string dir = folder_of(path);
  const std::string in = dir + '/';
  for (const std::string& name : names_beginning_with(dir, prefix)) {
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code gone;
    fs::remove(in + name, gone);
  }
}

// Makes the database at PATH, which did not exist, whole or not at all: its schema is made in
// a file of its own beside PATH and only then linked to PATH. No other connection ever sees
// PATH half made, and a creation that fails removes only its own file, never one another
// process made and uses meanwhile. When another process made PATH first, its database stays
// and this one goes. The file is nobody else's until linked, so it is written without a
// journal on disk or a sync, and synced once whole.
Status create_database(const std::string& path, const OpenOptions& options) {
  remove_abandoned_creations(path);
  static std::atomic<unsigned> made{0};
  const std::string prefix = creation_prefix(path) + std::to_string(::getpid()) + "-";
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temp = prefix + std::to_string(made++);
    // The mode SQLite itself would give a new database (0644 less the umask); its -wal and
    // -shm files take the database file's.
    fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && (errno != EEXIST || attempt == 100))
      return Error{path + ": cannot create the database: " + std::strerror(errno)};
  }
  Status status = [&]() -> Status {
    {
      BG_ASSIGN(std::unique_ptr<Db> db,
                Db::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, file_uri(temp)));
      BG_TRY(db->exec("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF"));
      if (options.migrate) BG_TRY(apply_migrations(*db, latest_schema_version()));
      BG_TRY(switch_to_wal(*db));
    }
    if (::fsync(fd) != 0)
      return Error{path + ": cannot create the database: " + std::strerror(errno)};
    if (::link(temp.c_str(), path.c_str()) == 0 || errno == EEXIST) return ok_status();
    // A file system without hard links: a rename, which would replace a database another
    // process made in the moment since the check.
    std::error_code ec;
    if (!fs::exists(path, ec) && ::rename(temp.c_str(), path.c_str()) != 0)
      return Error{path + ": cannot create the database: " + std::strerror(errno)};
    return ok_status();
  }();
  ::close(fd);
  remove_database_files(temp);
  return status;
}

// A read lock on the bytes SQLite's unix VFS locks for SHARED (an open-file-description lock,
// so it conflicts with SQLite's locks even in this process and goes when fd is closed). Waits
// out a writer's exclusive lock as busy_timeout would. Where such locks are not supported,
// goes on without.
bool lock_shared(int fd) {
  constexpr off_t kSharedFirst = 0x40000000 + 2;  // PENDING_BYTE + 2
  constexpr off_t kSharedSize = 510;
  struct flock lock {};
  lock.l_type = F_RDLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = kSharedFirst;
  lock.l_len = kSharedSize;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  while (true) {
    if (::fcntl(fd, F_OFD_SETLK, &lock) == 0) return true;
    if (errno != EAGAIN && errno != EACCES && errno != EINTR) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

Result<std::unique_ptr<Db>> open_read_write(const std::string& path, const OpenOptions& options) {
  BG_TRY(check_location(path, options.create));
  std::error_code ec;
  if (options.create && !fs::exists(path, ec)) BG_TRY(create_database(path, options));
  BG_ASSIGN(std::unique_ptr<Db> db, Db::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX));
  BG_TRY(configure_read_write(*db, options));
  return db;
}

Result<std::unique_ptr<Db>> open_read_only(const std::string& path) {
  BG_TRY(check_location(path, /*create=*/false));
  if (::access(path.c_str(), R_OK) != 0)
    return Error{path + ": cannot read the database: " + std::strerror(errno) +
                 "; check the permissions of the file"};
  std::unique_ptr<Db> db;
  if (!holds_pending_changes(path)) {
    // The file alone is the database. Only a writer's checkpoint could change it under us:
    // hold what SQLite takes as a shared lock, so that no writer gets the exclusive lock it
    // checkpoints under when it closes, then look again in case one wrote meanwhile.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return Error{path + ": cannot read the database: " + std::strerror(errno) +
                   "; check the permissions of the file"};
    if (!lock_shared(fd)) {
      ::close(fd);
      return Error{path +
                   ": the database is busy (a writer is merging its changes into it); "
                   "try again"};
    }
    if (holds_pending_changes(path)) {
      ::close(fd);
    } else {
      auto opened = Db::open(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                             file_uri(path) + "?immutable=1");
      if (!opened.ok()) {
        ::close(fd);
        return opened.error();
      }
      db = std::move(opened).value();
      db->hold_fd(fd);
    }
  }
  const bool through_wal = !db;
  if (through_wal) {
    BG_ASSIGN(db, Db::open(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX));
    sqlite3_busy_timeout(db->handle(), kBusyTimeoutMs);
  }
  auto probe = check_schema(*db);
  if (!probe.ok()) {
    const int code = db->last_error_code();
    std::error_code ec;
    if (through_wal && (code == SQLITE_CANTOPEN || (code & 0xff) == SQLITE_READONLY) &&
        fs::exists(path + "-journal", ec))
      return Error{path + ": cannot read the database: " + path +
                   "-journal holds a transaction that did not finish, and only a writer can roll "
                   "it back; open it once with write access (benchguard db migrate --db " +
                   path + ") or copy the database with its -journal file to a writable directory"};
    if (through_wal && (code == SQLITE_CANTOPEN || (code & 0xff) == SQLITE_READONLY))
      return Error{path + ": cannot read the database: " + path +
                   "-wal holds changes not merged into it yet, and reading them needs a " + path +
                   "-shm file that cannot be created here; open it once with write access "
                   "(benchguard db migrate --db " +
                   path + ") or copy the database with its -wal file to a writable directory"};
    return probe.error();
  }
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

Result<TempDatabase> TempDatabase::create(const std::string& purpose) {
  std::error_code ec;
  std::string path = (fs::temp_directory_path(ec) / ("benchguard-" + purpose + "-XXXXXX")).string();
  const int fd = mkstemp(path.data());
  if (fd < 0)
    return Error{path + ": cannot create a temporary database: " + std::strerror(errno) +
                 "; set TMPDIR to a writable directory"};
  ::close(fd);
  return TempDatabase(std::move(path));
}

TempDatabase::~TempDatabase() {
  if (!path_.empty()) remove_database_files(path_);
}

}  // namespace benchguard::store::sqlite
