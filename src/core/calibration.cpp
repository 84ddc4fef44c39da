#include "core/calibration.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/json_number.hpp"
#include "core/yaml_util.hpp"

namespace benchguard {

namespace {

using nlohmann::json;

std::string field(const std::string& where, const char* key) {
  return where.empty() ? std::string(key) : where + "." + key;
}

// Reads fields with errors that name the file and the field.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  Error error(const std::string& where, const std::string& what) const {
    return Error{path_ + ": " + where + " " + what +
                 "; write the file with `benchguard calibrate --output`"};
  }

  Status text(const json& j, const char* key, const std::string& where, std::string& out) const {
    if (!j.contains(key)) return ok_status();
    if (!j[key].is_string()) return error(field(where, key), "must be a string");
    out = j[key].get<std::string>();
    return ok_status();
  }

  // null reads as NaN (a threshold that could not be found).
  Status real(const json& j, const char* key, const std::string& where, double& out) const {
    if (!j.contains(key)) return ok_status();
    if (j[key].is_null()) {
      out = std::nan("");
      return ok_status();
    }
    if (!j[key].is_number()) return error(field(where, key), "must be a number");
    out = j[key].get<double>();
    return ok_status();
  }

  Status count(const json& j, const char* key, const std::string& where, std::size_t& out) const {
    if (!j.contains(key)) return ok_status();
    if (!j[key].is_number_unsigned()) return error(field(where, key), "must be a count");
    out = j[key].get<std::size_t>();
    return ok_status();
  }

  // [lower, upper], as an interval is written.
  Status interval(const json& j, const char* key, const std::string& where, double& lower,
                  double& upper) const {
    if (!j.contains(key)) return ok_status();
    const json& ci = j[key];
    if (!ci.is_array() || ci.size() != 2 || !ci[0].is_number() || !ci[1].is_number())
      return error(field(where, key), "must be two numbers");
    lower = ci[0].get<double>();
    upper = ci[1].get<double>();
    return ok_status();
  }

  Status flag(const json& j, const char* key, const std::string& where, bool& out) const {
    if (!j.contains(key)) return ok_status();
    if (!j[key].is_boolean()) return error(field(where, key), "must be true or false");
    out = j[key].get<bool>();
    return ok_status();
  }

 private:
  std::string path_;
};

Result<CalibrationEntry> read_entry(const Reader& r, const json& j, const std::string& where) {
  if (!j.is_object()) return r.error(where, "must be an object");
  CalibrationEntry e;
  BG_TRY(r.text(j, "benchmark", where, e.benchmark));
  BG_TRY(r.text(j, "metric", where, e.metric));
  if (e.benchmark.empty() || e.metric.empty()) return r.error(where, "needs benchmark and metric");
  BG_TRY(r.count(j, "comparisons", where, e.comparisons));
  BG_TRY(r.count(j, "slower", where, e.slower));
  BG_TRY(r.count(j, "faster", where, e.faster));
  BG_TRY(r.real(j, "rate", where, e.rate));
  BG_TRY(r.interval(j, "rate_ci", where, e.rate_lower, e.rate_upper));
  BG_TRY(r.real(j, "max_change", where, e.max_change));
  BG_TRY(r.real(j, "threshold", where, e.threshold));
  if (std::isfinite(e.threshold) && e.threshold < 0)
    return r.error(where + ".threshold", "must not be negative");
  BG_TRY(r.real(j, "bound", where, e.bound));
  BG_TRY(r.flag(j, "reached", where, e.reached));
  BG_TRY(r.count(j, "instances", where, e.instances));
  BG_TRY(r.real(j, "spread", where, e.spread));
  if (j.contains("layout")) {
    const json& l = j["layout"];
    const std::string at = where + ".layout";
    if (!l.is_object()) return r.error(at, "must be an object");
    BG_TRY(r.count(l, "fixed_comparisons", at, e.fixed_comparisons));
    BG_TRY(r.count(l, "fixed_false_alarms", at, e.fixed_alarms));
    BG_TRY(r.real(l, "spread_fixed", at, e.spread_fixed));
    BG_TRY(r.real(l, "share", at, e.layout_share));
  }
  return e;
}

}  // namespace

const CalibrationEntry* Calibration::find(const std::string& benchmark,
                                          const std::string& metric) const {
  for (const auto& e : entries)
    if (e.benchmark == benchmark && e.metric == metric) return &e;
  return nullptr;
}

