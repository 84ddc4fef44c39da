// Hail's benchmark JSONL (and `benchguard export --format jsonl`, which writes the same
// records): one line per instance, {path, name, version, start, end, iterations: [{time,
// is_burn_in, timed_out, failure, task_memory}]}. Hail's newer writer calls the list "runs"
// and adds uname, batch_id, job_id, trial; benchguard adds variant, instance, run, failure.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_error.hpp"
#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool is_record(const json& j) {
  return j.is_object() && j.contains("name") && (j.contains("iterations") || j.contains("runs"));
}

// Members that describe the instance rather than the machine or the suite.
bool per_instance(const std::string& key) {
  for (const char* k :
       {"name", "start", "end", "iterations", "runs", "variant", "instance", "run", "failure"})
    if (key == k) return true;
  return false;
}

bool detect(const Source& src) {
  if (src.json) return is_record(*src.json);
  for (const auto& line : split_lines(src.text)) {
    if (line.text.find_first_not_of(" \t") == std::string_view::npos) continue;
    return is_record(json::parse(line.text, nullptr, /*allow_exceptions=*/false));
  }
  return false;
}

Result<int64_t> time_of(const JsonField& record, const char* key) {
  BG_ASSIGN(auto text, record.opt_string(key));
  if (!text) return int64_t{0};
  auto t = parse_timestamp(*text);
  if (!t) return record.error(fmt::format("{}: \"{}\" is not an ISO 8601 time", key, *text));
  return *t;
}

Status read_iteration(const JsonField& f, InstanceRecord& inst) {
  IterationRecord it;
  it.index = static_cast<int>(inst.iterations.size());
  BG_ASSIGN(auto time, f.opt_number("time"));
  if (time) it.metrics.emplace_back("wall_time", *time);
  BG_ASSIGN(auto burn_in, f.opt_boolean("is_burn_in"));
  BG_ASSIGN(auto timed_out, f.opt_boolean("timed_out"));
  BG_ASSIGN(auto memory, f.opt_number("task_memory"));
  it.burn_in = burn_in.value_or(false);
  it.timed_out = timed_out.value_or(false);
  // A traceback string in Hail's writer; whatever JSON it is, it means the iteration failed.
  if (auto failure = f.find("failure")) it.failure = scalar_text(failure->json());
  if (memory && !(std::fabs(*memory) < 0x1p63))  // bytes, as an int64_t
    return f.error(fmt::format("task_memory {} is out of range", *memory));
  if (memory) inst.mem_peak_bytes = std::max(inst.mem_peak_bytes, static_cast<int64_t>(*memory));
  inst.iterations.push_back(std::move(it));
  return ok_status();
}

Status read_record(const JsonField& record, bool first, RunBuilder& b) {
  BG_ASSIGN(std::string name, record.string("name"));
  BG_ASSIGN(auto variant, record.opt_string("variant"));
  BG_ASSIGN(JsonField iterations_field, record.get(record.has("runs") ? "runs" : "iterations"));
  BG_ASSIGN(auto iterations, iterations_field.elements());
  BG_ASSIGN(int64_t start, time_of(record, "start"));
  BG_ASSIGN(int64_t end, time_of(record, "end"));

  InstanceRecord& inst = b.add_instance(b.variant(name, variant.value_or("default")));
  inst.started_at = start;
  inst.start_ns = start;
  inst.end_ns = end;
  if (auto failure = record.find("failure")) inst.failure = scalar_text(failure->json());
  for (const auto& it : iterations) BG_TRY(read_iteration(it, inst));
  // Hail keeps failures per iteration; a record whose iterations all failed is a failed
  // instance.
  const bool all_failed =
      !inst.iterations.empty() && std::all_of(inst.iterations.begin(), inst.iterations.end(),
                                              [](const auto& it) { return !it.failure.empty(); });
  if (inst.failure.empty() && all_failed) inst.failure = inst.iterations.back().failure;

  RunRecord& run = b.data().run;
  if (first) {
    // The first record describes the machine and the suite for all of them.
    for (auto it = record.json().begin(); it != record.json().end(); ++it)
      if (!per_instance(it.key())) flatten_into(run.artifacts, it.value(), it.key());
    for (const auto& [k, v] : run.artifacts)
      if (k == "uname.node") run.hostname = v;
  }
  if (end > run.finished_at) run.finished_at = end;
  return ok_status();
}

Result<Imported> parse(const Source& src) {
  RunBuilder b;
  b.data().run.suite = "hail";
  bool first = true;
  for (const auto& line : split_lines(src.text)) {
    if (line.text.find_first_not_of(" \t") == std::string_view::npos) continue;
    json j;
    try {
      j = json::parse(line.text);
    } catch (const json::exception& e) {  // syntax, or a number beyond a double
      return src.error(line.number,
                       (line.terminated ? "malformed JSON: " : "the file ends inside a record: ") +
                           json_error(e, line.text).reason);
    }
    if (nests_deeper(j, kMaxJsonDepth))
      return src.error(line.number, fmt::format("malformed JSON: arrays and objects nest deeper "
                                                "than {} levels",
                                                kMaxJsonDepth));
    const std::string origin = fmt::format("{}:{}", src.path, line.number);
    BG_TRY(read_record(JsonField(j, "", origin), first, b));
    first = false;
  }
  Imported out;
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kHailJsonl{"hail-jsonl", detect, parse};

}  // namespace benchguard::ingest
