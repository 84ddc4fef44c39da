// What `benchguard db check` holds a SQLite database's rows to (sqlite_check.cpp runs them):
// the storage class each column must have and the invariants each table keeps, for the tables
// a schema version has. Data more than code, and apart from the check so that each reads whole.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace benchguard::store::sqlite {

// The storage class each column must hold ("integer", "real", "text", "null").
struct ColumnTypes {
  std::string table;
  std::string key;  // how a row is named in messages
  std::vector<std::pair<std::string, std::vector<std::string>>> columns;
};

// The columns of the tables a schema `version` has.
std::vector<ColumnTypes> column_types(int version);

// "'a', 'b'": SQL string literals of `items`, for an IN list.
std::string quoted_list(const std::vector<std::string>& items);

// One invariant: a query returning (row id, detail) for each row that breaks it, and the
// message for such a row ({} is the detail).
struct Invariant {
  std::string table;
  std::string sql;
  std::string message;
};

// The invariants of the tables a schema `version` has.
std::vector<Invariant> invariants(int version);

}  // namespace benchguard::store::sqlite
