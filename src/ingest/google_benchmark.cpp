// Google Benchmark JSON (--benchmark_out_format=json): every repetition row is one
// instance with one iteration; aggregate rows (mean, median, stddev, cv, BigO, RMS) are
// statistics of those rows, not measurements, and are left out, as are rows the benchmark
// skipped (SkipWithMessage, since 1.8: "skipped": true with zero times). A benchmark that has
// aggregate rows only (--benchmark_report_aggregates_only) gives summary records instead: the
// mean, median and stddev rows of each time and rate, over `repetitions` repetitions.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool detect(const Source& src) {
  if (!src.json || !src.json->is_object()) return false;
  auto rows = src.json->find("benchmarks");
  if (rows == src.json->end() || !rows->is_array()) return false;
  if (src.json->contains("context") && !src.json->contains("machine_info")) {
    for (const auto& row : *rows)
      if (row.is_object() && row.contains("stats")) return false;  // pytest-benchmark
    return true;
  }
  for (const auto& row : *rows)
    if (row.is_object() && (row.contains("run_type") || row.contains("time_unit"))) return true;
  return false;
}

// Rate counters Google Benchmark adds itself; both are higher-is-better.
const MetricInfo kRates[] = {{"bytes_per_second", "B/s", Direction::kHigherIsBetter},
                             {"items_per_second", "1/s", Direction::kHigherIsBetter}};

Status read_context(const JsonField& root, RunRecord& run) {
  auto context = root.find("context");
  if (!context) return ok_status();
  if (!context->is_object()) return context->error("expected an object");
  flatten_into(run.artifacts, context->json());
  BG_ASSIGN(auto host, context->opt_string("host_name"));
  if (host) run.hostname = *host;
  BG_ASSIGN(auto date, context->opt_string("date"));
  if (date) run.started_at = parse_timestamp(*date).value_or(0);
  return ok_status();
}

// The aggregate rows of one benchmark: what becomes its summary records when it has no
// repetition rows.
struct Aggregates {
  std::string name;
  int64_t repetitions = 0;
  std::string config_json;
  // statistic ("mean", "median", "stddev") -> metric -> value, in the metric's unit.
  std::map<std::string, std::map<std::string, double>> values;
};

// Reads an aggregate row into `all` (keyed by benchmark name, in first-seen order).
Status read_aggregate(const JsonField& row, std::vector<Aggregates>& all) {
  BG_ASSIGN(auto statistic, row.opt_string("aggregate_name"));
  BG_ASSIGN(auto unit_kind, row.opt_string("aggregate_unit"));
  // cv is a ratio, BigO and RMS describe complexity, user statistics are unknown.
  if (!statistic || (*statistic != "mean" && *statistic != "median" && *statistic != "stddev"))
    return ok_status();
  if (unit_kind && *unit_kind != "time") return ok_status();
  BG_ASSIGN(auto run_name, row.opt_string("run_name"));
  if (!run_name) return ok_status();
  auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& a) { return a.name == *run_name; });
  if (it == all.end()) {
    Aggregates a;
    a.name = *run_name;
    nlohmann::json config = nlohmann::json::object();
    for (const char* key : {"repetitions", "threads", "time_unit"})
      if (row.has(key)) config[key] = row.json()[key];
    a.config_json = config.dump();
    it = all.insert(all.end(), std::move(a));
  }
  BG_ASSIGN(auto repetitions, row.opt_integer("repetitions"));  // a negative one: check_values
  if (repetitions) it->repetitions = *repetitions;
  auto& values = it->values[*statistic];
  BG_ASSIGN(auto unit, row.opt_string("time_unit"));
  const auto scale = seconds_per(unit.value_or("ns"));
  if (!scale) return row.error(fmt::format("unknown time_unit \"{}\"", *unit));
  BG_ASSIGN(auto real, row.opt_number("real_time"));
  if (real) values["wall_time"] = *real * *scale;
  BG_ASSIGN(auto cpu, row.opt_number("cpu_time"));
  if (cpu) values["cpu_time"] = *cpu * *scale;
  for (const auto& rate : kRates) {
    BG_ASSIGN(auto v, row.opt_number(rate.name));
    if (v) values[rate.name] = *v;
  }
  return ok_status();
}

