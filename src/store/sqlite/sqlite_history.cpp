// History: the stored change points of `detect`, the state of each series they were found in,
// and the acknowledgements of `ack` (migration 0007).
#include <string>

#include "store/sql_rows.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {

Status SqliteStore::require_history() const {
  if (schema_version_ < kHistoryVersion)
    return error("this database predates history (schema " + std::to_string(schema_version_) +
                 "); open it once for writing, or run `benchguard db migrate`, to add it");
  return ok_status();
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
