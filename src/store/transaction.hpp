// The transaction guard of both SQL stores (sqlite/db.hpp, postgres/pg.hpp): begun on a
// connection, committed once, rolled back when it goes uncommitted; moved, never copied. `Ops`
// is what a backend's connection does: its type (Conn), how it rolls back (rollback(Conn&),
// which reports nothing: the connection says so next time) and how it commits (commit(Conn*&),
// which leaves the pointer null once the transaction has ended, so that a commit that failed
// with the transaction still open is rolled back).
#pragma once

#include <functional>
#include <utility>

#include "core/result.hpp"

namespace benchguard::store {

template <class Ops>
class TransactionGuard {
 public:
  using Conn = typename Ops::Conn;

  TransactionGuard(TransactionGuard&& other) noexcept
      : conn_(std::exchange(other.conn_, nullptr)) {}
  TransactionGuard(const TransactionGuard&) = delete;
  TransactionGuard& operator=(const TransactionGuard&) = delete;
  TransactionGuard& operator=(TransactionGuard&&) = delete;
  ~TransactionGuard() {
    if (conn_ != nullptr) Ops::rollback(*conn_);
  }
  Status commit() { return conn_ == nullptr ? ok_status() : Ops::commit(conn_); }

 protected:
  // nullptr: a guard that does nothing (a transaction already open around it).
  explicit TransactionGuard(Conn* conn) : conn_(conn) {}

 private:
  Conn* conn_;
};

// `body` in the transaction `begun` (a guard, or the Error of beginning it): committed when it
// succeeds, rolled back when it fails.
template <class Guard>
Status in_transaction(Result<Guard> begun, const std::function<Status()>& body) {
  if (!begun.ok()) return begun.error();
  BG_TRY(body());
  return begun->commit();
}

}  // namespace benchguard::store
