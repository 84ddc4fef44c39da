// run_counts (0013, store/run_counts.hpp): each ended run's counts, written when it ends or
// is added whole, counted again by prune, removed when instances are added to its run later.
#include <algorithm>

#include "store/run_counts.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {

Status SqliteStore::count_run(int64_t run_id) {
  if (schema_version_ < kRunCountsVersion) return ok_status();
  static const std::string sql = count_run_sql("?");
  BG_ASSIGN(Stmt stmt, db_->prepare(sql));
  return stmt.bind(1, run_id).run();
}

Status SqliteStore::uncount_variants(std::vector<int64_t> variant_ids) {
  if (schema_version_ < kRunCountsVersion) return ok_status();
  std::sort(variant_ids.begin(), variant_ids.end());
  variant_ids.erase(std::unique(variant_ids.begin(), variant_ids.end()), variant_ids.end());
  for (const int64_t id : variant_ids) {
    BG_ASSIGN(Stmt stmt, db_->prepare("DELETE FROM run_counts WHERE run_id = (SELECT run_id FROM "
                                      "variants WHERE id = ?)"));
    BG_TRY(stmt.bind(1, id).run());
  }
  return ok_status();
}

}  // namespace benchguard::store::sqlite
