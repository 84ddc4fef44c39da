// Runs whose writer is gone: recorded writers (run_writers, 0005), judged by writer.hpp,
// shown as `interrupted` by readers and marked so by read-write opens and closing writers.
#include <algorithm>
#include <cstring>
#include <filesystem>

#include "store/checksum.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

// A gone writer's log that still holds instances nobody has committed yet: marking its run
// waits until a replay has taken them in.
bool log_settled(const std::string& location, const std::string& lock,
                 const std::vector<std::string>& held_logs) {
  if (lock.empty()) return true;
  const std::string path = location + ".pending-" + lock;
  if (std::find(held_logs.begin(), held_logs.end(), path) != held_logs.end()) return true;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec || size == 0;
}

}  // namespace

Status SqliteStore::insert_writer(int64_t run_id, const std::string& run_uuid,
                                  const WriterIdentity& w) {
  BG_ASSIGN(Stmt insert, db_->prepare("INSERT INTO run_writers(run_id, hostname, machine_id, "
                                      "boot_id, pid_ns, pid, pid_start, lock, checksum) "
                                      "VALUES(?,?,?,?,?,?,?,?,?)"));
  return insert
      .bind_all(run_id, w.hostname, w.machine_id, w.boot_id, w.pid_ns, w.pid, w.pid_start, w.lock,
                writer_checksum(run_uuid, w))
      .run();
}

void SqliteStore::set_held_logs(const std::vector<OrphanLog>& logs) {
  for (const auto& log : logs) held_logs_.push_back(log.path());
}

Result<int64_t> SqliteStore::last_instance_end(int64_t run_id) {
  BG_ASSIGN(Stmt stmt, db_->prepare("SELECT MAX(i.started_at + (i.end_ns - i.start_ns)) FROM "
                                    "instances i JOIN variants v ON v.id = i.variant_id "
                                    "WHERE v.run_id = ?"));
  BG_ASSIGN(bool row, stmt.bind(1, run_id).step());
  if (!row || stmt.is_null(0)) return now_ns();
  return stmt.int64(0);
}

Result<std::vector<std::pair<int64_t, int64_t>>> SqliteStore::gone_runs(
    const std::vector<std::string>& held_logs, bool settled_only) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (schema_version_ < kRunWritersVersion) return out;
  std::vector<std::pair<int64_t, int64_t>> gone;  // (id, started_at)
  {
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT w.run_id, r.started_at, w.hostname, w.machine_id, "
                                      "w.boot_id, w.pid_ns, w.pid, w.pid_start, w.lock "
                                      "FROM run_writers w JOIN runs r ON r.id = w.run_id "
                                      "WHERE r.status = 'running' ORDER BY w.run_id"));
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      WriterIdentity w;
      w.hostname = stmt.text(2);
      w.machine_id = stmt.text(3);
      w.boot_id = stmt.text(4);
      w.pid_ns = stmt.text(5);
      w.pid = stmt.int64(6);
      w.pid_start = stmt.int64(7);
      w.lock = stmt.text(8);
      if (writer_state(w, location_, stmt.int64(1), held_logs) != WriterState::kGone) continue;
      if (settled_only && !log_settled(location_, w.lock, held_logs)) continue;
      gone.emplace_back(stmt.int64(0), stmt.int64(1));
    }
  }
  for (const auto& [id, started_at] : gone) {
    BG_ASSIGN(int64_t end, last_instance_end(id));
    out.emplace_back(id, std::max(end, started_at));
  }
  return out;
}

Status SqliteStore::update_run_end(int64_t run_id, int64_t finished_at, const std::string& status) {
  BG_ASSIGN(RunRecord run, read_run_record(run_id));
  run.finished_at = finished_at;
  run.status = status;
  BG_ASSIGN(Stmt update,
            db_->prepare("UPDATE runs SET finished_at = ?, status = ?, checksum = ? WHERE id = ?"));
  BG_TRY(update.bind_all(finished_at, status, run_checksum(run), run_id).run());
  return count_run(run_id);
}

Status SqliteStore::mark_interrupted(const std::vector<std::string>& held_logs) {
  BG_ASSIGN(auto gone, gone_runs(held_logs, /*settled_only=*/true));
  if (gone.empty()) return ok_status();
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  for (const auto& [id, end] : gone) {
    // Another process may have marked it since.
    BG_ASSIGN(Stmt still, db_->prepare("SELECT 1 FROM runs WHERE id = ? AND status = 'running'"));
    BG_ASSIGN(bool running, still.bind(1, id).step());
    if (running) BG_TRY(update_run_end(id, end, "interrupted"));
  }
  return txn.commit();
}

Result<int64_t> SqliteStore::recover() {
  BG_ASSIGN(std::vector<OrphanLog> logs, orphan_logs(location_));
  BG_ASSIGN(int64_t added, replay(logs, /*remove=*/false));
  std::vector<std::string> held;
  held.reserve(logs.size());
  for (const auto& log : logs) held.push_back(log.path());
  BG_TRY(mark_interrupted(held));
  for (auto& log : logs) log.remove();
  return added;
}

Status SqliteStore::apply_effective_status(std::vector<RunSummary>& runs) {
  if (schema_version_ < kRunWritersVersion) return ok_status();
  if (std::none_of(runs.begin(), runs.end(), [](const auto& r) { return r.status == "running"; }))
    return ok_status();
  BG_ASSIGN(auto gone, gone_runs(held_logs_, /*settled_only=*/false));
  mark_gone(runs, gone);
  return ok_status();
}

Status SqliteStore::apply_effective_status(RunRecord& run, int64_t run_id) {
  if (schema_version_ < kRunWritersVersion || run.status != "running") return ok_status();
  BG_ASSIGN(auto gone, gone_runs(held_logs_, /*settled_only=*/false));
  mark_gone(run, run_id, gone);
  return ok_status();
}

}  // namespace benchguard::store::sqlite
