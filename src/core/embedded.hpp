// Files compiled into the binary (migrations, dashboard assets) by cmake/Embed.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace benchguard {

struct EmbeddedFile {
  std::string_view name;
  std::string_view content;
};

// src/store/migrations/*.sql, sorted by name (NNNN_name.sql).
const std::vector<EmbeddedFile>& sqlite_migration_files();

// src/store/schema/sqlite_latest.sql: the schema those migrations make, as sqlite_master holds
// it (one file).
const std::vector<EmbeddedFile>& sqlite_schema_files();

// The dashboard's scripts, styles and chart library (cmake/Dashboard.cmake); empty when built
// with BENCHGUARD_DASHBOARD=OFF.
const std::vector<EmbeddedFile>& dashboard_asset_files();

}  // namespace benchguard
