// Versioned schema: the embedded src/store/migrations/NNNN_name.sql files, applied in
// order, each in its own transaction (a new database's all in one), recorded in
// schema_migrations and PRAGMA user_version.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "store/sqlite/db.hpp"
#include "store/store.hpp"

namespace benchguard::store::sqlite {

struct Migration {
  int version = 0;
  std::string name;  // "history_indexes" for 0002_history_indexes.sql
  std::string_view sql;
  // What SQL alone cannot do, run after `sql` in the same transaction (0009 packs the rows
  // of iterations into arrays); nullptr for most.
  Status (*step)(Db&) = nullptr;
};

// The embedded migrations, checked once: well-formed names, versions 1..N without gaps.
Result<std::vector<Migration>> embedded_migrations();
// N, the newest version this binary knows (0 if the embedded set is malformed).
int latest_schema_version();
// The oldest version the readers understand: later migrations add what reading does not
// need (0005 run writers, 0006 checksums) or what it reads either way (0009 iterations by
// column), so a database at 4 is read without migrating it.
inline constexpr int kOldestReadableVersion = 4;

// What a file holds, learned without writing to it.
enum class SchemaKind {
  kEmpty,       // no tables: a new database
  kBenchguard,  // user_version > 0 and a schema_migrations table
  kForeign,     // tables, but not benchguard's
};
struct SchemaProbe {
  SchemaKind kind = SchemaKind::kEmpty;
  int version = 0;
  std::vector<std::string> tables;  // user tables, sorted
};
Result<SchemaProbe> probe_schema(Db& db);

// Refuses foreign databases and newer schema versions with a one-line Error naming the path.
Result<SchemaProbe> check_schema(Db& db);

// Applies the migrations after the database's version up to `target`, one transaction each;
// those of a new database (version 0) in one transaction together.
Status apply_migrations(Db& db, int target);

// The version from which runs record their writer (0005, store/writer.hpp).
inline constexpr int kRunWritersVersion = 5;
// The version from which rows keep checksums (0006, store/checksum.hpp).
inline constexpr int kChecksumVersion = 6;
// The version from which variants may keep summary records (0008): read where the table
// exists, written with every run.
inline constexpr int kSummaryVersion = 8;
// The version from which iterations are stored by column (iteration_columns.hpp).
inline constexpr int kIterationColumnsVersion = 9;
// The version from which instances record rss_floor_bytes.
inline constexpr int kRssFloorVersion = 10;
// The version from which runs may keep a series cache entry (0011).
inline constexpr int kSeriesCacheVersion = 11;
// The version from which instances may keep counts beyond instructions and cycles (0012).
inline constexpr int kInstanceCountsVersion = 12;
// The version from which ended runs keep their counts (0013, store/run_counts.hpp).
inline constexpr int kRunCountsVersion = 13;
// The version from which instances record where their peak memory came from (0014).
inline constexpr int kMemSourceVersion = 14;
// The version from which instances record their hooks' times, prepare_s and conclude_s (0015).
inline constexpr int kHookTimesVersion = 15;

Result<SchemaStatus> read_schema_status(Db& db);

}  // namespace benchguard::store::sqlite
