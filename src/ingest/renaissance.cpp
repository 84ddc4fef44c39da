// Renaissance --json (format_version 5): one JVM per file, so each benchmark is one
// instance whose repetitions are its iterations. uptime_ns is the JVM's uptime when a
// repetition started, which gives the iterations' start and end on the JVM's clock.
#include <fmt/format.h>

#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool detect(const Source& src) {
  return src.json && src.json->is_object() && src.json->contains("format_version") &&
         src.json->contains("data");
}

Status read_benchmark(const std::string& name, const JsonField& entry, RunBuilder& b) {
  BG_ASSIGN(JsonField results_field, entry.get("results"));
  BG_ASSIGN(auto results, results_field.elements());
  VariantData& v = b.variant(name);
  InstanceRecord& inst = b.add_instance(v);
  for (size_t i = 0; i < results.size(); ++i) {
    BG_ASSIGN(JsonField duration, results[i].get("duration_ns"));
    BG_ASSIGN(int64_t ns, duration.integer());
    BG_ASSIGN(auto uptime, results[i].opt_integer("uptime_ns"));
    IterationRecord it;
    it.index = static_cast<int>(i);
    if (uptime) {
      it.start_ns = *uptime;
      if (__builtin_add_overflow(*uptime, ns, &it.end_ns))
        return results[i].error("uptime_ns + duration_ns is beyond 64-bit nanoseconds");
    }
    it.metrics.emplace_back("wall_time", static_cast<double>(ns) * 1e-9);
    inst.iterations.push_back(std::move(it));
  }
  if (!inst.iterations.empty()) {
    inst.start_ns = inst.iterations.front().start_ns;
    inst.end_ns = inst.iterations.back().end_ns;
  }
  BG_ASSIGN(auto termination, entry.opt_string("termination"));
  if (termination && *termination != "normal") inst.failure = "termination: " + *termination;
  return ok_status();
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(const json* doc, src.document());
  const JsonField root(*doc, "", src.path);
  BG_ASSIGN(JsonField version, root.get("format_version"));
  BG_ASSIGN(int64_t format_version, version.integer());
  BG_ASSIGN(JsonField data, root.get("data"));
  BG_ASSIGN(auto benchmarks, data.members());
  RunBuilder b;
  for (const auto& [name, entry] : benchmarks) BG_TRY(read_benchmark(name, entry, b));

  RunRecord& run = b.data().run;
  run.artifacts.emplace_back("format_version", std::to_string(format_version));
  if (auto env = root.find("environment")) flatten_into(run.artifacts, env->json());
  if (auto suite = root.find("suite")) {
    flatten_into(run.artifacts, suite->json(), "suite");
    BG_ASSIGN(auto suite_name, suite->opt_string("name"));
    run.suite = suite_name.value_or("");
  }
  Imported out;
  if (format_version != 5)
    out.warnings.push_back(
        fmt::format("format_version {} (benchguard reads version 5)", format_version));
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kRenaissance{"renaissance", detect, parse};

}  // namespace benchguard::ingest
