// Does `plan` keep its promise? Writes pilots drawn from known models, then checks a plan made
// from them against compare's verdict on fresh data (bench/run.sh, section plan):
//   plan_power_bench pilot OUT.db [INSTANCES ITERATIONS SEED]
//       one A/A run, a benchmark per scenario, each INSTANCES (50) x ITERATIONS (30) drawn from
//       the scenario's model for A with SEED (77)
//   plan_power_bench check PLAN.json [EXPERIMENTS [FAMILY]]
//       for each benchmark of `benchguard plan --format json`, at its recommended instances x
//       iterations: EXPERIMENTS (2000) fresh A/B experiments from the scenario's models, B
//       slowed by the plan's target, and as many A/A ones; compare's verdict (stats::compare
//       with the plan's statistic, threshold and confidence; with the plan's family above 1,
//       stats::compare_all over that many benchmarks of which only the first is slowed; FAMILY
//       overrides the plan's) and Welch's t-test on instance means over the same data, at
//       alpha / family
// Scenarios:
//   model    instances 3% log-sd, iterations 5%: what the plan assumes (B = A slowed)
//   spikes   the same with 2% of iterations 1.5x, 2x or 4x slower (heavy right tail)
//   unequal  B's instance and iteration noise twice A's; the pilot only shows A's
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "stats/null_calibration.hpp"
#include "stats/simulate.hpp"
#include "stats/tests.hpp"
#include "stats/verdict.hpp"
#include "store/store.hpp"

namespace {

namespace bs = benchguard::stats;

struct Scenario {
  const char* name;
  bs::SimulationOptions a;
  bs::SimulationOptions b;  // before the slowdown
};

std::vector<Scenario> scenarios() {
  bs::SimulationOptions model;
  model.instance_sd = 0.03;
  model.iteration_sd = 0.05;
  bs::SimulationOptions spikes = model;
  spikes.outlier_probability = 0.02;
  spikes.outlier_factors = {1.5, 2.0, 4.0};
  bs::SimulationOptions noisier = model;
  noisier.instance_sd = 0.06;
  noisier.iteration_sd = 0.10;
  return {{"model", model, model}, {"spikes", spikes, spikes}, {"unequal", model, noisier}};
}

int fail(const std::string& message) {
  std::fprintf(stderr, "plan_power_bench: %s\n", message.c_str());
  return 1;
}

int write_pilot(const std::string& out, std::size_t instances, std::size_t iterations,
                uint64_t seed) {
  std::filesystem::remove(out);
  auto store = benchguard::store::open_store(out);
  if (!store.ok()) return fail(store.error().message);
  benchguard::RunRecord run;
  run.uuid = "00001a0a-0000-4000-8000-000000000003";
  run.started_at = 1700000000000000000;
  run.suite = "plan-power";
  auto run_id = (*store)->begin_run(run);
  if (!run_id.ok()) return fail(run_id.error().message);
  int64_t clock = 0;
  const auto all = scenarios();
  for (std::size_t k = 0; k < all.size(); ++k) {
    bs::SimulationOptions sim = all[k].a;
    sim.instances = instances;
    sim.iterations = iterations;
    const auto data = bs::simulate(sim, seed, k);
    benchguard::VariantRecord variant;
    variant.benchmark = all[k].name;
    variant.name = "default";
    variant.command = {"pilot", all[k].name};
    auto variant_id = (*store)->add_variant(*run_id, variant);
    if (!variant_id.ok()) return fail(variant_id.error().message);
    for (std::size_t i = 0; i < data.instances(); ++i) {
      benchguard::InstanceRecord in;
      in.index = in.order = static_cast<int>(i);
      in.start_ns = clock;
      in.started_at = run.started_at + clock;
      in.exit_code = 0;
      in.schedule = "sequential";
      const auto values = data.instance(i);
      for (std::size_t j = 0; j < values.size(); ++j) {
        benchguard::IterationRecord it;
        it.index = static_cast<int>(j);
        it.start_ns = clock;
        clock += static_cast<int64_t>(values[j] * 1e9);
        it.end_ns = clock;
        it.metrics.emplace_back("wall_time", values[j]);
        in.iterations.push_back(it);
      }
      in.end_ns = clock;
      if (auto s = (*store)->add_instance(*variant_id, in); !s.ok()) return fail(s.error().message);
    }
  }
  if (auto s = (*store)->finish_run(*run_id, run.started_at + clock, "complete"); !s.ok())
    return fail(s.error().message);
  std::printf("wrote %zu pilots of %zu instances x %zu iterations to %s (seed %llu)\n", all.size(),
              instances, iterations, out.c_str(), static_cast<unsigned long long>(seed));
  return 0;
}

bs::Hierarchical draw(bs::SimulationOptions sim, std::size_t n, std::size_t m, double slowdown,
                      uint64_t stream) {
  sim.instances = n;
  sim.iterations = m;
  sim.slowdown = slowdown;
  return bs::simulate(sim, 4242, stream);
}

std::string rate(std::size_t k, std::size_t n) {
  const auto ci = bs::binomial_interval(k, n, 0.95);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%5.1f%% [%4.1f, %4.1f]", 100.0 * static_cast<double>(k) / n,
                100 * ci.lower, 100 * ci.upper);
  return buf;
}

