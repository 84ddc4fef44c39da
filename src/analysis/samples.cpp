#include "analysis/samples.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/instance_table.hpp"
#include "core/iterations.hpp"

namespace benchguard::analysis {

std::string to_string(const BurnInPolicy& policy) {
  switch (policy.mode) {
    case BurnInPolicy::Mode::kConfigured:
      return "configured";
    case BurnInPolicy::Mode::kFixed:
      return std::to_string(policy.fixed);
    case BurnInPolicy::Mode::kAuto:
      break;
  }
  return "auto";
}

MetricInfo metric_info(const std::string& name) {
  if (const MetricInfo* m = find_builtin_metric(name)) return *m;
  return MetricInfo{name, "", Direction::kLowerIsBetter};
}

MetricInfo metric_info(const VariantData& v, const std::string& name) {
  for (const auto& m : v.metrics)
    if (m.name == name) return m;
  return metric_info(name);
}

namespace {

// What an instance's process tree used, measured from outside whatever the benchmark reports:
// one value per instance. Memory, then counts over the whole process (hardware counters or
// Valgrind).
constexpr const char* kInstanceLevel[] = {
    "max_rss",   "peak_memory", "avg_memory",       "instructions",  "cycles",
    "l1_misses", "ll_misses",   "estimated_cycles", "branch_misses", "cache_misses"};

bool is_instance_level(const std::string& metric) {
  return std::find(std::begin(kInstanceLevel), std::end(kInstanceLevel), metric) !=
         std::end(kInstanceLevel);
}

// The instance's own value of an instance-level metric, as outside_metrics gives it; nullopt
// when it was not measured (an imported instance, counters refused).
std::optional<double> instance_value(const InstanceRecord& in, const std::string& metric) {
  const bool memory = metric == "max_rss" || metric == "peak_memory" || metric == "avg_memory";
  if (memory && in.max_rss_bytes <= 0 && in.mem_peak_bytes <= 0) return std::nullopt;
  for (const auto& [name, value] : outside_metrics(in))
    if (name == metric) return value;
  return std::nullopt;
}

// Whether an instance's iterations report nothing of `metric`.
bool reports_none(const IterationsView& its, const std::string& metric) {
  const auto values = its.metric(metric);
  for (std::size_t k = 0; k < its.size(); ++k)
    if (values.at(k)) return false;
  return true;
}

}  // namespace

std::vector<std::string> metrics_of(const VariantData& v) {
  std::vector<std::string> names;
  for_each_instance(
      v, [&](const InstanceRecord&, const IterationsView& its) { its.add_metric_names(names); });
  auto wall = std::find(names.begin(), names.end(), "wall_time");
  if (wall != names.end()) std::rotate(names.begin(), wall, wall + 1);
  // A benchmark that reports its iterations still ran as a process tree whose memory (and
  // counts) were measured: compared per instance (from_instances).
  std::vector<bool> measured(std::size(kInstanceLevel), false);
  for_each_instance(v, [&](const InstanceRecord& in, const IterationsView&) {
    if (!in.ok() || in.timed_outside) return;
    for (std::size_t m = 0; m < measured.size(); ++m)
      if (!measured[m]) measured[m] = instance_value(in, kInstanceLevel[m]).has_value();
  });
  for (std::size_t m = 0; m < measured.size(); ++m)
    if (measured[m] && std::find(names.begin(), names.end(), kInstanceLevel[m]) == names.end())
      names.emplace_back(kInstanceLevel[m]);
  return names;
}

std::string unmeasured_hint(const std::string& metric) {
  if (metric == "l1_misses" || metric == "ll_misses" || metric == "estimated_cycles")
    return " (simulated caches are counted by `run --measure caches`, under Valgrind)";
  if (metric != "instructions" && metric != "cycles" && metric != "branch_misses" &&
      metric != "cache_misses")
    return "";
  return " (hardware counters were refused where it ran: a VM without a PMU, "
         "perf_event_paranoid above 2 or a container, as `benchguard system check` shows; or "
         "--no-counters. `run --measure instructions` counts instructions under Valgrind)";
}

bool counted_by_simulation(const VariantData& v) {
  if (v.variant.config_json.empty()) return false;
  const auto config = nlohmann::json::parse(v.variant.config_json, nullptr, false);
  if (!config.is_object()) return false;
  const auto measure = config.find("measure");
  if (measure == config.end() || !measure->is_array()) return false;
  return std::find(measure->begin(), measure->end(), "instructions") != measure->end() ||
         std::find(measure->begin(), measure->end(), "caches") != measure->end();
}

std::string settings_of(const VariantData& v) {
  if (v.variant.config_json.empty()) return "";
  const auto config = nlohmann::json::parse(v.variant.config_json, nullptr, false);
  if (!config.is_object()) return "";
  std::string out;
  for (const char* key : kSettingKeys) {
    const auto it = config.find(key);
    if (it == config.end() || it->is_null()) continue;
    if (!out.empty()) out += ' ';
    out += key;
    out += '=';
    out += it->is_string() ? it->get<std::string>() : it->dump();
  }
  return out;
}

std::string layout_of(const VariantData& v) {
  if (v.variant.config_json.empty()) return "native";
  const auto config = nlohmann::json::parse(v.variant.config_json, nullptr, false);
  if (!config.is_object()) return "native";
  const auto layout = config.find("layout");
  if (layout == config.end() || !layout->is_string()) return "native";
  return layout->get<std::string>();
}

bool from_instances(const VariantData& v, const std::string& metric) {
  if (!is_instance_level(metric)) return false;
  bool found = false;
  for_each_instance(v, [&](const InstanceRecord& in, const IterationsView& its) {
    found = found || (in.ok() && !in.timed_outside && reports_none(its, metric) &&
                      instance_value(in, metric).has_value());
  });
  return found;
}

MetricSample extract(const VariantData& v, const std::string& metric, const BurnInPolicy& policy) {
  MetricSample s;
  s.benchmark = v.variant.benchmark;
  s.variant = v.variant.name;
  s.metric = metric_info(v, metric);
  using Mode = BurnInPolicy::Mode;
  std::vector<double> xs;
  for_each_instance(v, [&](const InstanceRecord& inst, const IterationsView& its) {
    if (!inst.ok()) {
      ++s.instances_failed;
      return;
    }
    ++s.instances_ok;
    const bool per_instance =
        !inst.timed_outside && is_instance_level(metric) && reports_none(its, metric);
    // Timed from outside, the iteration's metrics are the instance's own too. A value at the
    // launch floor is benchguard's size, not the benchmark's: counted, never analysed.
    if ((inst.timed_outside || per_instance) && at_launch_floor(inst, metric)) {
      ++s.instances_at_floor;
      s.launch_floor_bytes = std::max(s.launch_floor_bytes, inst.rss_floor_bytes);
      return;
    }
    if (per_instance) {
      if (const auto x = instance_value(inst, metric)) s.series.add_instance(std::span(&*x, 1));
      return;
    }
    const auto values = its.metric(metric);
    xs.clear();
    for (std::size_t k = 0; k < its.size(); ++k) {
      const bool leading = policy.mode == Mode::kFixed ? k < policy.fixed : its.burn_in(k);
      if (leading) {
        ++s.configured_burn_in;
        continue;
      }
      if (its.timed_out(k) || its.failed(k)) continue;
      if (auto x = values.at(k)) xs.push_back(*x);
    }
    s.series.add_instance(xs);  // an instance without values is left out
  });

  std::size_t shortest = SIZE_MAX;
  for (std::size_t i = 0; i < s.series.instances(); ++i)
    shortest = std::min(shortest, s.series.instance(i).size());
  // Detection runs only when asked for (kAuto): a configured or fixed burn-in is taken as
  // given, and its cost (linear, but the largest part of reading a long run) is not paid.
  if (policy.mode == Mode::kAuto && !s.series.empty() && shortest >= kMinSeriesForDetection) {
    stats::SteadyStateOptions opts;
    opts.direction = s.metric.direction;
    std::vector<std::vector<double>> series;
    series.reserve(s.series.instances());
    for (std::size_t i = 0; i < s.series.instances(); ++i) {
      const auto xs = s.series.instance(i);
      series.emplace_back(xs.begin(), xs.end());
    }
    s.steady = stats::classify_benchmark(series, opts);
    const auto& sum = s.steady->summary;
    if (sum.no_steady_state_share > 0)
      s.warnings.push_back(fmt::format("{:.0f}% of instances never reach a steady state",
                                       100 * sum.no_steady_state_share));
    if (sum.recommended_burn_in && *sum.recommended_burn_in > 0) {
      // Keep at least half of the shortest instance: a burn-in that would eat most of the
      // data says more about the benchmark than about its warm-up.
      if (*sum.recommended_burn_in <= shortest / 2) {
        s.detected_burn_in = *sum.recommended_burn_in;
      } else {
        s.warnings.push_back(fmt::format(
            "detected burn-in of {} iterations left in: it would drop most of the data; run "
            "more iterations",
            *sum.recommended_burn_in));
      }
    }
  }
  s.data = s.detected_burn_in > 0 ? stats::drop_leading(s.series, s.detected_burn_in) : s.series;
  return s;
}

std::string share_burn_in(MetricSample& a, MetricSample& b) {
  if (a.detected_burn_in == b.detected_burn_in) return "";
  const auto shortest = [](const stats::Hierarchical& h) {
    std::size_t n = SIZE_MAX;
    for (std::size_t i = 0; i < h.instances(); ++i) n = std::min(n, h.instance(i).size());
    return n;
  };
  if (a.series.empty() || b.series.empty()) return "";
  const std::size_t limit = std::min(shortest(a.series), shortest(b.series)) / 2;
  const std::size_t common = std::min(std::max(a.detected_burn_in, b.detected_burn_in), limit);
  std::string note = fmt::format(
      "burn-in: steady-state detection found {} leading iterations of A's instances and {} of "
      "B's; both sides leave out {}, so that they are compared over the same iterations",
      a.detected_burn_in, b.detected_burn_in, common);
  for (MetricSample* s : {&a, &b}) {
    s->detected_burn_in = common;
    s->data = common > 0 ? stats::drop_leading(s->series, common) : s->series;
  }
  return note;
}

}  // namespace benchguard::analysis
