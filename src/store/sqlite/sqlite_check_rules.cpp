#include "store/sqlite/sqlite_check_rules.hpp"

#include "core/model.hpp"
#include "store/run_counts.hpp"
#include "store/sqlite/migrate.hpp"

namespace benchguard::store::sqlite {
namespace {

const std::vector<std::string> kInt = {"integer"};
const std::vector<std::string> kIntOrNull = {"integer", "null"};
const std::vector<std::string> kReal = {"real", "integer"};
const std::vector<std::string> kRealOrNull = {"real", "integer", "null"};
const std::vector<std::string> kText = {"text"};
const std::vector<std::string> kTextOrNull = {"text", "null"};
const std::vector<std::string> kBlob = {"blob"};
const std::vector<std::string> kBlobOrNull = {"blob", "null"};

}  // namespace

std::vector<ColumnTypes> column_types(int version) {
  std::vector<ColumnTypes> out = {
      {"runs",
       "id",
       {{"uuid", kText},
        {"started_at", kInt},
        {"finished_at", kInt},
        {"status", kText},
        {"suite", kText},
        {"suite_path", kText},
        {"hostname", kText},
        {"git_commit", kText},
        {"git_branch", kText},
        {"git_dirty", kInt},
        {"command_line", kText}}},
      {"run_labels", "id", {{"run_id", kInt}, {"key", kText}, {"value", kText}}},
      {"artifacts", "id", {{"run_id", kInt}, {"key", kText}, {"value", kText}}},
      {"benchmarks", "id", {{"name", kText}}},
      {"metrics", "id", {{"name", kText}, {"unit", kText}, {"direction", kText}}},
      {"variants",
       "id",
       {{"run_id", kInt},
        {"benchmark_id", kInt},
        {"name", kText},
        {"command", kText},
        {"params", kText},
        {"env", kText},
        {"config_json", kText}}},
      {"instances",
       "id",
       {{"variant_id", kInt},
        {"idx", kInt},
        {"schedule_order", kInt},
        {"start_ns", kInt},
        {"end_ns", kInt},
        {"started_at", kInt},
        {"exit_code", kInt},
        {"signal", kInt},
        {"timed_out", kInt},
        {"failure", kTextOrNull},
        {"user_s", kReal},
        {"sys_s", kReal},
        {"max_rss_bytes", kInt},
        {"mem_peak_bytes", kInt},
        {"mem_avg_bytes", kReal},
        {"mem_samples", kInt},
        {"instructions", kIntOrNull},
        {"cycles", kIntOrNull},
        {"cpus", kText},
        {"schedule_tag", kText},
        {"schedule", kText},
        {"timed_outside", kInt}}},
  };
  if (version >= kRssFloorVersion)
    for (auto& table : out)
      if (table.table == "instances") table.columns.push_back({"rss_floor_bytes", kInt});
  if (version >= kMemSourceVersion)
    for (auto& table : out)
      if (table.table == "instances") table.columns.push_back({"mem_source", kText});
  if (version >= kHookTimesVersion)
    for (auto& table : out)
      if (table.table == "instances")
        for (const char* c : {"prepare_s", "conclude_s"}) table.columns.push_back({c, kReal});
  if (version >= kIterationColumnsVersion) {
    out.push_back({"iteration_blocks",
                   "instance_id",
                   {{"count", kInt},
                    {"idx", kBlobOrNull},
                    {"start_ns", kBlob},
                    {"end_ns", kBlob},
                    {"flags", kBlobOrNull},
                    {"failures", kTextOrNull}}});
    out.push_back({"iteration_values",
                   "instance_id || '/' || metric_id",
                   {{"metric_id", kInt}, {"present", kBlobOrNull}, {"data", kBlob}}});
  } else {
    out.push_back({"iterations",
                   "id",
                   {{"instance_id", kInt},
                    {"idx", kInt},
                    {"start_ns", kInt},
                    {"end_ns", kInt},
                    {"burn_in", kInt},
                    {"timed_out", kInt},
                    {"failure", kTextOrNull}}});
    out.push_back({"metric_values",
                   "iteration_id || '/' || metric_id",
                   {{"iteration_id", kInt}, {"metric_id", kInt}, {"value", kRealOrNull}}});
  }
  if (version >= kInstanceCountsVersion)
    out.push_back({"instance_counts",
                   "instance_id || '/' || metric_id",
                   {{"position", kInt}, {"value", kInt}}});
  if (version >= kRunCountsVersion)
    out.push_back({"run_counts", "run_id", {{"benchmarks", kInt}, {"instances", kInt}}});
  if (version >= kRunWritersVersion)
    out.push_back({"run_writers",
                   "run_id",
                   {{"hostname", kText},
                    {"machine_id", kText},
                    {"boot_id", kText},
                    {"pid_ns", kText},
                    {"pid", kInt},
                    {"pid_start", kInt},
                    {"lock", kText},
                    {"checksum", kIntOrNull}}});
  if (version >= kSummaryVersion)
    out.push_back({"summaries",
                   "id",
                   {{"variant_id", kInt},
                    {"metric_id", kInt},
                    {"count", kInt},
                    {"mean", kRealOrNull},
                    {"stddev", kRealOrNull},
                    {"median", kRealOrNull},
                    {"min", kRealOrNull},
                    {"max", kRealOrNull},
                    {"checksum", kIntOrNull}}});
  if (version >= kSeriesCacheVersion)
    out.push_back({"series_cache",
                   "id",
                   {{"run_id", kInt}, {"key", kText}, {"data", kBlob}, {"checksum", kInt}}});
  if (version >= kChecksumVersion)
    for (auto& t : out)
      if (t.table == "runs" || t.table == "variants" || t.table == "instances" ||
          t.table == "metrics")
        t.columns.emplace_back("checksum", kIntOrNull);
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "'" : ", '") + i + "'";
  return out;
}

