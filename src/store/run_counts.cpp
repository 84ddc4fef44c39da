#include "store/run_counts.hpp"

#include <set>

namespace benchguard::store {

RunCountsSql run_counts_sql(std::string_view run) {
  const std::string r(run);
  return {"(SELECT COUNT(DISTINCT v.benchmark_id) FROM variants v WHERE v.run_id = " + r +
              " AND (EXISTS (SELECT 1 FROM instances i WHERE i.variant_id = v.id) OR EXISTS "
              "(SELECT 1 FROM summaries s WHERE s.variant_id = v.id)))",
          "(SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id WHERE "
          "v.run_id = " +
              r + ")"};
}

std::string kept_counts_sql() {
  const auto live = run_counts_sql("r.id");
  return "COALESCE(c.benchmarks, " + live.benchmarks + "), COALESCE(c.instances, " +
         live.instances + ") FROM runs r LEFT JOIN run_counts c ON c.run_id = r.id ";
}

std::string count_run_sql(std::string_view param) {
  const auto counted = run_counts_sql("r.id");
  return "INSERT INTO run_counts(run_id, benchmarks, instances) SELECT r.id, " +
         counted.benchmarks + ", " + counted.instances +
         " FROM runs r WHERE r.id = " + std::string(param) +
         " AND r.status <> 'running' ON CONFLICT (run_id) DO UPDATE SET benchmarks = "
         "excluded.benchmarks, instances = excluded.instances";
}

RunCounts run_counts_of(const RunData& data) {
  RunCounts counts;
  std::set<std::string_view> measured;
  for (const auto& v : data.variants) {
    counts.instances += static_cast<int64_t>(v.instances.size());
    if (!v.instances.empty() || !v.summaries.empty()) measured.insert(v.variant.benchmark);
  }
  counts.benchmarks = static_cast<int64_t>(measured.size());
  return counts;
}

}  // namespace benchguard::store
