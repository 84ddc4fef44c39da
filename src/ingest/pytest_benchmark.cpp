// pytest-benchmark --benchmark-json: each benchmark's stats.data holds one value per round
// (the round's time divided by its calls, in seconds); they become the iterations of one
// instance, as pytest measures every round in the same process. A file saved without the
// samples (stats.data absent, as pytest-benchmark's own storage keeps them by default) gives
// a summary record instead: mean, stddev, median, min and max of `rounds` rounds.
#include <fmt/format.h>

#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool detect(const Source& src) {
  if (!src.json || !src.json->is_object()) return false;
  auto rows = src.json->find("benchmarks");
  if (rows == src.json->end() || !rows->is_array()) return false;
  if (src.json->contains("machine_info")) return true;
  return !rows->empty() && rows->front().is_object() && rows->front().contains("stats");
}

struct Skipped {
  int values = 0;  // samples that were not numbers
  std::string example;
  int without_data = 0;  // benchmarks with summary statistics only
};

// The summary statistics of a benchmark saved without its samples.
Status read_summary(const JsonField& stats, VariantData& v) {
  SummaryRecord s;
  s.metric = "wall_time";
  BG_ASSIGN(s.mean, stats.number("mean"));
  BG_ASSIGN(s.stddev, stats.opt_number("stddev"));
  BG_ASSIGN(s.median, stats.opt_number("median"));
  BG_ASSIGN(s.min, stats.opt_number("min"));
  BG_ASSIGN(s.max, stats.opt_number("max"));
  BG_ASSIGN(auto rounds, stats.opt_integer("rounds"));  // a negative one: check_values
  s.count = rounds.value_or(0);
  v.summaries.push_back(std::move(s));
  return ok_status();
}

Status read_benchmark(const JsonField& bench, RunBuilder& b, Skipped& skipped,
                      std::vector<std::string>& warnings) {
  BG_ASSIGN(auto fullname, bench.opt_string("fullname"));
  std::string name = fullname.value_or("");
  if (!fullname) {
    BG_ASSIGN(name, bench.string("name"));
  }
  BG_ASSIGN(JsonField stats, bench.get("stats"));
  if (!stats.is_object()) return stats.error("expected an object");
  auto data = stats.find("data");
  VariantData& v = b.distinct_variant(name, warnings);
  if (auto p = bench.find("params")) {
    BG_ASSIGN(v.variant.params, p->key_values());
  }
  json config = json::object();
  for (const char* key : {"group", "iterations", "rounds"}) {
    if (bench.has(key)) config[key] = bench.json()[key];
    if (stats.has(key)) config[key] = stats.json()[key];
  }
  v.variant.config_json = config.dump();
  if (!data) {
    ++skipped.without_data;
    return read_summary(stats, v);
  }
  BG_ASSIGN(auto samples, data->elements());
  InstanceRecord& inst = b.add_instance(v);
  for (const auto& sample : samples) {
    if (!sample.json().is_number()) {
      // The fixtures' arrays end in "... omitted to keep this file small".
      if (skipped.values++ == 0) skipped.example = scalar_text(sample.json()).substr(0, 40);
      continue;
    }
    IterationRecord it;
    it.index = static_cast<int>(inst.iterations.size());
    it.metrics.emplace_back("wall_time", sample.json().get<double>());
    inst.iterations.push_back(std::move(it));
  }
  return ok_status();
}

Status read_commit(const JsonField& commit, RunRecord& run) {
  BG_ASSIGN(auto id, commit.opt_string("id"));
  BG_ASSIGN(auto branch, commit.opt_string("branch"));
  BG_ASSIGN(auto dirty, commit.opt_boolean("dirty"));
  run.git_commit = id.value_or("");
  run.git_branch = branch.value_or("");
  run.git_dirty = dirty.value_or(false);
  flatten_into(run.artifacts, commit.json(), "commit_info");
  return ok_status();
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(const json* doc, src.document());
  const JsonField root(*doc, "", src.path);
  RunBuilder b;
  RunRecord& run = b.data().run;
  if (auto machine = root.find("machine_info")) {
    flatten_into(run.artifacts, machine->json(), "machine_info");
    BG_ASSIGN(auto node, machine->opt_string("node"));
    run.hostname = node.value_or("");
  }
  if (auto commit = root.find("commit_info")) BG_TRY(read_commit(*commit, run));
  BG_ASSIGN(auto when, root.opt_string("datetime"));
  if (when) run.started_at = parse_timestamp(*when).value_or(0);
  BG_ASSIGN(auto version, root.opt_string("version"));
  if (version) run.artifacts.emplace_back("pytest_benchmark_version", *version);

  BG_ASSIGN(JsonField rows_field, root.get("benchmarks"));
  BG_ASSIGN(auto rows, rows_field.elements());
  Skipped skipped;
  Imported out;
  for (const auto& row : rows) BG_TRY(read_benchmark(row, b, skipped, out.warnings));

  if (skipped.without_data > 0)
    out.warnings.push_back(
        fmt::format("{} benchmark(s) have no stats.data samples, only summary statistics: stored "
                    "as summary records (history shows them; compare and summary cannot)",
                    skipped.without_data));
  if (skipped.values > 0)
    out.warnings.push_back(
        fmt::format("{} sample value(s) that are not numbers left out (e.g. "
                    "\"{}\")",
                    skipped.values, skipped.example));
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kPytestBenchmark{"pytest-benchmark", detect, parse};

}  // namespace benchguard::ingest
