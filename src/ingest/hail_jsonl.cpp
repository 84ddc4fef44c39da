// Hail's benchmark JSONL (and `benchguard export --format jsonl`, which writes the same
// records): one line per instance, {path, name, version, start, end, iterations: [{time,
// is_burn_in, timed_out, failure, task_memory}]}. Hail's newer writer calls the list "runs"
// and adds uname, batch_id, job_id, trial; benchguard adds variant, instance, run, failure,
// mem_source.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <optional>

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
  for (const char* k : {"name", "start", "end", "iterations", "runs", "variant", "instance", "run",
                        "failure", "mem_source"})
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

// A record's iterations read by the fast path below (the rest of the record goes to a DOM).
struct FastRecord {
  std::vector<IterationRecord> iterations;
  std::optional<double> memory;  // the largest task_memory
};

// A simdjson value as nlohmann's DOM holds it: members in order, a repeated one counting as
// its last occurrence. Negative zero and what nests deeper than kMaxJsonDepth give nullopt
// (the DOM path reads them, or says what is wrong).
std::optional<json> to_json(simdjson::dom::element e, size_t depth = 0) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::ARRAY: {
      if (depth >= kMaxJsonDepth) return std::nullopt;
      json out = json::array();
      const simdjson::dom::array items = e.get_array().value_unsafe();
      for (auto x : items) {
        auto v = to_json(x, depth + 1);
        if (!v) return std::nullopt;
        out.push_back(std::move(*v));
      }
      return out;
    }
    case element_type::OBJECT: {
      if (depth >= kMaxJsonDepth) return std::nullopt;
      json out = json::object();
      const simdjson::dom::object members = e.get_object().value_unsafe();
      for (auto [key, x] : members) {
        auto v = to_json(x, depth + 1);
        if (!v) return std::nullopt;
        out[std::string(key)] = std::move(*v);
      }
      return out;
    }
    case element_type::INT64:
      return json(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return json(e.get_uint64().value_unsafe());
    case element_type::DOUBLE: {
      const double d = e.get_double().value_unsafe();
      if (d == 0 && std::signbit(d)) return std::nullopt;
      return json(d);
    }
    case element_type::STRING:
      return json(std::string(e.get_string().value_unsafe()));
    case element_type::BOOL:
      return json(e.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      return json(nullptr);
  }
  return std::nullopt;
}

// The number a member holds as the DOM path reads it (JsonField::number), or nullopt.
std::optional<double> number_of(simdjson::dom::element e) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::INT64:
      return static_cast<double>(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return e.get_double().value_unsafe();
    default:
      return std::nullopt;
  }
}

// The fast path: simdjson parses the line (its parser picks the CPU's SIMD kernel at run time)
// and reads the iterations from its tape without a DOM node per value, when every iteration
// is an object whose members hold what the DOM path expects: time and task_memory numbers
// (task_memory within an int64), is_burn_in and timed_out booleans, failure a string, each
// possibly null or absent; other members scalars. Anything else, from a syntax error to a
// nested member, gives nullopt and the line takes the DOM path, which reads it or says exactly
// what is wrong. Both paths give the same records (tests/unit/ingest/hail_jsonl_test.cpp).
// `rest` receives the record's other members, with an empty array in place of the iterations.
std::optional<FastRecord> fast_record(std::string_view line, simdjson::dom::parser& parser,
                                      json& rest) {
  using simdjson::dom::element_type;
  simdjson::dom::element doc;
  if (parser.parse(line.data(), line.size()).get(doc) || doc.type() != element_type::OBJECT)
    return std::nullopt;
  const simdjson::dom::object record = doc.get_object().value_unsafe();
  FastRecord out;
  rest = json::object();
  std::optional<simdjson::dom::array> array;
  for (auto [key, value] : record) {
    if (key == "iterations" || key == "runs") {
      // Only the one list, an array, given once; the DOM path decides the rest.
      if (array || value.type() != element_type::ARRAY) return std::nullopt;
      array = value.get_array().value_unsafe();
      rest[std::string(key)] = json::array();
      continue;
    }
    auto v = to_json(value, 1);
    if (!v) return std::nullopt;
    rest[std::string(key)] = std::move(*v);
  }
  if (!array) return std::nullopt;
  out.iterations.reserve(array->size());
  for (auto element : *array) {
    if (element.type() != element_type::OBJECT) return std::nullopt;
    IterationRecord it;
    it.index = static_cast<int>(out.iterations.size());
    std::optional<double> time, memory;
    // A repeated member counts as its last occurrence, as in the DOM.
    const simdjson::dom::object members = element.get_object().value_unsafe();
    for (auto [key, value] : members) {
      const element_type type = value.type();
      if (type == element_type::ARRAY || type == element_type::OBJECT) return std::nullopt;
      const bool null = type == element_type::NULL_VALUE;
      if (key == "time" || key == "task_memory") {
        std::optional<double>& slot = key == "time" ? time : memory;
        slot = number_of(value);
        if (!slot && !null) return std::nullopt;
      } else if (key == "is_burn_in" || key == "timed_out") {
        bool& flag = key == "is_burn_in" ? it.burn_in : it.timed_out;
        if (type != element_type::BOOL && !null) return std::nullopt;
        flag = !null && value.get_bool().value_unsafe();
      } else if (key == "failure") {
        if (type != element_type::STRING && !null) return std::nullopt;
        it.failure = null ? std::string() : std::string(value.get_string().value_unsafe());
      }
    }
    if (memory && !(std::fabs(*memory) < 0x1p63)) return std::nullopt;  // the DOM says so
    if (time) it.metrics.emplace_back("wall_time", *time);
    if (memory && (!out.memory || *memory > *out.memory)) out.memory = memory;
    out.iterations.push_back(std::move(it));
  }
  return out;
}

Status read_record(const JsonField& record, bool first, RunBuilder& b, FastRecord* fast = nullptr) {
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
  BG_ASSIGN(auto mem_source, record.opt_string("mem_source"));
  if (mem_source) inst.mem_source = std::move(*mem_source);
  for (const auto& it : iterations) BG_TRY(read_iteration(it, inst));
  if (fast != nullptr) {
    inst.iterations = std::move(fast->iterations);
    if (fast->memory)
      inst.mem_peak_bytes = std::max(inst.mem_peak_bytes, static_cast<int64_t>(*fast->memory));
  }
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
  simdjson::dom::parser parser;
  for (const auto& line : split_lines(src.text)) {
    if (line.text.find_first_not_of(" \t") == std::string_view::npos) continue;
    json j;
    std::optional<FastRecord> fast = fast_record(line.text, parser, j);
    if (!fast) {
      try {
        j = json::parse(line.text);
      } catch (const json::exception& e) {  // syntax, or a number beyond a double
        return src.error(line.number, (line.terminated ? "malformed JSON: "
                                                       : "the file ends inside a record: ") +
                                          json_error(e, line.text).reason);
      }
    }
    if (nests_deeper(j, kMaxJsonDepth))
      return src.error(line.number, fmt::format("malformed JSON: arrays and objects nest deeper "
                                                "than {} levels",
                                                kMaxJsonDepth));
    const std::string origin = fmt::format("{}:{}", src.path, line.number);
    BG_TRY(read_record(JsonField(j, "", origin), first, b, fast ? &*fast : nullptr));
    first = false;
  }
  Imported out;
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kHailJsonl{"hail-jsonl", detect, parse};

}  // namespace benchguard::ingest
