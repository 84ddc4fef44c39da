// A small RAII layer over the sqlite3 C API: one connection (Db), cached prepared
// statements borrowed as Stmt handles, and a Transaction guard. Every failure comes back
// as an Error naming the database path, never as an exception.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "core/result.hpp"
#include "store/transaction.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace benchguard::store::sqlite {

class Db;

// Bytes bound as a BLOB (Stmt::bind); the caller keeps them alive until the statement has run.
struct Blob {
  std::string_view bytes;
};
// NULL for nullopt.
inline std::optional<Blob> blob_or_null(const std::optional<std::string>& bytes) {
  if (!bytes) return std::nullopt;
  return Blob{*bytes};
}

// A prepared statement in use, usually borrowed from the connection's cache. Resets itself
// when it goes out of scope so that no read transaction is left open behind the caller's
// back (which would block WAL checkpoints), and gives the cached statement back.
class Stmt {
 public:
  // in_use: the cache's flag for a borrowed statement; nullptr when this Stmt owns it.
  Stmt(Db* db, sqlite3_stmt* stmt, bool* in_use) : db_(db), stmt_(stmt), in_use_(in_use) {}
  Stmt(Stmt&& other) noexcept
      : db_(other.db_), stmt_(other.stmt_), in_use_(other.in_use_), bind_rc_(other.bind_rc_) {
    other.stmt_ = nullptr;
  }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt& operator=(Stmt&&) = delete;
  ~Stmt();

  // Parameters are 1-based. Integers (and bool) bind as INTEGER, floating point as REAL,
  // strings as TEXT, Blob as BLOB, std::nullopt / nullptr as NULL.
  template <class T>
  Stmt& bind(int index, const T& value) {
    using V = std::decay_t<T>;
    if constexpr (std::is_same_v<V, std::nullptr_t> || std::is_same_v<V, std::nullopt_t>) {
      bind_null(index);
    } else if constexpr (std::is_integral_v<V>) {
      bind_int64(index, static_cast<int64_t>(value));
    } else if constexpr (std::is_floating_point_v<V>) {
      bind_double(index, static_cast<double>(value));
    } else if constexpr (std::is_same_v<V, Blob>) {
      bind_blob(index, value.bytes);
    } else if constexpr (requires {
                           value.has_value();
                           *value;
                         }) {
      if (value.has_value())
        bind(index, *value);
      else
        bind_null(index);
    } else {
      bind_text(index, std::string_view(value));
    }
    return *this;
  }
  // Binds the arguments to parameters 1..N in order.
  template <class... Args>
  Stmt& bind_all(const Args&... args) {
    int index = 0;
    (bind(++index, args), ...);
    return *this;
  }

  // Steps once: true when a row is available, false when the statement is done.
  Result<bool> step();
  // Steps a statement that returns no rows (INSERT, UPDATE, DELETE), then resets it so
  // it can be bound and run again.
  Status run();
  // Makes the statement ready to be bound and stepped again.
  void reset();

  int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  bool is_null(int col) const;
  // The bytes of a BLOB (or TEXT) column, valid until the next step or reset; empty for NULL.
  std::string_view blob(int col) const;

 private:
  void bind_null(int index);
  void bind_int64(int index, int64_t value);
  void bind_double(int index, double value);
  void bind_text(int index, std::string_view value);
  void bind_blob(int index, std::string_view bytes);

  Db* db_;
  sqlite3_stmt* stmt_;
  bool* in_use_;
  int bind_rc_ = 0;  // first binding failure, reported by step()
};

class Db {
 public:
  // flags: SQLITE_OPEN_* bits. Errors say "PATH: what went wrong". With `uri` given, SQLite
  // opens that URI ("file:...?immutable=1", with SQLITE_OPEN_URI) and messages still name
  // `path`.
  static Result<std::unique_ptr<Db>> open(const std::string& path, int flags,
                                          const std::string& uri = "");
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs one or more statements without caching (schema changes, pragmas).
  Status exec(const std::string& sql);
  // A prepared statement for sql, from the cache when the cached one is not already in
  // use further up the stack (then a fresh one, finalized after use).
  Result<Stmt> prepare(std::string_view sql);
  // First column of the first row of sql as an integer (e.g. PRAGMA user_version).
  Result<int64_t> query_int(std::string_view sql);

  int64_t last_insert_rowid() const;
  int64_t changes() const;
  bool in_transaction() const;
  // SQLITE_* (primary) code of the last failure, e.g. SQLITE_NOTADB.
  int last_error_code() const;
  const std::string& path() const { return path_; }
  // The name messages give the database, when the connection reads a copy of it.
  void set_path(std::string path) { path_ = std::move(path); }
  sqlite3* handle() { return db_; }
  // Keeps `fd` open (a lock on the file) until the connection has closed.
  void hold_fd(int fd) { held_fd_ = fd; }
  // Statements run from now on are interrupted (SQLITE_INTERRUPT) once `limit` has passed;
  // zero lifts the bound. For the queries made of a file not yet known to be benchguard's.
  void bound_queries(std::chrono::milliseconds limit);

  // "PATH: context: sqlite's message" for the connection's last failure. A full disk (or a
  // file size limit reached) says "PATH: disk full: ..." and what to do.
  Error error(std::string_view context) const;
  // Whether a failure reported by error() since the last call was a full disk.
  bool take_disk_full() {
    const bool full = disk_full_;
    disk_full_ = false;
    return full;
  }

 private:
  Db(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  // Why the last failure (primary code `code`) looks like a full disk or a reached file size
  // limit; "" when it does not.
  std::string out_of_space(int code) const;

  struct StmtDeleter {
    void operator()(sqlite3_stmt* s) const;
  };
  struct Cached {
    std::unique_ptr<sqlite3_stmt, StmtDeleter> stmt;
    bool in_use = false;
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  std::string path_;
  sqlite3* db_;
  int held_fd_ = -1;
  mutable bool disk_full_ = false;
  std::chrono::steady_clock::time_point deadline_{};  // of bound_queries; {} when unbounded
  // Node-based, so the in_use flags handed to Stmt stay put as the cache grows.
  std::unordered_map<std::string, Cached, StringHash, std::equal_to<>> cache_;
};

// How a Db ends a transaction: ROLLBACK while one is open; COMMIT, which keeps the transaction
// open when it fails (a busy reader), so that it is rolled back then.
struct TransactionOps {
  using Conn = Db;
  static void rollback(Db& db);
  static Status commit(Db*& db);
};

// ROLLBACK unless committed.
class Transaction : public TransactionGuard<TransactionOps> {
 public:
  // BEGIN IMMEDIATE: takes the write lock up front, so a busy database waits in
  // busy_timeout instead of failing halfway through the transaction.
  static Result<Transaction> begin(Db& db);
  // BEGIN (deferred): several SELECTs see one snapshot while another process writes.
  // Inside an open transaction it does nothing, and neither does its commit().
  static Result<Transaction> begin_read(Db& db);

 private:
  using TransactionGuard::TransactionGuard;
};

}  // namespace benchguard::store::sqlite