std::string format_calibration(const Calibration& c) {
  json entries = json::array();
  for (const auto& e : c.entries) {
    entries.push_back({{"benchmark", e.benchmark},
                       {"metric", e.metric},
                       {"comparisons", e.comparisons},
                       {"slower", e.slower},
                       {"faster", e.faster},
                       {"rate", json_number(e.rate)},
                       {"rate_ci", {json_number(e.rate_lower), json_number(e.rate_upper)}},
                       {"max_change", json_number(e.max_change)},
                       {"threshold", json_number(e.threshold)},
                       {"bound", json_number(e.bound)},
                       {"reached", e.reached},
                       {"instances", e.instances},
                       {"spread", json_number(e.spread)}});
    if (c.layout == "randomized")
      entries.back()["layout"] = {{"fixed_comparisons", e.fixed_comparisons},
                                  {"fixed_false_alarms", e.fixed_alarms},
                                  {"spread_fixed", json_number(e.spread_fixed)},
                                  {"share", json_number(e.layout_share)}};
  }
  json j = {
      {"calibration", 1},
      {"suite", c.suite},
      {"host", c.host},
      {"schedule", c.schedule},
      {"variant", c.variant},
      {"statistic", c.statistic},
      {"confidence", json_number(c.confidence)},
      {"threshold", json_number(c.threshold)},
      {"alpha", json_number(c.alpha)},
      {"burn_in", c.burn_in},
      {"resamples", c.resamples},
      {"seed", c.seed},
      {"repetitions", c.repetitions},
      {"repetitions_with_alarm", c.repetitions_with_alarm},
      {"family_rate_ci", {json_number(c.family_rate_lower), json_number(c.family_rate_upper)}},
      {"runs", c.runs},
      {"entries", entries}};
  if (!c.layout.empty()) j["layout"] = c.layout;
  return json_text(j, 2) + "\n";
}

Result<Calibration> parse_calibration(const std::string& text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // syntax, or a number beyond a double
    const JsonError why = json_error(e, text);
    return Error::at(path, why.line, "not valid JSON: " + why.reason);
  }
  const Reader r(path);
  if (!j.is_object() || !j.contains("calibration") || !j.contains("entries"))
    return Error{path +
                 ": not a calibration file (no 'calibration' and 'entries' keys); write "
                 "one with `benchguard calibrate SUITE.yml --output FILE`"};
  if (!j["calibration"].is_number_integer() || j["calibration"].get<int>() != 1)
    return r.error("calibration", "must be 1 (the only version this benchguard reads)");
  Calibration c;
  c.path = path;
  BG_TRY(r.text(j, "suite", "", c.suite));
  BG_TRY(r.text(j, "host", "", c.host));
  BG_TRY(r.text(j, "schedule", "", c.schedule));
  BG_TRY(r.text(j, "variant", "", c.variant));
  BG_TRY(r.text(j, "layout", "", c.layout));
  BG_TRY(r.text(j, "statistic", "", c.statistic));
  BG_TRY(r.real(j, "confidence", "", c.confidence));
  BG_TRY(r.real(j, "threshold", "", c.threshold));
  BG_TRY(r.real(j, "alpha", "", c.alpha));
  BG_TRY(r.text(j, "burn_in", "", c.burn_in));
  BG_TRY(r.count(j, "resamples", "", c.resamples));
  BG_TRY(r.text(j, "seed", "", c.seed));
  BG_TRY(r.count(j, "repetitions", "", c.repetitions));
  BG_TRY(r.count(j, "repetitions_with_alarm", "", c.repetitions_with_alarm));
  BG_TRY(r.interval(j, "family_rate_ci", "", c.family_rate_lower, c.family_rate_upper));
  if (j.contains("runs")) {
    if (!j["runs"].is_array()) return r.error("runs", "must be a list");
    for (const auto& u : j["runs"]) {
      if (!u.is_string()) return r.error("runs", "must list strings");
      c.runs.push_back(u.get<std::string>());
    }
  }
  if (!j["entries"].is_array()) return r.error("entries", "must be a list");
  for (std::size_t k = 0; k < j["entries"].size(); ++k) {
    BG_ASSIGN(auto e, read_entry(r, j["entries"][k], "entries[" + std::to_string(k) + "]"));
    c.entries.push_back(std::move(e));
  }
  return c;
}

Result<Calibration> load_calibration(const std::string& path) {
  BG_ASSIGN(std::string text, yaml::read_text_file(path));
  return parse_calibration(text, path);
}

}  // namespace benchguard
