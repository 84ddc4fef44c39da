// prune: removes one benchmark's measurements from runs started before a time, and the
// runs this leaves without any variant.
#include <string>

#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
namespace {

// The variants a filter selects: ?1 is the benchmark id, ?2 the cut-off (0 = none).
const std::string kVariants = " FROM variants v JOIN runs r ON r.id = v.run_id";
const std::string kSelected = " WHERE v.benchmark_id = ?1 AND (?2 = 0 OR r.started_at < ?2)";

}  // namespace

Result<PruneCounts> SqliteStore::prune(const PruneFilter& filter) {
  BG_TRY(before_write());
  BG_ASSIGN(Transaction txn, Transaction::begin(*db_));
  int64_t benchmark = 0;
  {
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT id FROM benchmarks WHERE name = ?"));
    BG_ASSIGN(bool found, stmt.bind(1, filter.benchmark).step());
    if (!found) return Error{"no benchmark named " + filter.benchmark + " in " + db_->path()};
    benchmark = stmt.int64(0);
  }
  PruneCounts counts;
  {
    // An instance timed from outside may hold its one iteration in its own columns.
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT COUNT(DISTINCT v.id), COUNT(i.id), "
                                      "IFNULL(SUM(CASE WHEN b.instance_id IS NOT NULL THEN "
                                      "b.count WHEN i.timed_outside = 1 THEN 1 ELSE 0 END), 0)" +
                                      kVariants +
                                      " LEFT JOIN instances i ON i.variant_id = v.id"
                                      " LEFT JOIN iteration_blocks b ON b.instance_id = i.id" +
                                      kSelected));
    stmt.bind_all(benchmark, filter.before);
    BG_ASSIGN(bool row, stmt.step());
    if (row) {
      counts.variants = stmt.int64(0);
      counts.instances = stmt.int64(1);
      counts.iterations = stmt.int64(2);
    }
  }
  std::vector<int64_t> runs;
  {
    BG_ASSIGN(Stmt stmt, db_->prepare("SELECT DISTINCT v.run_id, r.uuid, r.started_at" + kVariants +
                                      kSelected + " ORDER BY r.started_at, v.run_id"));
    stmt.bind_all(benchmark, filter.before);
    while (true) {
      BG_ASSIGN(bool row, stmt.step());
      if (!row) break;
      runs.push_back(stmt.int64(0));
      counts.runs.push_back({stmt.text(1), false});
    }
  }
  // What history derived from those runs no longer holds (a run's entry is derived again
  // from what is left).
  for (int64_t run : runs) {
    BG_ASSIGN(Stmt stmt, db_->prepare("DELETE FROM series_cache WHERE run_id = ?"));
    BG_TRY(stmt.bind(1, run).run());
  }
  {
    // Instances and their iteration arrays follow by ON DELETE CASCADE.
    BG_ASSIGN(Stmt stmt, db_->prepare("DELETE FROM variants WHERE id IN (SELECT v.id" + kVariants +
                                      kSelected + ")"));
    BG_TRY(stmt.bind_all(benchmark, filter.before).run());
    variant_keys_.clear();  // their ids may be given to new variants
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    BG_ASSIGN(Stmt stmt, db_->prepare("DELETE FROM runs WHERE id = ?1 AND NOT EXISTS "
                                      "(SELECT 1 FROM variants WHERE run_id = ?1)"));
    BG_TRY(stmt.bind(1, runs[k]).run());
    const int64_t emptied = db_->changes();
    counts.runs_emptied += static_cast<int>(emptied);
    counts.runs[k].removed = emptied > 0;
    if (emptied == 0) BG_TRY(count_run(runs[k]));  // what is left of it
  }
  if (filter.dry_run) {
    variant_keys_.clear();  // rolled back: the cache must not keep what the deletes changed
    return counts;          // the transaction rolls back as it goes
  }
  BG_TRY(txn.commit());
  return counts;
}

}  // namespace benchguard::store::sqlite