int check(const std::string& path, std::size_t experiments, std::size_t family_override) {
  std::ifstream in(path);
  if (!in) return fail("cannot read " + path);
  const auto plan = nlohmann::json::parse(in);
  const auto& options = plan["options"];
  const double target = options["target"].get<double>();
  bs::VerdictOptions v;  // compare's defaults, unless the plan says otherwise
  v.confidence = options.value("confidence", 0.95);
  v.threshold = options.value("threshold", v.threshold);
  const std::string statistic = options.value("statistic", std::string("robust mean"));
  for (const auto s : {bs::Statistic::kMean, bs::Statistic::kMedian, bs::Statistic::kTrimmedMean,
                       bs::Statistic::kRobustMean})
    if (statistic == bs::to_string(s)) v.statistic = s;
  const std::size_t family =
      family_override > 0 ? family_override : options.value("family", std::size_t{1});
  const double alpha = 1.0 - v.confidence;
  std::printf("target %g, %zu fresh experiments each; family %zu; rates with 95%% intervals\n",
              target, experiments, family);
  std::printf("%-8s %7s | %-20s %-9s | %-26s %-26s | %-26s %-26s\n", "scenario", "n x m",
              "plan: power (bound)", "plan: A/A", "compare: power", "compare: A/A",
              "Welch (means): power", "Welch: A/A");
  for (const auto& b : plan["benchmarks"]) {
    const std::string name = b["benchmark"];
    std::optional<Scenario> sc;
    for (const auto& s : scenarios())
      if (name == s.name) sc = s;
    if (!sc || b["recommendation"].is_null()) continue;
    const auto& r = b["recommendation"];
    const std::size_t n = r["instances"], m = r["iterations"];
    std::size_t slower = 0, aa = 0, welch = 0, welch_aa = 0;
    for (std::size_t e = 0; e < experiments; ++e) {
      const uint64_t base = 8 * e * family;
      // Benchmark 0 of the family: A against B slowed, then A against a fresh A/A draw.
      std::vector<bs::Hierarchical> as, bs_slow, bs_same;
      for (std::size_t k = 0; k < family; ++k) {
        as.push_back(draw(sc->a, n, m, 1.0, base + 4 * k));
        bs_slow.push_back(
            draw(k == 0 ? sc->b : sc->a, n, m, k == 0 ? target : 1.0, base + 4 * k + 1));
        bs_same.push_back(draw(k == 0 ? sc->b : sc->a, n, m, 1.0, base + 4 * k + 2));
      }
      const auto verdict = [&](const std::vector<bs::Hierarchical>& bside) {
        return family == 1 ? bs::compare(as[0], bside[0], v).verdict
                           : bs::compare_all(as, bside, v).benchmarks[0].verdict;
      };
      slower += verdict(bs_slow) == bs::Verdict::kSlower;
      const auto same = verdict(bs_same);
      aa += same == bs::Verdict::kSlower || same == bs::Verdict::kFaster;
      const auto ma = bs::instance_means(as[0]);
      const auto wt = bs::welch_t_test(ma, bs::instance_means(bs_slow[0]));
      welch += wt.p_value < alpha / static_cast<double>(family) && wt.t < 0;
      welch_aa += bs::welch_t_test(ma, bs::instance_means(bs_same[0])).p_value <
                  alpha / static_cast<double>(family);
    }
    char promised[64], plan_aa[32], nm[16];
    std::snprintf(promised, sizeof promised, "%5.1f%% (%5.1f%%)",
                  100 * r["detection_at_target"].get<double>(),
                  100 * r.value("detection_lower_bound", r["detection_at_target"].get<double>()));
    std::snprintf(plan_aa, sizeof plan_aa, "%5.1f%%", 100 * r["fpr"].get<double>());
    std::snprintf(nm, sizeof nm, "%zux%zu", n, m);
    std::printf("%-8s %7s | %-20s %-9s | %-26s %-26s | %-26s %-26s\n", name.c_str(), nm, promised,
                plan_aa, rate(slower, experiments).c_str(), rate(aa, experiments).c_str(),
                rate(welch, experiments).c_str(), rate(welch_aa, experiments).c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 2 ? argv[1] : "";
  if (mode == "pilot")
    return write_pilot(argv[2], argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 50,
                       argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 30,
                       argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 77);
  if (mode == "check")
    return check(argv[2], argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 2000,
                 argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 0);
  std::fprintf(stderr,
               "usage: plan_power_bench pilot OUT.db [INSTANCES ITERATIONS SEED]\n"
               "       plan_power_bench check PLAN.json [EXPERIMENTS [FAMILY]]\n");
  return 2;
}
