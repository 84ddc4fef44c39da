// A small RAII layer over libpq: one connection (Conn) with cached prepared statements,
// query results (Rows) and a Transaction guard. Parameters go typed: integers and doubles in
// binary (float8 bit for bit: NaN, -0.0 and subnormals come back as they went), bytea in
// binary, text as text; results come back in binary. Every failure is an Error naming the
// database by its redacted URL (store/location.hpp), never an exception, never a password.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.hpp"
#include "store/transaction.hpp"

struct pg_conn;
struct pg_result;

namespace benchguard::store::postgres {

// One statement parameter. `value` nullopt is NULL.
struct Param {
  std::optional<std::string> value;
  uint32_t type = 0;  // Oid: 20 int8, 701 float8, 25 text, 17 bytea
  bool binary = false;
};
Param int8(int64_t v);
Param int8(std::optional<int64_t> v);
Param float8(double v);
Param float8(std::optional<double> v);
Param text(std::string v);
Param text(std::optional<std::string> v);  // NULL for nullopt
Param bytea(std::optional<std::string> v);

// The rows of a query, in binary format.
class Rows {
 public:
  explicit Rows(pg_result* res = nullptr);
  Rows(Rows&& other) noexcept;
  Rows& operator=(Rows&& other) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows();

  int size() const;
  // Rows affected by an INSERT, UPDATE or DELETE.
  int64_t affected() const;
  bool is_null(int row, int col) const;
  // int2, int4, int8, oid or bool columns; 0 for NULL.
  int64_t int64(int row, int col) const;
  // float8 or float4; NaN for NULL.
  double real(int row, int col) const;
  // text or bytea bytes; empty for NULL. Valid while the Rows live.
  std::string_view bytes(int row, int col) const;
  std::string text(int row, int col) const { return std::string(bytes(row, col)); }
  std::optional<std::string_view> optional_bytes(int row, int col) const {
    if (is_null(row, col)) return std::nullopt;
    return bytes(row, col);
  }

 private:
  pg_result* res_;
};

// Row `row` of `rows`, read by column as the store core reads a row (store/sql_rows.hpp).
class Row {
 public:
  Row(const Rows& rows, int row) : rows_(&rows), row_(row) {}
  int64_t int64(int col) const { return rows_->int64(row_, col); }
  double real(int col) const { return rows_->real(row_, col); }
  std::string text(int col) const { return rows_->text(row_, col); }
  bool is_null(int col) const { return rows_->is_null(row_, col); }

 private:
  const Rows* rows_;
  int row_;
};

class Conn {
 public:
  // Connects to a postgresql:// or postgres:// URL (credentials from the URL, PG* variables
  // or ~/.pgpass, TLS parameters passed through as given). Errors name the redacted URL.
  static Result<std::unique_ptr<Conn>> connect(const std::string& url);
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;
  ~Conn();

  // The URL with any password replaced, for messages.
  const std::string& where() const { return where_; }
  // Simple query protocol: several statements at once, no parameters (migrations, BEGIN).
  Status exec(const std::string& sql);
  // A statement prepared once per connection and text, then executed with `params`.
  Result<Rows> query(const std::string& sql, const std::vector<Param>& params = {});
  // A one-row, one-column integer answer.
  Result<int64_t> query_int(const std::string& sql, const std::vector<Param>& params = {});
  // "WHERE:" + message, without any password the URL held.
  Error error(const std::string& message) const;

 private:
  Conn(pg_conn* conn, std::string where, std::vector<std::string> secrets);
  // The connection's last error text, passwords scrubbed.
  std::string last_error() const;
  std::string result_error(pg_result* res) const;

  pg_conn* conn_;
  std::string where_;
  std::vector<std::string> secrets_;
  std::unordered_map<std::string, std::string> prepared_;  // sql -> statement name
};

// How a Conn ends a transaction: ROLLBACK; COMMIT, which ends it whether it succeeds or not.
struct TransactionOps {
  using Conn = postgres::Conn;
  static void rollback(Conn& conn);
  static Status commit(Conn*& conn);
};

// BEGIN (READ ONLY when asked) ... COMMIT; rolls back when destroyed uncommitted.
class Transaction : public TransactionGuard<TransactionOps> {
 public:
  static Result<Transaction> begin(Conn& conn, bool read_only = false);

 private:
  using TransactionGuard::TransactionGuard;
};

}  // namespace benchguard::store::postgres
