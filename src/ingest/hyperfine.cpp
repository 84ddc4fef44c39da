// hyperfine --export-json: each result is one benchmark and each of its runs one instance
// (one process launch) with one iteration, timed from outside as benchguard does.
#include <fmt/format.h>

#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool detect(const Source& src) {
  if (!src.json || !src.json->is_object()) return false;
  auto results = src.json->find("results");
  if (results == src.json->end() || !results->is_array() || results->empty()) return false;
  const auto& first = results->front();
  return first.is_object() && first.contains("command");
}

// A per-run array of the same length as `times`, or nullopt when the member is absent or
// a summary (hyperfine writes user and system as means).
Result<std::optional<std::vector<JsonField>>> per_run(const JsonField& result, const char* key,
                                                      size_t runs) {
  auto f = result.find(key);
  if (!f || !f->is_array()) return std::optional<std::vector<JsonField>>();
  BG_ASSIGN(auto values, f->elements());
  if (values.size() != runs)
    return f->error(fmt::format("has {} values for {} runs", values.size(), runs));
  return std::optional<std::vector<JsonField>>(std::move(values));
}

Status read_result(const JsonField& result, RunBuilder& b, std::vector<std::string>& warnings) {
  BG_ASSIGN(std::string command, result.string("command"));
  KeyValues params;
  if (auto p = result.find("parameters")) {
    BG_ASSIGN(params, p->key_values());
  }
  BG_ASSIGN(JsonField times_field, result.get("times"));
  BG_ASSIGN(auto times, times_field.elements());
  BG_ASSIGN(auto exit_codes, per_run(result, "exit_codes", times.size()));
  BG_ASSIGN(auto user, per_run(result, "user", times.size()));
  BG_ASSIGN(auto system, per_run(result, "system", times.size()));
  BG_ASSIGN(auto memory, per_run(result, "memory_usage_byte", times.size()));

  VariantData& v = b.distinct_variant(command, warnings);
  v.variant.command = {command};
  v.variant.params = params;
  for (size_t i = 0; i < times.size(); ++i) {
    BG_ASSIGN(double t, times[i].number());
    InstanceRecord& inst = add_single(b, v, {{"wall_time", t}});
    if (exit_codes) {
      BG_ASSIGN(int64_t code, (*exit_codes)[i].integer());
      inst.exit_code = static_cast<int>(code);
      if (code != 0) inst.failure = fmt::format("exit code {}", code);
    }
    if (user) {
      BG_ASSIGN(inst.user_s, (*user)[i].number());
    }
    if (system) {
      BG_ASSIGN(inst.sys_s, (*system)[i].number());
    }
    if (memory) {
      BG_ASSIGN(inst.max_rss_bytes, (*memory)[i].integer());
    }
  }
  return ok_status();
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(const json* doc, src.document());
  const JsonField root(*doc, "", src.path);
  BG_ASSIGN(JsonField results_field, root.get("results"));
  BG_ASSIGN(auto results, results_field.elements());
  RunBuilder b;
  Imported out;
  for (const auto& result : results) BG_TRY(read_result(result, b, out.warnings));
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kHyperfine{"hyperfine", detect, parse};

}  // namespace benchguard::ingest