// The summary records of a benchmark's aggregates: one per metric its mean row gives.
std::vector<SummaryRecord> summaries_of(const Aggregates& a) {
  std::vector<SummaryRecord> out;
  const auto mean = a.values.find("mean");
  if (mean == a.values.end()) return out;
  const auto other = [&](const char* statistic, const std::string& metric) {
    std::optional<double> v;
    if (const auto s = a.values.find(statistic); s != a.values.end())
      if (const auto m = s->second.find(metric); m != s->second.end()) v = m->second;
    return v;
  };
  // Times first, then rates, whatever order the map holds them in.
  for (const char* metric :
       {"wall_time", "cpu_time", kRates[0].name.c_str(), kRates[1].name.c_str()}) {
    const auto m = mean->second.find(metric);
    if (m == mean->second.end()) continue;
    SummaryRecord s;
    s.metric = metric;
    s.count = a.repetitions;
    s.mean = m->second;
    s.median = other("median", metric);
    s.stddev = other("stddev", metric);
    out.push_back(std::move(s));
  }
  return out;
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(const json* doc, src.document());
  const JsonField root(*doc, "", src.path);
  Imported out;
  RunBuilder b;
  BG_TRY(read_context(root, b.data().run));

  BG_ASSIGN(JsonField rows_field, root.get("benchmarks"));
  BG_ASSIGN(auto rows, rows_field.elements());
  int aggregates = 0, without_time = 0, skipped = 0;
  std::vector<Aggregates> aggregate_rows;
  std::string skip_example;
  bool rates_seen[2] = {false, false};
  for (const auto& row : rows) {
    BG_ASSIGN(auto run_type, row.opt_string("run_type"));
    if (run_type == "aggregate") {
      ++aggregates;
      BG_TRY(read_aggregate(row, aggregate_rows));
      continue;
    }
    BG_ASSIGN(auto run_name, row.opt_string("run_name"));
    std::string name = run_name.value_or("");
    if (!run_name) {
      BG_ASSIGN(name, row.string("name"));
    }
    BG_ASSIGN(auto failed, row.opt_boolean("error_occurred"));
    BG_ASSIGN(auto skip, row.opt_boolean("skipped"));
    if (skip.value_or(false) && !failed.value_or(false)) {
      BG_ASSIGN(auto message, row.opt_string("skip_message"));
      if (skipped++ == 0) skip_example = message.value_or("").substr(0, 40);
      continue;
    }
    if (!row.has("real_time")) {
      ++without_time;
      continue;
    }
    BG_ASSIGN(auto unit, row.opt_string("time_unit"));
    const auto scale = seconds_per(unit.value_or("ns"));
    if (!scale) return row.error(fmt::format("unknown time_unit \"{}\"", *unit));
    BG_ASSIGN(double real, row.number("real_time"));
    std::vector<std::pair<std::string, double>> metrics{{"wall_time", real * *scale}};
    BG_ASSIGN(auto cpu, row.opt_number("cpu_time"));
    if (cpu) metrics.emplace_back("cpu_time", *cpu * *scale);
    for (size_t r = 0; r < 2; ++r) {
      BG_ASSIGN(auto rate, row.opt_number(kRates[r].name));
      if (!rate) continue;
      metrics.emplace_back(kRates[r].name, *rate);
      rates_seen[r] = true;
    }

    VariantData& v = b.variant(name);
    if (v.instances.empty()) {
      json config = json::object();
      for (const char* key : {"iterations", "threads", "repetitions", "time_unit"})
        if (row.has(key)) config[key] = row.json()[key];
      v.variant.config_json = config.dump();
    }
    InstanceRecord& inst = add_single(b, v, std::move(metrics));
    if (failed.value_or(false)) {
      BG_ASSIGN(auto message, row.opt_string("error_message"));
      inst.failure = "benchmark error: " + message.value_or("(no message)");
      inst.iterations.front().failure = inst.failure;
    }
  }
  // Benchmarks reported by their aggregates alone.
  int summarised = 0;
  for (const auto& a : aggregate_rows) {
    if (b.has_variant(a.name)) continue;  // its repetitions are here: the aggregates add nothing
    auto summaries = summaries_of(a);
    if (summaries.empty()) continue;
    VariantData& v = b.variant(a.name);
    v.variant.config_json = a.config_json;
    for (const auto& s : summaries)
      for (size_t r = 0; r < 2; ++r)
        if (s.metric == kRates[r].name) rates_seen[r] = true;
    v.summaries = std::move(summaries);
    ++summarised;
  }
  for (size_t r = 0; r < 2; ++r)
    if (rates_seen[r]) out.metrics.push_back(kRates[r]);
  if (summarised > 0)
    out.warnings.push_back(fmt::format(
        "{} benchmark(s) have aggregate rows only (--benchmark_report_aggregates_only): stored "
        "as summary records (history shows them; compare and summary cannot)",
        summarised));
  if (skipped > 0)
    out.warnings.push_back(
        fmt::format("{} benchmark row(s) skipped by the benchmark left out (e.g. \"{}\")", skipped,
                    skip_example));
  if (without_time > 0)
    out.warnings.push_back(
        fmt::format("{} benchmark row(s) without real_time left out", without_time));
  if (b.data().variants.empty() && aggregates > 0)
    out.warnings.push_back(
        fmt::format("only aggregate rows ({}), no repetitions to import", aggregates));
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kGoogleBenchmark{"google-benchmark", detect, parse};

std::vector<MetricInfo> google_benchmark_metrics() {
  return {std::begin(kRates), std::end(kRates)};
}

}  // namespace benchguard::ingest
