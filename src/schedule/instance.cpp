#include "schedule/instance.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

#include "core/json_error.hpp"

namespace benchguard::schedule {

std::string variant_config_json(const BenchmarkSpec& b, const VariantSpec& v,
                                const std::string& sched) {
  nlohmann::json j;
  j["instances"] = b.instances;
  j["iterations"] = b.iterations;
  j["burn_in"] = b.burn_in;
  j["warmup"] = b.warmup;
  j["timeout_s"] = b.timeout_s;
  j["max_failures"] = b.max_failures;
  j["metrics"] = b.metrics;
  if (!b.measure.empty()) j["measure"] = b.measure;
  if (!b.layout.empty()) j["layout"] = b.layout;
  j["schedule"] = sched;
  if (b.mixed_plan()) {
    j["duet_repetitions"] = b.duet_repetitions;
    j["sync_repetitions"] = b.sync_repetitions;
    j["sequential_repetitions"] = b.sequential_repetitions;
  }
  j["cwd"] = v.cwd;
  if (v.hooks.any()) {
    nlohmann::json hooks = nlohmann::json::object();
    for (const auto& [name, hook] : {std::pair{"setup", &v.hooks.setup},
                                     {"prepare", &v.hooks.prepare},
                                     {"conclude", &v.hooks.conclude},
                                     {"cleanup", &v.hooks.cleanup}})
      if (!hook->empty()) hooks[name] = *hook;
    j["hooks"] = std::move(hooks);
  }
  return json_text(j);
}

KeyValues instance_env(const BenchmarkSpec& b, const VariantSpec& v, int instance,
                       const std::string& results_path) {
  KeyValues env;
  env.reserve(v.env.size() + 8);  // the six below, and room for apply_layout's two
  env = v.env;
  env.emplace_back("BENCHGUARD_RESULTS", results_path);
  env.emplace_back("BENCHGUARD_ITERATIONS", std::to_string(b.burn_in + b.iterations));
  env.emplace_back("BENCHGUARD_BURN_IN", std::to_string(b.burn_in));
  env.emplace_back("BENCHGUARD_BENCHMARK", b.name);
  env.emplace_back("BENCHGUARD_VARIANT", v.name);
  env.emplace_back("BENCHGUARD_INSTANCE", std::to_string(instance));
  return env;
}

void apply_layout(const std::string& layout, uint64_t seed, KeyValues& env,
                  measure::LaunchSpec& spec) {
  constexpr std::size_t kPage = 4096;
  const std::string pad_name = "BENCHGUARD_LAYOUT_PAD";
  if (layout == "randomized") {
    std::mt19937_64 rng(seed);
    const std::size_t pad = std::uniform_int_distribution<std::size_t>(0, kPage - 1)(rng);
    const std::size_t heap =
        16 * std::uniform_int_distribution<std::size_t>(0, kPage / 16 - 1)(rng);
    env.emplace_back(pad_name, std::string(pad, 'x'));
    env.emplace_back("BENCHGUARD_HEAP_OFFSET", std::to_string(heap));
  } else if (layout == "fixed") {
    spec.fixed_layout = true;
    // Each variable takes NAME=VALUE and a terminating NUL on the new process's stack.
    std::size_t ours = pad_name.size() + 2;
    for (const auto& [k, v] : env)
      if (k.starts_with("BENCHGUARD_")) ours += k.size() + v.size() + 2;
    env.emplace_back(pad_name, std::string((kPage - ours % kPage) % kPage, 'x'));
  }
}

std::string describe_signal(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  if (abbrev != nullptr) return fmt::format("killed by signal {} (SIG{})", sig, abbrev);
  return fmt::format("killed by signal {}", sig);
}

InstanceRecord make_instance_record(const BenchmarkSpec& b, int instance,
                                    const measure::LaunchResult& launch,
                                    std::vector<IterationRecord> reported,
                                    const std::string& protocol_error, double timeout_s) {
  InstanceRecord rec;
  rec.index = instance;
  rec.start_ns = launch.start_ns;
  rec.end_ns = launch.end_ns;
  rec.started_at = launch.started_at;
  rec.exit_code = launch.exit_code;
  rec.signal = launch.signal;
  rec.timed_out = launch.timed_out;
  rec.user_s = launch.user_s;
  rec.sys_s = launch.sys_s;
  rec.max_rss_bytes = launch.max_rss_bytes;
  rec.rss_floor_bytes = launch.rss_floor_bytes;
  rec.mem_peak_bytes = launch.mem_peak_bytes;
  rec.mem_avg_bytes = launch.mem_avg_bytes;
  rec.mem_samples = launch.mem_samples;
  rec.mem_source = launch.mem_source;
  rec.instructions = launch.instructions;
  rec.cycles = launch.cycles;
  rec.counts = launch.counts;

  if (launch.timed_out) {
    rec.failure = fmt::format("timed out after {:g} s", timeout_s);
  } else if (launch.signal != 0) {
    rec.failure = describe_signal(launch.signal);
  } else if (launch.exit_code != 0) {
    rec.failure = fmt::format("exit code {}", launch.exit_code);
  } else if (!protocol_error.empty()) {
    rec.failure = "bad results: " + protocol_error;
  } else if (!launch.measure_error.empty()) {
    rec.failure = launch.measure_error;
  }

  if (reported.empty()) {
    // Resource use of the whole instance, as the metrics of its one iteration, so one
    // analysis path serves both kinds of benchmark.
    IterationRecord it = outside_iteration(rec);
    rec.timed_outside = true;
    rec.iterations.push_back(std::move(it));
  } else {
    for (size_t i = 0; i < reported.size(); ++i) {
      auto& it = reported[i];
      if (static_cast<int>(i) < b.burn_in) it.burn_in = true;
    }
    // An instance that died after reporting some iterations: the reported ones stand, and
    // the death is recorded on the instance.
    rec.iterations = std::move(reported);
  }
  return rec;
}

void add_hook_failure(InstanceRecord& rec, const std::string& failure, bool ran) {
  rec.failure = !ran || rec.failure.empty() ? failure : rec.failure + "; " + failure;
  // The iteration timed from outside carries the instance's failure (outside_iteration).
  if (rec.timed_outside && rec.iterations.size() == 1) rec.iterations.front().failure = rec.failure;
}

}  // namespace benchguard::schedule
