// Writes a Hail-scale dataset for timing `benchguard plan` (bench/run.sh): one run of 144
// benchmarks, each 50 instances x 50 iterations of wall_time, with the means, CVs and burn-ins
// of Hail's batch-config.yaml. Given that file, its 144 entries are used as they are; without
// it, the same spread comes from the deciles recorded below.
//
// Each benchmark's total CV is split between instances and iterations, the instance share
// drawn from 20-60% (process launches differ in layout, frequency and neighbours); its first
// burn-in iterations are slower by 20-100%, falling linearly; 0.2% of iterations are outliers
// 12x slower, 0.1% fail, and one instance in 200 fails outright, for the cleaning to find.
//   plan_dataset OUT.db [HAIL_CONFIG.yaml] [BENCHMARKS INSTANCES ITERATIONS]
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "store/store.hpp"

namespace {

namespace bs = benchguard::stats;

struct Profile {
  std::string name;
  int burn_in;
  double mean;  // seconds
  double cv;
};

// Deciles of Hail's batch-config.yaml (144 benchmarks).
constexpr std::array<double, 11> kBurnIn = {1, 3, 4, 5, 5, 8, 8, 10, 10, 12, 25};
constexpr std::array<double, 11> kMean = {0.172,  0.835,  2.195,  5.422,   8.889,  11.871,
                                          17.699, 24.931, 47.356, 110.841, 280.836};
constexpr std::array<double, 11> kCv = {0.052, 0.069, 0.083, 0.087, 0.09, 0.094,
                                        0.1,   0.11,  0.125, 0.148, 0.417};

// Log-linear interpolation between deciles at u in [0, 1].
double decile(const std::array<double, 11>& d, double u) {
  const double h = std::clamp(u, 0.0, 1.0) * 10.0;
  const auto i = std::min<std::size_t>(static_cast<std::size_t>(h), 9);
  const double f = h - static_cast<double>(i);
  return std::exp(std::log(d[i]) + f * (std::log(d[i + 1]) - std::log(d[i])));
}

std::vector<Profile> spread_profiles(int count) {
  std::vector<Profile> out;
  for (int k = 0; k < count; ++k) {
    const auto u = [&](int stride) {
      return (static_cast<double>((k * stride) % count) + 0.5) / count;
    };
    char name[32];
    std::snprintf(name, sizeof name, "hail/benchmark_%03d", k);
    out.push_back({name, static_cast<int>(std::lround(decile(kBurnIn, u(37)))), decile(kMean, u(1)),
                   decile(kCv, u(53))});
  }
  return out;
}

// The file lists one benchmark twice; the second copy gets a suffix, since names are unique
// per run.
std::vector<Profile> hail_profiles(const std::string& path) {
  std::vector<Profile> out;
  for (const auto& item : YAML::LoadFile(path)) {
    Profile p{item["item"].as<std::string>(), item["burn-in-iterations"].as<int>(),
              item["mean"].as<double>(), item["cv"].as<double>()};
    const auto seen = std::count_if(out.begin(), out.end(), [&](const Profile& q) {
      return q.name == p.name || q.name.starts_with(p.name + "#");
    });
    if (seen > 0) p.name += "#" + std::to_string(seen + 1);
    out.push_back(p);
  }
  return out;
}

benchguard::InstanceRecord make_instance(int index, bs::Rng& rng, std::span<const double> values,
                                         int64_t& clock) {
  benchguard::InstanceRecord in;
  in.index = index;
  in.order = index;
  in.start_ns = clock;
  in.started_at = 1700000000000000000 + clock;
  in.exit_code = 0;
  in.schedule = "sequential";
  if (rng.uniform() < 1.0 / 200) {
    in.exit_code = 1;
    in.failure = "exit code 1";
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    benchguard::IterationRecord it;
    it.index = static_cast<int>(j);
    it.start_ns = clock;
    clock += static_cast<int64_t>(values[j] * 1e9);
    it.end_ns = clock;
    if (rng.uniform() < 0.001) it.failure = "error: task lost";
    it.metrics.emplace_back("wall_time", values[j]);
    in.iterations.push_back(it);
  }
  in.end_ns = clock;
  return in;
}

int fail(const benchguard::Error& e) {
  std::fprintf(stderr, "plan_dataset: %s\n", e.message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: plan_dataset OUT.db [HAIL_CONFIG.yaml] [BENCHMARKS INSTANCES ITERATIONS]\n");
    return 2;
  }
  const std::string out = argv[1];
  const std::string config = argc > 2 ? argv[2] : "";
  const int count = argc > 3 ? std::atoi(argv[3]) : 144;
  const int instances = argc > 4 ? std::atoi(argv[4]) : 50;
  const int iterations = argc > 5 ? std::atoi(argv[5]) : 50;
  std::vector<Profile> profiles;
  if (!config.empty() && std::filesystem::exists(config)) profiles = hail_profiles(config);
  if (profiles.empty()) profiles = spread_profiles(count);
  profiles.resize(std::min<std::size_t>(profiles.size(), static_cast<std::size_t>(count)));

  std::filesystem::remove(out);
  auto store = benchguard::store::open_store(out);
  if (!store.ok()) return fail(store.error());
  benchguard::RunRecord run;
  run.uuid = "0000a11a-0000-4000-8000-000000000144";
  run.started_at = 1700000000000000000;
  run.suite = "hail-scale";
  run.labels = {{"dataset", "hail-scale"}};
  auto run_id = (*store)->begin_run(run);
  if (!run_id.ok()) return fail(run_id.error());
  int64_t clock = 0;
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    const Profile& p = profiles[k];
    bs::Rng rng(2024, k);
    const double instance_share = 0.2 + 0.4 * rng.uniform();
    bs::SimulationOptions sim;
    sim.instances = static_cast<std::size_t>(instances);
    sim.warmup_iterations = static_cast<std::size_t>(std::min(p.burn_in, iterations / 2));
    sim.iterations = static_cast<std::size_t>(iterations) - sim.warmup_iterations;
    sim.mean = p.mean;
    sim.instance_sd = p.cv * std::sqrt(instance_share);
    sim.iteration_sd = p.cv * std::sqrt(1.0 - instance_share);
    sim.outlier_probability = 0.002;
    sim.outlier_factor = 12.0;
    sim.warmup_factor = 1.2 + 0.8 * rng.uniform();
    const auto data = bs::simulate(sim, 2024, k + 1);

    benchguard::VariantRecord variant;
    variant.benchmark = p.name;
    variant.name = "default";
    variant.command = {"hail-benchmark", p.name};
    auto variant_id = (*store)->add_variant(*run_id, variant);
    if (!variant_id.ok()) return fail(variant_id.error());
    for (std::size_t i = 0; i < data.instances(); ++i) {
      const auto in = make_instance(static_cast<int>(i), rng, data.instance(i), clock);
      if (auto s = (*store)->add_instance(*variant_id, in); !s.ok()) return fail(s.error());
    }
  }
  if (auto s = (*store)->finish_run(*run_id, run.started_at + clock, "complete"); !s.ok())
    return fail(s.error());
  std::printf(
      "wrote %zu benchmarks x %d instances x %d iterations to %s (%s)\n", profiles.size(),
      instances, iterations, out.c_str(),
      config.empty() || !std::filesystem::exists(config) ? "Hail's deciles" : config.c_str());
  return 0;
}
