// The counts list_runs gives of a run (RunSummary::benchmarks and instances), in one place for
// both backends: kept per ended run in run_counts (0013, docs/store.md), counted from the
// run's rows where it has none, and compared with those rows by `db check`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/store.hpp"

namespace benchguard::store {

// SQL expressions (standard SQL, the same in SQLite and PostgreSQL) counting the run whose id
// is `run` (a column or a parameter): the benchmarks that measured something (an instance or
// a summary), each benchmark once however many variants it has, and the instances.
struct RunCountsSql {
  std::string benchmarks;
  std::string instances;
};
RunCountsSql run_counts_sql(std::string_view run);

// list_runs' two count columns and what they are read from: the kept row, else the run's rows
// counted ("COALESCE(...), COALESCE(...) FROM runs r LEFT JOIN run_counts c ...").
std::string kept_counts_sql();

// The statement that writes an ended run's row from its rows (none for a running run), the
// run's id given as `param` ("?" in SQLite, "$1" in PostgreSQL; both take the upsert).
std::string count_run_sql(std::string_view param);

// The same counts of a run given whole (import, merge), as its rows will give them.
struct RunCounts {
  int64_t benchmarks = 0;
  int64_t instances = 0;
};
RunCounts run_counts_of(const RunData& data);

}  // namespace benchguard::store
