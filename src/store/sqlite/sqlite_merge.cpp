// merge_from: appends the runs of another benchguard database, skipping runs whose uuid is
// already here. The other file is only read; an older one is migrated in a temporary copy.
#include <filesystem>
#include <optional>

#include "store/sqlite/migrate.hpp"
#include "store/sqlite/open.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace benchguard::store::sqlite {
Result<MergeCounts> SqliteStore::merge_from(const std::string& other_path) {
  BG_TRY(before_write());
  std::error_code ec;
  if (std::filesystem::equivalent(other_path, db_->path(), ec))
    return error("cannot merge a database into itself");

  // Declared before the store that uses it, so the file outlives the connection.
  std::optional<TempDatabase> temp;
  BG_ASSIGN(std::unique_ptr<Db> other, open_read_only(other_path));
  BG_ASSIGN(SchemaProbe probe, probe_schema(*other));
  // OTHER's instance logs, and so its writers' locks, are beside the file itself.
  std::error_code canonical_ec;
  std::string location = std::filesystem::weakly_canonical(other_path, canonical_ec).string();
  if (canonical_ec || location.empty()) location = other_path;
  // Instances a killed writer of OTHER logged but never committed: locked while we read them.
  BG_ASSIGN(std::vector<OrphanLog> logs, orphan_logs(location));
  if (probe.version < latest_schema_version() || !logs.empty()) {
    // OTHER stays as it is: an older schema is migrated, and logs replayed, in a copy.
    BG_ASSIGN(TempDatabase copy, TempDatabase::create("merge"));
    temp.emplace(std::move(copy));
    BG_TRY(copy_database(*other, temp->path()));
    other.reset();
    BG_ASSIGN(other, open_read_write(temp->path(), OpenOptions{.create = false, .migrate = true}));
    other->set_path(other_path);
  }
  // Runs of OTHER whose writer is gone arrive `interrupted`.
  SqliteStore source(std::move(other), latest_schema_version(), location, /*read_only=*/false);
  source.set_held_logs(logs);
  BG_TRY(source.replay(logs, /*remove=*/false));
  BG_ASSIGN(Transaction snapshot, Transaction::begin_read(*source.db_));
  BG_ASSIGN(auto metrics, source.read_metrics());
  BG_ASSIGN(std::vector<RunSummary> runs, source.list_runs());

  std::vector<MetricInfo> declared;
  declared.reserve(metrics.size());
  for (auto& [id, metric] : metrics) declared.push_back(std::move(metric));
  return merge_runs(declared, runs,
                    [&](const RunSummary& summary) { return source.read_run(summary.id, {}); });
}

}  // namespace benchguard::store::sqlite
