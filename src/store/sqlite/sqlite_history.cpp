// History: the stored change points of `detect`, the state of each series they were found in,
// and the acknowledgements of `ack` (migration 0007).
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

const std::string kChangeColumns =
    "change_id, series_key, benchmark, variant, metric, machine, method, last_good, first_bad, "
    "first_bad_time, point_index, segment_start, segment_end, before, after, change, change_lower, "
    "change_upper, p_value, "
    "kind, status, detected_at";

// NULL for a value that is not a number (an interval that could not be computed).
std::optional<double> finite_or_null(double v) {
  if (std::isfinite(v)) return v;
  return std::nullopt;
}

double real_or_nan(const Stmt& s, int col) {
  return s.is_null(col) ? std::numeric_limits<double>::quiet_NaN() : s.real(col);
}

}  // namespace

Status SqliteStore::require_history() const {
  if (schema_version_ < kHistoryVersion)
    return error("this database predates history (schema " + std::to_string(schema_version_) +
                 "); open it once for writing, or run `benchguard db migrate`, to add it");
  return ok_status();
}

Result<std::vector<SeriesState>> SqliteStore::load_series_states() {
  BG_TRY(require_history());
  std::vector<SeriesState> out;
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT series_key, settings, points, digest, updated_at "
                                    "FROM history_series ORDER BY series_key"));
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) break;
    out.push_back({stmt.text(0), stmt.text(1), stmt.int64(2), stmt.text(3), stmt.int64(4)});
  }
  return out;
}

Result<std::vector<ChangeRecord>> SqliteStore::load_changes() {
  BG_TRY(require_history());
  std::vector<ChangeRecord> out;
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT " + kChangeColumns +
                                    " FROM change_points ORDER BY series_key, point_index"));
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) break;
    ChangeRecord c;
    c.id = stmt.text(0);
    c.series_key = stmt.text(1);
    c.benchmark = stmt.text(2);
    c.variant = stmt.text(3);
    c.metric = stmt.text(4);
    c.machine = stmt.text(5);
    c.method = stmt.text(6);
    c.last_good = stmt.text(7);
    c.first_bad = stmt.text(8);
    c.first_bad_time = stmt.int64(9);
    c.index = stmt.int64(10);
    c.segment_start = stmt.int64(11);
    c.segment_end = stmt.int64(12);
    c.before = real_or_nan(stmt, 13);
    c.after = real_or_nan(stmt, 14);
    c.change = real_or_nan(stmt, 15);
    c.change_lower = real_or_nan(stmt, 16);
    c.change_upper = real_or_nan(stmt, 17);
    c.p_value = real_or_nan(stmt, 18);
    c.kind = stmt.text(19);
    c.status = stmt.text(20);
    c.detected_at = stmt.int64(21);
    out.push_back(std::move(c));
  }
  return out;
}

Status SqliteStore::save_detection(const std::vector<SeriesState>& states,
                                   const std::vector<ChangeRecord>& changes) {
  BG_TRY(require_writable());
  BG_TRY(require_history());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  for (const auto& s : states) {
    // The series' change points go with its old state (ON DELETE CASCADE).
    BG_ASSIGN(Stmt del, db_->prepare("DELETE FROM history_series WHERE series_key = ?"));
    BG_TRY(del.bind(1, s.series_key).run());
    BG_ASSIGN(Stmt ins, db_->prepare("INSERT INTO history_series (series_key, settings, points, "
                                     "digest, updated_at) VALUES (?, ?, ?, ?, ?)"));
    BG_TRY(ins.bind_all(s.series_key, s.settings, s.points, s.digest, s.updated_at).run());
  }
  for (const auto& c : changes) {
    BG_ASSIGN(Stmt ins, db_->prepare("INSERT INTO change_points (" + kChangeColumns +
                                     ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                     "?, ?, ?, ?, ?, ?)"));
    ins.bind_all(c.id, c.series_key, c.benchmark, c.variant, c.metric, c.machine, c.method,
                 c.last_good, c.first_bad, c.first_bad_time, c.index, c.segment_start,
                 c.segment_end, finite_or_null(c.before), finite_or_null(c.after),
                 finite_or_null(c.change), finite_or_null(c.change_lower),
                 finite_or_null(c.change_upper), finite_or_null(c.p_value), c.kind, c.status,
                 c.detected_at);
    if (auto st = ins.run(); !st.ok())
      return error("cannot store change point " + c.id + " of " + c.series_key + ": " +
                   st.error().message);
  }
  return txn.commit();
}

Result<std::vector<AckRecord>> SqliteStore::load_acks() {
  BG_TRY(require_history());
  std::vector<AckRecord> out;
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT change_id, reason, acked_at FROM change_acks "
                                    "ORDER BY acked_at, change_id"));
  while (true) {
    BG_ASSIGN(bool row, stmt.step());
    if (!row) break;
    out.push_back({stmt.text(0), stmt.text(1), stmt.int64(2)});
  }
  return out;
}

Result<bool> SqliteStore::set_ack(const AckRecord& ack) {
  BG_TRY(require_writable());
  BG_TRY(require_history());
  BG_TRY(flush());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  bool fresh = false;
  {
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT 1 FROM change_acks WHERE change_id = ?"));
    BG_ASSIGN(bool row, stmt.bind(1, ack.change_id).step());
    fresh = !row;
  }
  if (fresh) {
    BG_ASSIGN(Stmt stmt, db_->prepare("INSERT INTO change_acks (change_id, reason, acked_at) "
                                      "VALUES (?, ?, ?)"));
    BG_TRY(stmt.bind_all(ack.change_id, ack.reason, ack.acked_at).run());
  } else if (!ack.reason.empty()) {
    // Acknowledging again keeps the first time and takes the new reason.
    BG_ASSIGN(Stmt stmt, db_->prepare("UPDATE change_acks SET reason = ? WHERE change_id = ?"));
    BG_TRY(stmt.bind_all(ack.reason, ack.change_id).run());
  }
  BG_TRY(txn.commit());
  return fresh;
}

Result<bool> SqliteStore::remove_ack(const std::string& change_id) {
  BG_TRY(require_writable());
  BG_TRY(require_history());
  BG_TRY(flush());
  BG_ASSIGN(Stmt stmt, db_->prepare("DELETE FROM change_acks WHERE change_id = ?"));
  BG_TRY(stmt.bind(1, change_id).run());
  return db_->changes() > 0;
}

}  // namespace benchguard::store::sqlite
