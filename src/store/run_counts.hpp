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

// The same counts of a run given whole (import, merge), as its rows will give them.
struct RunCounts {
  int64_t benchmarks = 0;
  int64_t instances = 0;
};
RunCounts run_counts_of(const RunData& data);

}  // namespace benchguard::store
