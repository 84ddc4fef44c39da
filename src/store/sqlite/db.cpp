#include "store/sqlite/db.hpp"

#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace benchguard::store::sqlite {

// ---------------------------------------------------------------- Stmt

Stmt::~Stmt() {
  if (stmt_ == nullptr) return;
  reset();
  if (in_use_ != nullptr)
    *in_use_ = false;
  else
    sqlite3_finalize(stmt_);
}

void Stmt::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  bind_rc_ = SQLITE_OK;
}

void Stmt::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
}

void Stmt::bind_int64(int index, int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
}

void Stmt::bind_double(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
}

void Stmt::bind_text(int index, std::string_view value) {
  // SQLITE_TRANSIENT: sqlite copies the text, so callers may bind temporaries.
  const int rc =
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
}

void Stmt::bind_blob(int index, std::string_view bytes) {
  // SQLITE_STATIC: the bytes outlive the statement's run (Blob).
  const int rc = sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_STATIC);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
}

Result<bool> Stmt::step() {
  if (bind_rc_ != SQLITE_OK)
    return Error{db_->path() + ": cannot bind a parameter: " + sqlite3_errstr(bind_rc_)};
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_->error("");
}

Status Stmt::run() {
  const Result<bool> stepped = step();
  // Unlike sqlite3_step, binding does not reset a finished statement by itself.
  sqlite3_reset(stmt_);
  bind_rc_ = SQLITE_OK;
  if (!stepped.ok()) return stepped.error();
  return ok_status();
}

int64_t Stmt::int64(int col) const {
  return sqlite3_column_int64(stmt_, col);
}
double Stmt::real(int col) const {
  return sqlite3_column_double(stmt_, col);
}
bool Stmt::is_null(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

std::string_view Stmt::blob(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::string Stmt::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (p == nullptr) return {};
  return std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

// ---------------------------------------------------------------- Db

void Db::StmtDeleter::operator()(sqlite3_stmt* s) const {
  sqlite3_finalize(s);
}

Result<std::unique_ptr<Db>> Db::open(const std::string& path, int flags, const std::string& uri) {
  // SQLite counts its memory behind a global mutex taken at every allocation; nothing here
  // reads those counts (no sqlite3_memory_used, no soft heap limit). Turned off before the
  // first connection, the only time sqlite3_config may be called (in a program that used
  // SQLite before, it fails and changes nothing): 1.6 million fewer instructions to create a
  // database, 1,700 fewer per instance stored (callgrind, `run --instances 201`).
  static const bool kNoMemoryStatistics = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  (void)kNoMemoryStatistics;
  sqlite3* handle = nullptr;
  if (!uri.empty()) flags |= SQLITE_OPEN_URI;
  const int rc = sqlite3_open_v2(uri.empty() ? path.c_str() : uri.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    // "unable to open database file" alone does not say why; the OS error does.
    if (const int err = handle ? sqlite3_system_errno(handle) : 0; err != 0)
      message += std::string(" (") + std::strerror(err) + ")";
    sqlite3_close_v2(handle);
    return Error{path + ": cannot open database: " + message};
  }
  sqlite3_extended_result_codes(handle, 1);
  // A database file may come from someone else (`compare FILE`, `db merge`): nothing in it
  // may corrupt it on purpose (SQLITE_DBCONFIG_DEFENSIVE: no writable_schema, no direct
  // page writes) or run functions with side effects from its schema (trusted_schema off).
  sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  std::unique_ptr<Db> db(new Db(path, handle));
  sqlite3_progress_handler(
      handle, 10000,
      [](void* self) -> int {
        const auto deadline = static_cast<Db*>(self)->deadline_;
        return deadline != std::chrono::steady_clock::time_point{} &&
                       std::chrono::steady_clock::now() > deadline
                   ? 1
                   : 0;
      },
      db.get());
  return db;
}

void Db::bound_queries(std::chrono::milliseconds limit) {
  deadline_ = limit.count() > 0 ? std::chrono::steady_clock::now() + limit
                                : std::chrono::steady_clock::time_point{};
}

Db::~Db() {
  cache_.clear();  // statements must be finalized before the connection closes
  sqlite3_close_v2(db_);
  if (held_fd_ >= 0) ::close(held_fd_);
}

Status Db::exec(const std::string& sql) {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK) return ok_status();
  return error("");
}

Result<Stmt> Db::prepare(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end() && !it->second.in_use) {
    it->second.in_use = true;
    return Stmt(this, it->second.stmt.get(), &it->second.in_use);
  }
  const bool cache = it == cache_.end();
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    cache ? SQLITE_PREPARE_PERSISTENT : 0, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return error("");
  }
  if (!cache) return Stmt(this, stmt, nullptr);  // the cached one is busy: a one-off
  Cached& entry = cache_[std::string(sql)];
  entry.stmt.reset(stmt);
  entry.in_use = true;
  return Stmt(this, stmt, &entry.in_use);
}

