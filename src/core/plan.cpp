// Plan YAML (written by `benchguard plan`, read by `run --plan`) and applying it to a suite.
#include <algorithm>

#include "core/names.hpp"
#include "core/suite.hpp"
#include "core/yaml_util.hpp"

namespace benchguard {

namespace {

using yaml::Field;
using yaml::Reader;

const std::vector<std::string_view> kPlanKeys = {"benchmarks"};
const std::vector<std::string_view> kEntryKeys = {
    "burn_in", "instances", "iterations", "mean", "cv", "mds", "fpr", "reaches_target"};

// null leaves the count unset: a planner may find no configuration for a benchmark.
Status read_count(const Reader& r, const Field& f, int min, std::optional<int>& out) {
  if (f.value.IsNull()) return ok_status();
  int v = 0;
  BG_TRY(r.get_int(f, min, v, f.key == "instances" ? kMaxInstances : kMaxIterations));
  out = v;
  return ok_status();
}

Result<PlanEntry> read_entry(const Reader& r, const Field& e) {
  if (e.key.empty()) return r.error(e, "plan entry has an empty benchmark name");
  // Names a suite could have: a plan entry is printed when it matches no benchmark, and
  // format_plan could not write a name that is not UTF-8 back.
  if (auto st = check_name("plan entry", e.key); !st.ok()) return r.error(e, st.error().message);
  if (e.value.IsNull())
    return r.error(e, "plan entry '" + e.key +
                          "' is empty; give at least one of burn_in, instances, iterations");
  BG_ASSIGN(auto fields, r.fields(e.value, kEntryKeys, "plan entry '" + e.key + "'", e.line));
  PlanEntry entry;
  for (const auto& f : fields.all()) {
    if (f.key == "burn_in") {
      BG_TRY(read_count(r, f, 0, entry.burn_in));
    } else if (f.key == "instances") {
      BG_TRY(read_count(r, f, 1, entry.instances));
    } else if (f.key == "iterations") {
      BG_TRY(read_count(r, f, 1, entry.iterations));
    } else if (f.key == "mean") {
      BG_TRY(r.get_number(f, entry.mean));
    } else if (f.key == "mds") {
      BG_TRY(r.get_number(f, entry.mds));
    } else if (f.key == "cv") {
      BG_TRY(r.get_number(f, entry.cv));
      if (entry.cv && *entry.cv < 0)
        return r.error(f, "cv must be >= 0, got " + yaml::describe(f.value));
    } else if (f.key == "reaches_target") {
      bool reaches = false;
      BG_TRY(r.get_bool(f, reaches));
      entry.reaches_target = reaches;
    } else if (f.key == "fpr") {
      BG_TRY(r.get_number(f, entry.fpr));
      if (entry.fpr && !(*entry.fpr >= 0 && *entry.fpr <= 1))
        return r.error(f, "fpr must be between 0 and 1, got " + yaml::describe(f.value));
    }
  }
  return entry;
}

Result<Plan> read_plan(const Reader& r, const YAML::Node& root) {
  if (root.IsNull()) return r.error(0, "plan is empty; it needs a 'benchmarks' mapping");
  BG_ASSIGN(auto fields, r.fields(root, kPlanKeys, "a plan", 1, /*allow_extensions=*/true));
  const Field* list = fields.find("benchmarks");
  if (list == nullptr) return r.error(0, "plan has no 'benchmarks' mapping");
  BG_ASSIGN(auto entries, r.entries(list->value, "benchmarks", list->line));
  if (entries.empty()) return r.error(*list, "benchmarks is empty; the plan has nothing to apply");
  Plan plan;
  for (const auto& e : entries.all()) {
    BG_ASSIGN(auto entry, read_entry(r, e));
    plan.benchmarks.emplace(e.key, entry);
  }
  return plan;
}

}  // namespace

Result<Plan> load_plan(const std::string& path) {
  BG_ASSIGN(std::string text, yaml::read_text_file(path));
  return parse_plan(text, path);
}

Result<Plan> parse_plan(const std::string& text, const std::string& path) {
  const Reader reader(path.empty() ? "<plan>" : path);
  // As in parse_suite: a yaml-cpp exception past parse() would be a missed check, not a crash.
  try {
    BG_ASSIGN(YAML::Node root, reader.parse(text));
    BG_ASSIGN(Plan plan, read_plan(reader, root));
    plan.path = path;
    return plan;
  } catch (const YAML::Exception& e) {
    return reader.error(e.mark.line >= 0 ? e.mark.line + 1 : 0, "invalid plan: " + e.msg);
  }
}

namespace {

template <class T>
void emit_optional(YAML::Emitter& out, const char* key, const std::optional<T>& v) {
  out << YAML::Key << key << YAML::Value;
  if (v)
    out << *v;
  else
    out << YAML::Null;
}

}  // namespace

std::string format_plan(const Plan& plan, const std::vector<std::string>& comment) {
  YAML::Emitter out;
  out.SetDoublePrecision(6);
  out << YAML::BeginMap << YAML::Key << "benchmarks" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, e] : plan.benchmarks) {
    out << YAML::Key << name << YAML::Value << YAML::Flow << YAML::BeginMap;
    emit_optional(out, "burn_in", e.burn_in);
    emit_optional(out, "instances", e.instances);
    emit_optional(out, "iterations", e.iterations);
    emit_optional(out, "mean", e.mean);
    emit_optional(out, "cv", e.cv);
    emit_optional(out, "mds", e.mds);
    emit_optional(out, "fpr", e.fpr);
    if (e.reaches_target) out << YAML::Key << "reaches_target" << YAML::Value << *e.reaches_target;
    out << YAML::EndMap;
  }
  out << YAML::EndMap << YAML::EndMap;
  std::string text;
  for (const auto& line : comment) text += "# " + line + "\n";
  return text + out.c_str() + "\n";
}

const PlanEntry* plan_entry(const Plan& plan, const BenchmarkSpec& benchmark) {
  auto it = plan.benchmarks.find(benchmark.name);
  if (it == plan.benchmarks.end()) it = plan.benchmarks.find(benchmark.base_name);
  return it == plan.benchmarks.end() ? nullptr : &it->second;
}

void apply_plan(const Plan& plan, Suite& suite) {
  for (auto& b : suite.benchmarks) {
    const PlanEntry* e = plan_entry(plan, b);
    if (e == nullptr) continue;
    if (e->burn_in) b.burn_in = *e->burn_in;
    if (e->instances) b.instances = *e->instances;
    if (e->iterations) b.iterations = *e->iterations;
  }
}

std::vector<std::string> unmatched_plan_entries(const Plan& plan, const Suite& suite) {
  std::vector<std::string> out;
  for (const auto& entry : plan.benchmarks) {
    const std::string& name = entry.first;
    const bool matched =
        std::any_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                    [&](const auto& b) { return b.name == name || b.base_name == name; });
    if (!matched) out.push_back(name);
  }
  return out;
}

}  // namespace benchguard
