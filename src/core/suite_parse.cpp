// Suite YAML -> RawSuite: keys, types and ranges, each error at its file:line.
#include <algorithm>
#include <cctype>

#include "core/names.hpp"
#include "core/suite_raw.hpp"
#include "core/units.hpp"

namespace benchguard::suite_detail {

namespace {

using yaml::Field;
using yaml::Reader;

const std::vector<std::string_view> kSchedules = {"interleaved", "sequential", "alternate",
                                                  "randomized",  "duet",       "sync-duet"};
const std::vector<std::string_view> kVariantKeys = {"command", "args",    "env",      "cwd",
                                                    "setup",   "prepare", "conclude", "cleanup"};

// The hook named `key` of `hooks`; nullptr when `key` names none.
template <typename H>
auto* hook_of(H& hooks, const std::string& key) {
  if (key == "setup") return &hooks.setup;
  if (key == "prepare") return &hooks.prepare;
  if (key == "conclude") return &hooks.conclude;
  return key == "cleanup" ? &hooks.cleanup : nullptr;
}

// A hook: one shell command, as a string (empty: none, so a variant can drop an inherited one).
Result<std::string> read_hook(const Reader& r, const Field& f) {
  if (!f.value.IsScalar())
    return r.error(f, f.key + " must be a shell command (a string run by /bin/sh -c), got " +
                          yaml::describe(f.value));
  return f.value.Scalar();
}

// Keys a benchmark inherits from the top level.
std::vector<std::string_view> with_settings(std::vector<std::string_view> keys) {
  for (std::string_view k : {"instances",
                             "iterations",
                             "burn_in",
                             "warmup",
                             "timeout",
                             "max_failures",
                             "metrics",
                             "measure",
                             "layout",
                             "env",
                             "cwd",
                             "shell",
                             "format",
                             "variants",
                             "duet_repetitions",
                             "sync_repetitions",
                             "sequential_repetitions",
                             "setup",
                             "prepare",
                             "conclude",
                             "cleanup"})
    keys.push_back(k);
  return keys;
}
const std::vector<std::string_view> kSuiteKeys =
    with_settings({"name", "schedule", "benchmarks", "until_decided", "gate"});
const std::vector<std::string_view> kBenchmarkKeys = with_settings({"name", "command", "params"});

bool has_space(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

// [a-z_][a-z0-9_.]*, so metric names stay usable as column names and in reports.
bool valid_metric_name(const std::string& s) {
  if (s.empty() || !(std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '_' || c == '.';
  });
}

// Param names appear as {name} in commands and as name=value in benchmark names.
bool valid_param_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// A name users type on the command line: a valid name (core/names.hpp), no whitespace.
Status check_typed_name(const Reader& r, int line, const std::string& what,
                        const std::string& name) {
  if (auto st = check_name(what, name); !st.ok()) return r.error(line, st.error().message);
  if (has_space(name)) return r.error(line, what + " '" + name + "' contains whitespace");
  return ok_status();
}

Result<std::vector<std::string>> read_list(const Reader& r, const Field& f,
                                           const std::string& item_what) {
  if (!f.value.IsSequence())
    return r.error(f, f.key + " must be a list, got " + yaml::describe(f.value));
  std::vector<std::string> out;
  for (const auto& item : f.value) {
    BG_ASSIGN(std::string s, r.element(item, item_what, f.line));
    out.push_back(std::move(s));
  }
  return out;
}

Result<RawCommand> read_command(const Reader& r, const Field& f) {
  RawCommand cmd;
  cmd.line = f.line;
  if (f.value.IsScalar()) {
    cmd.is_string = true;
    cmd.items.push_back(f.value.Scalar());
  } else if (f.value.IsSequence()) {
    BG_ASSIGN(cmd.items, read_list(r, f, "command"));
  } else {
    return r.error(f, "command must be a list of strings (or a string with shell: true), got " +
                          yaml::describe(f.value));
  }
  if (cmd.items.empty() || (cmd.is_string && cmd.items[0].empty()))
    return r.error(f, "command is empty");
  return cmd;
}

// `measure: [instructions]` (or `measure: instructions`, or caches): the extra channels.
Result<std::vector<std::string>> read_measure(const Reader& r, const Field& f) {
  std::vector<std::string> out;
  if (f.value.IsScalar()) {
    out.push_back(f.value.Scalar());
  } else {
    BG_ASSIGN(out, read_list(r, f, "measure"));
  }
  for (const auto& m : out)
    if (m != "instructions" && m != "caches")
      return r.error(f,
                     "measure takes instructions (Valgrind's count of executed "
                     "instructions) or caches (the same with its cache simulation), not '" +
                         m + "'");
  return out;
}

// A list of metric names under the key `what` ("metrics", "gate require"): each valid and listed
// once.
Result<std::vector<std::string>> read_metrics(const Reader& r, const Field& f,
                                              const std::string& what = "metrics") {
  if (!f.value.IsSequence())
    return r.error(f, what + " must be a list, got " + yaml::describe(f.value));
  if (f.value.size() == 0)
    return r.error(f, what + " is empty; list at least one, e.g. [wall_time]");
  std::vector<std::string> metrics;
  for (const auto& item : f.value) {
    BG_ASSIGN(std::string name, r.element(item, what, f.line));
    const int line = std::max(yaml::line_of(item), f.line);
    if (!valid_metric_name(name))
      return r.error(line, "metric name '" + name +
                               "' is invalid: use lowercase letters, digits, '_' and '.', "
                               "starting with a letter or '_'");
    if (std::find(metrics.begin(), metrics.end(), name) != metrics.end())
      return r.error(line, "metric '" + name + "' is listed twice");
    metrics.push_back(std::move(name));
  }
  return metrics;
}

// "none" and 0 both mean no limit, so a benchmark can lift a suite-wide timeout.
Result<double> read_timeout(const Reader& r, const Field& f) {
  if (f.value.IsScalar()) {
    const std::string& text = f.value.Scalar();
    if (text == "none") return 0.0;
    if (auto t = parse_duration(text); t.ok()) return *t;
  }
  return r.error(f,
                 "timeout must be a duration such as 500ms, 30s, 2m or 1h (a plain number "
                 "is seconds), got " +
                     yaml::describe(f.value));
}

Result<std::vector<RawVariant>> read_variants(const Reader& r, const Field& f) {
  BG_ASSIGN(auto entries, r.entries(f.value, "variants", f.line));
  if (entries.empty())
    return r.error(f, "variants is empty; remove it or declare at least one variant");
  std::vector<RawVariant> out;
  for (const auto& e : entries.all()) {
    RawVariant v;
    v.name = e.key;
    v.line = e.line;
    BG_TRY(check_typed_name(r, e.line, "variant name", v.name));
    if (e.value.IsNull()) {  // "A:" alone: the benchmark as it is
      out.push_back(std::move(v));
      continue;
    }
    BG_ASSIGN(auto keys, r.fields(e.value, kVariantKeys, "variant '" + v.name + "'", e.line));
    for (const auto& k : keys.all()) {
      if (k.key == "command") {
        BG_ASSIGN(v.command, read_command(r, k));
      } else if (k.key == "args") {
        BG_ASSIGN(v.args, read_list(r, k, "args"));
      } else if (k.key == "env") {
        BG_TRY(r.merge_env(k, v.env));
      } else if (k.key == "cwd") {
        std::string cwd;
        BG_TRY(r.get_string(k, cwd));
        v.cwd = std::move(cwd);
      } else if (auto* hook = hook_of(v.hooks, k.key)) {
        BG_ASSIGN(*hook, read_hook(r, k));
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

Result<RawParams> read_params(const Reader& r, const Field& f) {
  BG_ASSIGN(auto entries, r.entries(f.value, "params", f.line));
  if (entries.empty()) return r.error(f, "params is empty; remove it or declare a param");
  RawParams out;
  for (const auto& e : entries.all()) {
    if (!valid_param_name(e.key))
      return r.error(e, "param name '" + e.key +
                            "' must be letters, digits and '_', not starting with a digit");
    if (!e.value.IsSequence())
      return r.error(
          e, "param '" + e.key + "' must be a list of values, got " + yaml::describe(e.value));
    if (e.value.size() == 0) return r.error(e, "param '" + e.key + "' has no values");
    std::vector<std::string> values;
    for (const auto& item : e.value) {
      BG_ASSIGN(std::string v, r.element(item, "param '" + e.key + "'", e.line));
      if (auto st = check_name("param '" + e.key + "' value", v); !v.empty() && !st.ok())
        return r.error(std::max(yaml::line_of(item), e.line), st.error().message);
      if (std::find(values.begin(), values.end(), v) != values.end())
        return r.error(std::max(yaml::line_of(item), e.line),
                       "param '" + e.key + "' lists '" + v + "' twice");
      values.push_back(std::move(v));
    }
    out.emplace_back(e.key, std::move(values));
  }
  return out;
}

// Applies one inheritable key to `s`; false when `f` is not one of them.
Result<bool> read_setting(const Reader& r, const Field& f, RawSettings& s) {
  const std::string& k = f.key;
  if (k == "instances") {
    BG_TRY(r.get_int(f, 1, s.spec.instances, kMaxInstances));
  } else if (k == "iterations") {
    BG_TRY(r.get_int(f, 1, s.spec.iterations, kMaxIterations));
  } else if (k == "burn_in") {
    BG_TRY(r.get_int(f, 0, s.spec.burn_in, kMaxIterations));
  } else if (k == "warmup") {
    BG_TRY(r.get_int(f, 0, s.spec.warmup, kMaxInstances));
  } else if (k == "max_failures") {
    BG_TRY(r.get_int(f, 1, s.spec.max_failures));
  } else if (k == "duet_repetitions") {
    BG_TRY(r.get_int(f, 0, s.spec.duet_repetitions, kMaxInstances));
  } else if (k == "sync_repetitions") {
    BG_TRY(r.get_int(f, 0, s.spec.sync_repetitions, kMaxInstances));
  } else if (k == "sequential_repetitions") {
    BG_TRY(r.get_int(f, 0, s.spec.sequential_repetitions, kMaxInstances));
  } else if (k == "timeout") {
    BG_ASSIGN(s.spec.timeout_s, read_timeout(r, f));
  } else if (k == "metrics") {
    BG_ASSIGN(s.spec.metrics, read_metrics(r, f));
  } else if (k == "measure") {
    BG_ASSIGN(s.spec.measure, read_measure(r, f));
  } else if (k == "layout") {
    std::string layout;
    BG_TRY(r.get_string(f, layout));
    if (layout != "native" && layout != "randomized" && layout != "fixed")
      return r.error(f,
                     "layout is native (the default), randomized or fixed, not '" + layout + "'");
    s.spec.layout = layout == "native" ? "" : layout;
  } else if (k == "env") {
    BG_TRY(r.merge_env(f, s.env));
  } else if (k == "cwd") {
    BG_TRY(r.get_string(f, s.cwd));
    if (s.cwd.empty()) return r.error(f, "cwd is empty; use . for the suite file's directory");
  } else if (k == "shell") {
    BG_TRY(r.get_bool(f, s.shell));
  } else if (k == "format") {
    std::string protocol;
    BG_TRY(r.get_string(f, protocol));
    if (protocol != "protocol" && protocol != BenchmarkSpec::kGoogleBenchmark)
      return r.error(
          f, "format is protocol (the default) or google-benchmark, not '" + protocol + "'");
    s.spec.format = protocol == "protocol" ? "" : protocol;
  } else if (auto* hook = hook_of(s.hooks, k)) {
    BG_ASSIGN(*hook, read_hook(r, f));
  } else if (k == "variants") {
    // A benchmark's own variants replace the suite-wide ones rather than adding to them.
    BG_ASSIGN(s.variants, read_variants(r, f));
  } else {
    return false;
  }
  return true;
}

Result<RawBenchmark> read_benchmark(const Reader& r, const YAML::Node& node, int line,
                                    const RawSettings& defaults) {
  if (!node.IsMap())
    return r.error(line, "each benchmark must be a mapping with at least name and command, got " +
                             yaml::describe(node));
  BG_ASSIGN(auto fields, r.fields(node, kBenchmarkKeys, "benchmark", line));
  RawBenchmark b;
  b.settings = defaults;
  b.settings.spec.line = line;
  for (const auto& f : fields.all()) {
    BG_ASSIGN(bool done, read_setting(r, f, b.settings));
    if (done) continue;
    if (f.key == "name") {
      BG_TRY(r.get_string(f, b.settings.spec.name));
      BG_TRY(check_typed_name(r, f.line, "name", b.settings.spec.name));
    } else if (f.key == "command") {
      BG_ASSIGN(b.command, read_command(r, f));
    } else if (f.key == "params") {
      BG_ASSIGN(b.params, read_params(r, f));
    }
  }
  if (fields.find("name") == nullptr) return r.error(line, "benchmark has no name");
  b.settings.spec.base_name = b.settings.spec.name;
  return b;
}

Status check_schedule(const Reader& r, const Field& f, const std::string& schedule) {
  if (std::find(kSchedules.begin(), kSchedules.end(), schedule) != kSchedules.end())
    return ok_status();
  std::string msg = "unknown schedule '" + schedule + "'";
  if (const auto hint = yaml::closest_match(schedule, kSchedules); !hint.empty())
    msg += " (did you mean '" + hint + "'?)";
  msg += "; valid schedules: ";
  for (size_t i = 0; i < kSchedules.size(); ++i)
    msg += (i ? ", " : "") + std::string(kSchedules[i]);
  return r.error(f, msg);
}

// `until_decided: true`, or a mapping of max_instances, max_time and round.
Result<std::optional<UntilDecided>> read_until_decided(const Reader& r, const Field& f) {
  if (f.value.IsScalar()) {
    bool on = false;
    BG_TRY(r.get_bool(f, on));
    return on ? std::optional<UntilDecided>(UntilDecided{}) : std::nullopt;
  }
  BG_ASSIGN(auto fields,
            r.fields(f.value, {"max_instances", "max_time", "round"}, "until_decided", f.line));
  UntilDecided u;
  for (const auto& g : fields.all()) {
    if (g.key == "max_instances") {
      BG_TRY(r.get_int(g, 2, u.max_instances, kMaxInstances));
    } else if (g.key == "round") {
      BG_TRY(r.get_int(g, 1, u.round, kMaxInstances));
    } else if (g.key == "max_time") {
      auto t = g.value.IsScalar() ? parse_duration(g.value.Scalar()) : Result<double>(Error{""});
      if (!t.ok() || *t <= 0)
        return r.error(g, "max_time must be a duration such as 30s, 10m or 1h, got " +
                              yaml::describe(g.value));
      u.max_time_s = *t;
    }
  }
  return std::optional<UntilDecided>(u);
}

// `gate: {require: [instructions, wall_time]}`: the channels gate requires.
Result<std::vector<std::string>> read_gate(const Reader& r, const Field& f) {
  BG_ASSIGN(auto fields, r.fields(f.value, {"require"}, "gate", f.line));
  std::vector<std::string> require;
  if (const Field* g = fields.find("require")) {
    BG_ASSIGN(require, read_metrics(r, *g, "gate require"));
  }
  return require;
}

}  // namespace

Result<RawSuite> read_suite(const YAML::Node& root, const Reader& r,
                            const std::string& default_name) {
  if (root.IsNull()) return r.error(0, "suite is empty; it needs at least a 'benchmarks' list");
  BG_ASSIGN(auto fields, r.fields(root, kSuiteKeys, "a suite", 1, /*allow_extensions=*/true));
  RawSuite suite;
  suite.name = default_name;
  RawSettings defaults;
  // Settings first: benchmarks inherit them wherever they appear in the file.
  for (const auto& f : fields.all()) {
    BG_ASSIGN(bool done, read_setting(r, f, defaults));
    if (done) continue;
    if (f.key == "name") {
      BG_TRY(r.get_string(f, suite.name));
      if (suite.name.empty()) return r.error(f, "name is empty; omit it to use the file name");
    } else if (f.key == "schedule") {
      BG_TRY(r.get_string(f, suite.schedule));
      BG_TRY(check_schedule(r, f, suite.schedule));
    } else if (f.key == "until_decided") {
      BG_ASSIGN(suite.until_decided, read_until_decided(r, f));
    } else if (f.key == "gate") {
      BG_ASSIGN(suite.gate_require, read_gate(r, f));
    }
  }
  const Field* list = fields.find("benchmarks");
  if (list == nullptr) return r.error(0, "suite has no 'benchmarks' list");
  if (!list->value.IsSequence())
    return r.error(*list, "benchmarks must be a list, got " + yaml::describe(list->value));
  if (list->value.size() == 0) return r.error(*list, "benchmarks is empty; add a benchmark");
  for (const auto& node : list->value) {
    const int line = std::max(yaml::line_of(node), list->line);
    BG_ASSIGN(auto b, read_benchmark(r, node, line, defaults));
    suite.benchmarks.push_back(std::move(b));
  }
  return suite;
}

}  // namespace benchguard::suite_detail