std::vector<Invariant> invariants(int version) {
  const std::string builtins = [] {
    std::vector<std::string> names;
    for (const auto& m : builtin_metrics()) names.push_back(m.name);
    return quoted_list(names);
  }();
  std::vector<Invariant> out = {
      {"runs",
       "SELECT id, status FROM runs WHERE status NOT IN ('running', 'complete', 'failed', "
       "'interrupted', 'imported')",
       "status '{}' is not one of running, complete, failed, interrupted, imported"},
      {"runs", "SELECT id, '' FROM runs WHERE uuid = ''", "has no uuid"},
      {"runs", "SELECT id, started_at FROM runs WHERE started_at < 0",
       "started_at is negative ({})"},
      {"runs",
       "SELECT id, finished_at - started_at FROM runs WHERE finished_at <> 0 AND finished_at < "
       "started_at",
       "finished before it started ({} ns)"},
      {"runs", "SELECT id, finished_at FROM runs WHERE status = 'running' AND finished_at <> 0",
       "is running but has finished_at set ({})"},
      {"runs",
       "SELECT id, status FROM runs WHERE status IN ('complete', 'failed', 'interrupted') AND "
       "finished_at = 0",
       "is {} but has no finished_at"},
      {"runs", "SELECT id, git_dirty FROM runs WHERE git_dirty NOT IN (0, 1)",
       "git_dirty is {}, not 0 or 1"},
      {"benchmarks", "SELECT id, '' FROM benchmarks WHERE name = ''", "has no name"},
      {"metrics", "SELECT id, '' FROM metrics WHERE name = ''", "has no name"},
      {"metrics", "SELECT id, direction FROM metrics WHERE direction NOT IN ('lower', 'higher')",
       "direction '{}' is not lower or higher"},
      {"variants", "SELECT id, '' FROM variants WHERE name = ''", "has no name"},
      {"variants",
       "SELECT variant_id, idx FROM instances GROUP BY variant_id, idx HAVING COUNT(*) > 1",
       "instance index {} is stored more than once"},
      {"variants",
       "SELECT variant_id, COUNT(DISTINCT idx) || ' instances, highest index ' || MAX(idx) FROM "
       "instances GROUP BY variant_id HAVING MAX(idx) + 1 <> COUNT(DISTINCT idx)",
       "instance indexes have gaps ({})"},
      {"instances", "SELECT id, end_ns - start_ns FROM instances WHERE end_ns < start_ns",
       "ends before it starts ({} ns)"},
      {"instances", "SELECT id, idx FROM instances WHERE idx < 0", "index is negative ({})"},
      {"instances", "SELECT id, started_at FROM instances WHERE started_at < 0",
       "started_at is negative ({})"},
      {"instances", "SELECT id, timed_out FROM instances WHERE timed_out NOT IN (0, 1)",
       "timed_out is {}, not 0 or 1"},
      {"instances", "SELECT id, timed_outside FROM instances WHERE timed_outside NOT IN (0, 1)",
       "timed_outside is {}, not 0 or 1"},
      {"instances", "SELECT id, signal FROM instances WHERE signal < 0 OR signal > 128",
       "signal {} is not a signal number"},
      {"instances",
       "SELECT id, user_s || ' s user, ' || sys_s || ' s system' FROM instances WHERE user_s < "
       "0 OR sys_s < 0",
       "CPU time is negative ({})"},
      {"instances",
       "SELECT id, max_rss_bytes || ', ' || mem_peak_bytes || ', ' || mem_avg_bytes FROM "
       "instances WHERE max_rss_bytes < 0 OR mem_peak_bytes < 0 OR mem_avg_bytes < 0 OR "
       "mem_samples < 0",
       "memory is negative ({})"},
      {"instances",
       "SELECT id, IFNULL(instructions, '-') || ', ' || IFNULL(cycles, '-') FROM instances WHERE "
       "instructions < 0 OR cycles < 0",
       "hardware counters are negative ({})"},
      {"instances",
       "SELECT id, schedule FROM instances WHERE schedule NOT IN ('', 'interleaved', 'sequential', "
       "'alternate', "
       "'randomized', 'duet', 'sync-duet')",
       "schedule '{}' is unknown"},
      {"instances",
       "SELECT id, schedule_tag FROM instances WHERE schedule_tag NOT IN ('', 'AB', 'BA')",
       "schedule_tag '{}' is not AB or BA"},
      {"instances", "SELECT id, '' FROM instances WHERE failure = ''",
       "failure is an empty string, not NULL"},
  };
  // Before 0009 a row per iteration and per value; from 0009 arrays, whose decoded values
  // check() tests as it reads them.
  const std::vector<Invariant> rows = {
      {"instances",
       "SELECT i.id, COUNT(*) FROM instances i JOIN iterations it ON it.instance_id = i.id "
       "WHERE i.timed_outside = 1 GROUP BY i.id HAVING COUNT(*) > 1",
       "was timed from outside but has {} iterations"},
      {"instances",
       "SELECT i.id, '' FROM instances i WHERE i.timed_outside = 0 AND NOT EXISTS (SELECT 1 FROM "
       "iterations it WHERE it.instance_id = i.id)",
       "has no iterations"},
      {"iterations", "SELECT id, end_ns - start_ns FROM iterations WHERE end_ns < start_ns",
       "ends before it starts ({} ns)"},
      {"iterations", "SELECT id, idx FROM iterations WHERE idx < 0", "index is negative ({})"},
      {"iterations",
       "SELECT id, burn_in || ', ' || timed_out FROM iterations WHERE burn_in NOT IN (0, 1) OR "
       "timed_out NOT IN (0, 1)",
       "burn_in or timed_out is not 0 or 1 ({})"},
      {"iterations", "SELECT id, '' FROM iterations WHERE failure = ''",
       "failure is an empty string, not NULL"},
      {"metric_values",
       "SELECT mv.iteration_id || '/' || mv.metric_id, m.name || ' = ' || mv.value FROM "
       "metric_values mv JOIN metrics m ON m.id = mv.metric_id WHERE m.name IN (" +
           builtins +
           ") AND (mv.value < 0 OR mv.value > 1.7976931348623157e308 OR mv.value < "
           "-1.7976931348623157e308)",
       "a built-in metric is negative or infinite ({})"},
  };
  const std::vector<Invariant> arrays = {
      {"instances",
       "SELECT i.id, b.count FROM instances i JOIN iteration_blocks b ON b.instance_id = i.id "
       "WHERE i.timed_outside = 1 AND b.count > 1",
       "was timed from outside but has {} iterations"},
      {"instances",
       "SELECT i.id, '' FROM instances i WHERE i.timed_outside = 0 AND NOT EXISTS (SELECT 1 FROM "
       "iteration_blocks b WHERE b.instance_id = i.id)",
       "has no iterations"},
      {"iteration_blocks", "SELECT instance_id, count FROM iteration_blocks WHERE count < 1",
       "count is {}, not positive"},
      {"iteration_blocks",
       "SELECT instance_id, count || ' iterations; start_ns ' || length(start_ns) || ', end_ns ' "
       "|| length(end_ns) || ', idx ' || IFNULL(length(idx), '-') || ', flags ' || "
       "IFNULL(length(flags), '-') FROM iteration_blocks WHERE length(start_ns) <> 8 * count OR "
       "length(end_ns) <> 8 * count OR length(idx) <> 8 * count OR length(flags) <> count",
       "arrays do not match its count ({} bytes)"},
      {"iteration_blocks",
       "SELECT instance_id, '' FROM iteration_blocks WHERE failures IS NOT NULL AND "
       "(json_valid(failures) = 0 OR json_type(failures) <> 'array')",
       "failures is not a JSON array"},
      {"iteration_values",
       "SELECT iv.instance_id || '/' || iv.metric_id, b.count || ' iterations; data ' || "
       "length(iv.data) || ', present ' || IFNULL(length(iv.present), '-') FROM "
       "iteration_values iv JOIN iteration_blocks b ON b.instance_id = iv.instance_id WHERE "
       "length(iv.data) <> 8 * b.count OR length(iv.present) <> b.count",
       "arrays do not match its block's count ({} bytes)"},
  };
  for (const auto& inv : version >= kIterationColumnsVersion ? arrays : rows) out.push_back(inv);
  if (version >= kRssFloorVersion)
    out.push_back({"instances",
                   "SELECT id, rss_floor_bytes FROM instances WHERE rss_floor_bytes < 0",
                   "rss_floor_bytes is negative ({})"});
  if (version >= kHookTimesVersion)
    out.push_back({"instances",
                   "SELECT id, min(prepare_s, conclude_s) FROM instances WHERE prepare_s < 0 OR "
                   "conclude_s < 0",
                   "a hook's time is negative ({})"});
  if (version >= kInstanceCountsVersion)
    out.push_back({"instance_counts",
                   "SELECT instance_id || '/' || metric_id, value FROM instance_counts WHERE "
                   "value < 0",
                   "count is negative ({})"});
  if (version >= kSummaryVersion) {
    out.push_back(
        {"summaries", "SELECT id, count FROM summaries WHERE count < 0", "count is negative ({})"});
    out.push_back({"summaries", "SELECT id, '' FROM summaries WHERE mean IS NULL", "has no mean"});
    out.push_back({"summaries", "SELECT id, stddev FROM summaries WHERE stddev < 0",
                   "standard deviation is negative ({})"});
    out.push_back({"summaries", "SELECT id, min || ' > ' || max FROM summaries WHERE min > max",
                   "min is above max ({})"});
    out.push_back({"summaries",
                   "SELECT s.id, m.name || ' = ' || s.mean FROM summaries s JOIN metrics m ON "
                   "m.id = s.metric_id WHERE m.name IN (" +
                       builtins + ") AND (s.mean < 0 OR s.min < 0)",
                   "a built-in metric is negative ({})"});
  }
  if (version >= kSeriesCacheVersion)
    out.push_back({"series_cache",
                   "SELECT c.id, c.run_id FROM series_cache c JOIN runs r ON r.id = c.run_id "
                   "WHERE r.status = 'running'",
                   "an entry for run {}, which is still running"});
  if (version >= kRunCountsVersion) {
    const auto live = run_counts_sql("c.run_id");
    out.push_back({"run_counts",
                   "SELECT run_id, benchmarks || ' benchmarks and ' || instances || ' instances "
                   "where its rows give ' || b || ' and ' || n FROM (SELECT c.run_id, "
                   "c.benchmarks, c.instances, " +
                       live.benchmarks + " AS b, " + live.instances +
                       " AS n FROM run_counts c) WHERE benchmarks <> b OR instances <> n",
                   "holds {}"});
    out.push_back({"run_counts",
                   "SELECT c.run_id, '' FROM run_counts c JOIN runs r ON r.id = c.run_id WHERE "
                   "r.status = 'running'",
                   "counts of a run still running"});
  }
  return out;
}

}  // namespace benchguard::store::sqlite
