#include "analysis/sequential.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_number.hpp"

namespace benchguard::analysis {
namespace {

double number_of(const nlohmann::json& j) {
  return j.is_number() ? j.get<double>() : std::nan("");
}

stats::SequentialDecision decision_of(const std::string& s) {
  for (const auto d :
       {stats::SequentialDecision::kSlower, stats::SequentialDecision::kFaster,
        stats::SequentialDecision::kEquivalent, stats::SequentialDecision::kInconclusive})
    if (s == stats::to_string(d)) return d;
  return stats::SequentialDecision::kContinue;
}

nlohmann::json look_json(const stats::Look& l) {
  return {{"look", l.look},
          {"instances_a", l.instances_a},
          {"instances_b", l.instances_b},
          {"ratio", json_number(l.ratio)},
          {"ci", {json_number(l.ci.lower), json_number(l.ci.upper)}},
          {"confidence", json_number(l.level)},
          {"dof", json_number(l.dof)},
          {"p_fixed", json_number(l.p_fixed)},
          {"p_value", json_number(l.p_value)},
          {"decision", stats::to_string(l.decision)}};
}

stats::Look look_of(const nlohmann::json& j) {
  stats::Look l;
  l.look = j.value("look", std::size_t{0});
  l.instances_a = j.value("instances_a", std::size_t{0});
  l.instances_b = j.value("instances_b", std::size_t{0});
  l.ratio = number_of(j.value("ratio", nlohmann::json()));
  const auto ci = j.value("ci", nlohmann::json::array());
  if (ci.is_array() && ci.size() == 2) l.ci = {number_of(ci[0]), number_of(ci[1])};
  l.level = number_of(j.value("confidence", nlohmann::json()));
  l.dof = number_of(j.value("dof", nlohmann::json()));
  l.p_fixed = number_of(j.value("p_fixed", nlohmann::json()));
  l.p_value = number_of(j.value("p_value", nlohmann::json()));
  l.decision = decision_of(j.value("decision", std::string()));
  l.reason = j.value("reason", std::string());
  return l;
}

SequentialRecord parse_record(const nlohmann::json& j) {
  SequentialRecord r;
  r.setup.plan.min_instances = j.value("min_instances", std::size_t{3});
  r.setup.plan.round = j.value("round", std::size_t{1});
  r.setup.plan.confidence = j.value("confidence", 0.95);
  r.family = j.value("family", std::size_t{1});
  r.benchmark_confidence = j.value("benchmark_confidence", r.setup.plan.confidence);
  r.setup.plan.spending = j.value("spending", std::string()) == "obrien-fleming"
                              ? stats::Spending::kOBrienFleming
                              : stats::Spending::kPocock;
  r.setup.verdict.threshold = j.value("threshold", r.setup.verdict.threshold);
  r.setup.metric = j.value("metric", std::string("wall_time"));
  for (const auto& b : j["benchmarks"]) {
    if (!b.is_object()) continue;
    SequentialOutcome o;
    o.benchmark = b.value("benchmark", std::string());
    o.max_instances = b.value("max_instances", std::size_t{0});
    o.out_of_time = b.value("out_of_time", false);
    o.look = look_of(b);
    if (b.contains("looks") && b["looks"].is_array())
      for (const auto& l : b["looks"]) o.looks.push_back(look_of(l));
    r.outcomes.push_back(std::move(o));
  }
  return r;
}

}  // namespace

std::pair<const VariantData*, const VariantData*> ab_variants(const RunData& run,
                                                              const std::string& benchmark) {
  const VariantData* a = nullptr;
  const VariantData* b = nullptr;
  for (const auto& v : run.variants) {
    if (v.variant.benchmark != benchmark) continue;
    if (a == nullptr)
      a = &v;
    else if (b == nullptr)
      b = &v;
  }
  return {a, b};
}

SequentialData sequential_data(const VariantData& a, const VariantData& b,
                               const SequentialSetup& setup) {
  SequentialData d;
  d.a = extract(a, setup.metric, setup.burn_in).data;
  d.b = extract(b, setup.metric, setup.burn_in).data;
  d.direction = metric_info(a, setup.metric).direction;
  return d;
}

stats::Look look_at(const SequentialData& data, const stats::SequentialDesign& design,
                    std::size_t look, const SequentialSetup& setup, bool last) {
  auto options = setup.verdict;
  options.direction = data.direction;
  const std::size_t n = look >= 1 && look <= design.sizes.size() ? design.sizes[look - 1] : 0;
  return stats::sequential_look(stats::first_instances(data.a, n),
                                stats::first_instances(data.b, n), design, look, options, last);
}

std::string sequential_record(const SequentialSetup& setup,
                              const std::vector<SequentialOutcome>& outcomes, std::size_t family,
                              double benchmark_confidence) {
  nlohmann::json j;
  j["spending"] = stats::to_string(setup.plan.spending);
  j["min_instances"] = setup.plan.min_instances;
  j["round"] = setup.plan.round;
  j["confidence"] = setup.plan.confidence;
  j["family"] = family;
  j["benchmark_confidence"] = benchmark_confidence;
  j["threshold"] = setup.verdict.threshold;
  j["statistic"] = stats::to_string(setup.verdict.statistic);
  j["metric"] = setup.metric;
  j["burn_in"] = to_string(setup.burn_in);
  auto& list = j["benchmarks"] = nlohmann::json::array();
  for (const auto& o : outcomes) {
    nlohmann::json b = look_json(o.look);
    b["benchmark"] = o.benchmark;
    b["max_instances"] = o.max_instances;
    b["reason"] = o.look.reason;
    b["out_of_time"] = o.out_of_time;
    auto& looks = b["looks"] = nlohmann::json::array();
    for (const auto& l : o.looks) looks.push_back(look_json(l));
    list.push_back(std::move(b));
  }
  return j.dump();
}

const SequentialOutcome* SequentialRecord::find(const std::string& benchmark) const {
  for (const auto& o : outcomes)
    if (o.benchmark == benchmark) return &o;
  return nullptr;
}

Result<std::optional<SequentialRecord>> read_sequential_record(const RunRecord& run) {
  const std::string* text = find_value(run.artifacts, kSequentialArtifact);
  if (text == nullptr) return std::optional<SequentialRecord>{};
  const Error unreadable{"run " + run.uuid.substr(0, 8) +
                         ": its sequential record (artifact 'sequential') cannot be read"};
  const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array()) return unreadable;
  try {
    return std::optional<SequentialRecord>{parse_record(j)};
  } catch (const nlohmann::json::exception&) {
    return unreadable;
  }
}

}  // namespace benchguard::analysis