Result<int64_t> Db::query_int(std::string_view sql) {
  BG_ASSIGN(Stmt stmt, prepare(sql));
  BG_ASSIGN(bool row, stmt.step());
  return row ? stmt.int64(0) : int64_t{0};
}

int64_t Db::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}
int64_t Db::changes() const {
  return sqlite3_changes64(db_);
}
bool Db::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}
int Db::last_error_code() const {
  return sqlite3_errcode(db_) & 0xff;
}

std::string Db::out_of_space(int code) const {
  const int extended = sqlite3_extended_errcode(db_);
  if (code == SQLITE_FULL) return "no space left";
  if (code != SQLITE_IOERR) return "";
  // A failed write: SQLite reports a write cut short by a full disk or by the file size limit
  // (RLIMIT_FSIZE, EFBIG) as a plain I/O error, and errno is gone by now. Look at both.
  if (const int err = sqlite3_system_errno(db_); err == ENOSPC || err == EFBIG || err == EDQUOT)
    return std::strerror(err);
  if (extended != SQLITE_IOERR_WRITE && extended != SQLITE_IOERR_TRUNCATE &&
      extended != SQLITE_IOERR_SHMSIZE && extended != SQLITE_IOERR)
    return "";
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    return "file size limit of " + std::to_string(limit.rlim_cur) + " bytes reached";
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path_).parent_path();
  if (dir.empty()) dir = ".";
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) == 0) {
    // root may use the blocks reserved for it
    const uint64_t blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
    const uint64_t free_bytes = blocks * vfs.f_frsize;
    if (free_bytes < (1U << 20)) return std::to_string(free_bytes) + " bytes free";
  }
  return "";
}

Error Db::error(std::string_view context) const {
  // Said once here, as any first read of such a file fails this way.
  if (last_error_code() == SQLITE_NOTADB)
    return Error{path_ + ": not a SQLite database (or an encrypted one); refusing to touch it"};
  std::string message = path_ + ": ";
  const int code = last_error_code();
  if (const std::string why = out_of_space(code); !why.empty()) {
    disk_full_ = true;
    message += "disk full: ";
    if (!context.empty()) message.append(context).append(": ");
    message += sqlite3_errmsg(db_);
    return Error{message + " (" + why +
                 "); free space on its file system (or raise the file size limit) and try again"};
  }
  if (!context.empty()) message.append(context).append(": ");
  message += sqlite3_errmsg(db_);
  // In WAL mode even reading may need to create PATH-wal and PATH-shm beside the file.
  if (last_error_code() == SQLITE_READONLY)
    message += "; check the permissions of the file and of its directory";
  return Error{message};
}

// ---------------------------------------------------------------- Transaction

Result<Transaction> Transaction::begin(Db& db) {
  BG_ASSIGN(Stmt stmt, db.prepare("BEGIN IMMEDIATE"));
  BG_TRY(stmt.run());
  return Transaction(&db);
}

Result<Transaction> Transaction::begin_read(Db& db) {
  if (db.in_transaction()) return Transaction(nullptr);
  BG_ASSIGN(Stmt stmt, db.prepare("BEGIN"));
  BG_TRY(stmt.run());
  return Transaction(&db);
}

void TransactionOps::rollback(Db& db) {
  if (!db.in_transaction()) return;
  // A failed rollback leaves nothing better to do; the connection reports it next time.
  if (auto stmt = db.prepare("ROLLBACK"); stmt.ok()) (void)stmt->run();
}

Status TransactionOps::commit(Db*& db) {
  BG_ASSIGN(Stmt stmt, db->prepare("COMMIT"));
  BG_TRY(stmt.run());
  db = nullptr;
  return ok_status();
}

}  // namespace benchguard::store::sqlite
