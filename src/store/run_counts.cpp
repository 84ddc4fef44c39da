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
