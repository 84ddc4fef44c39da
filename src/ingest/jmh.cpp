// JMH -rf json: each entry is one benchmark (its params in the name, as benchguard names
// parameterised benchmarks), each fork one instance, each measurement iteration of
// primaryMetric.rawData one iteration. Throughput (thrpt, ops per time) becomes the
// higher-is-better metric "throughput" in operations per second; the time-per-operation
// modes (avgt, sample, ss) become wall_time in seconds per operation. Secondary metrics
// (profilers) are left out.
#include <fmt/format.h>

#include <map>

#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

using nlohmann::json;

bool detect(const Source& src) {
  if (!src.json || !src.json->is_array() || src.json->empty()) return false;
  const auto& first = src.json->front();
  return first.is_object() && first.contains("benchmark") && first.contains("primaryMetric");
}

Result<KeyValues> params_of(const JsonField& entry) {
  if (auto p = entry.find("params")) return p->key_values();
  return KeyValues{};
}

struct Scale {
  std::string metric;
  double factor = 1;  // value in scoreUnit x factor = value in the metric's unit
};

// The unit decides how the numbers read: "ops/ms" -> throughput x 1000 (operations per
// second), "us/op" -> wall_time x 1e-6 (seconds per operation). JMH derives the unit from the
// mode (thrpt: ops per time; avgt, sample, ss: time per op); a file where they disagree is
// read by its unit, with a warning.
Result<Scale> scale_of(const JsonField& entry, const std::string& mode, const std::string& unit,
                       std::vector<std::string>& warnings) {
  const auto slash = unit.find('/');
  const std::string num = unit.substr(0, slash);
  const std::string den = slash == std::string::npos ? "" : unit.substr(slash + 1);
  Scale scale;
  if (const auto per = seconds_per(den); num == "ops" && per) {
    scale = Scale{"throughput", 1 / *per};
  } else if (const auto per_op = seconds_per(num); den == "op" && per_op) {
    scale = Scale{"wall_time", *per_op};
  } else {
    return entry.error(
        fmt::format("scoreUnit \"{}\" is neither ops per time nor time per op", unit));
  }
  const bool throughput_mode = mode == "thrpt";
  if (throughput_mode != (scale.metric == "throughput"))
    warnings.push_back(fmt::format("{}: mode {} with scoreUnit {}; read by the unit as {}",
                                   entry.where(), mode, unit, scale.metric));
  return scale;
}

// One fork's iterations: rawData holds one score per iteration; sample mode may give only
// rawDataHistogram, [[value, count], ...] per iteration, whose weighted mean is taken.
Result<std::vector<double>> fork_scores(const JsonField& fork, bool histogram) {
  BG_ASSIGN(auto iterations, fork.elements());
  std::vector<double> scores;
  for (const auto& it : iterations) {
    if (!histogram) {
      BG_ASSIGN(double v, it.number());
      scores.push_back(v);
      continue;
    }
    BG_ASSIGN(auto bins, it.elements());
    double sum = 0, count = 0;
    for (const auto& bin : bins) {
      BG_ASSIGN(auto pair, bin.elements());
      if (pair.size() != 2) return bin.error("expected [value, count]");
      BG_ASSIGN(double value, pair[0].number());
      BG_ASSIGN(double n, pair[1].number());
      sum += value * n;
      count += n;
    }
    if (count <= 0) return it.error("an iteration without samples");
    scores.push_back(sum / count);
  }
  return scores;
}

Status read_entry(const JsonField& entry, const std::string& name, RunBuilder& b,
                  std::vector<std::string>& warnings) {
  BG_ASSIGN(std::string mode, entry.string("mode"));
  BG_ASSIGN(JsonField primary, entry.get("primaryMetric"));
  BG_ASSIGN(std::string unit, primary.string("scoreUnit"));
  BG_ASSIGN(Scale scale, scale_of(entry, mode, unit, warnings));
  const bool histogram = !primary.has("rawData") && primary.has("rawDataHistogram");
  BG_ASSIGN(JsonField raw, primary.get(histogram ? "rawDataHistogram" : "rawData"));
  BG_ASSIGN(auto forks, raw.elements());

  VariantData& v = b.distinct_variant(name, warnings);
  BG_ASSIGN(v.variant.params, params_of(entry));
  json config = json::object();
  for (const char* key :
       {"mode", "threads", "forks", "warmupIterations", "warmupTime", "warmupBatchSize",
        "measurementIterations", "measurementTime", "measurementBatchSize"})
    if (entry.has(key)) config[key] = entry.json()[key];
  config["scoreUnit"] = unit;
  v.variant.config_json = config.dump();

  for (const auto& fork : forks) {
    BG_ASSIGN(auto scores, fork_scores(fork, histogram));
    InstanceRecord& inst = b.add_instance(v);
    for (size_t i = 0; i < scores.size(); ++i) {
      IterationRecord it;
      it.index = static_cast<int>(i);
      it.metrics.emplace_back(scale.metric, scores[i] * scale.factor);
      inst.iterations.push_back(std::move(it));
    }
  }
  return ok_status();
}

// The benchmark's name: method name, then its params; the mode too when one file measures
// the same benchmark in several modes.
Result<std::vector<std::string>> entry_names(const std::vector<JsonField>& entries) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const auto& e : entries) {
    BG_ASSIGN(std::string base, e.string("benchmark"));
    BG_ASSIGN(KeyValues params, params_of(e));
    names.push_back(name_with_params(base, params));
    ++seen[names.back()];
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (seen[names[i]] < 2) continue;
    BG_ASSIGN(std::string mode, entries[i].string("mode"));
    names[i] += "/mode=" + mode;
  }
  return names;
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(const json* doc, src.document());
  const JsonField root(*doc, "", src.path);
  BG_ASSIGN(auto entries, root.elements());
  BG_ASSIGN(auto names, entry_names(entries));
  RunBuilder b;
  Imported out;
  for (size_t i = 0; i < entries.size(); ++i)
    BG_TRY(read_entry(entries[i], names[i], b, out.warnings));
  if (!entries.empty()) {
    RunRecord& run = b.data().run;
    for (const char* key : {"jmhVersion", "jvm", "jdkVersion", "vmName", "vmVersion", "jvmArgs"})
      if (entries.front().has(key))
        run.artifacts.emplace_back(key, scalar_text(entries.front().json()[key]));
  }
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kJmh{"jmh", detect, parse};

}  // namespace benchguard::ingest
