// Verdicts on data with outliers: A/A false alarms and power of `compare`'s verdict for each
// statistic, by simulation. The data have the structure of real measurements (10 instances x
// 20 iterations per side, 3% instance offsets, 2% iteration noise); the outlier scenario
// multiplies 2% of the iterations by 3 or by 12 (interrupts, page faults, a GC pause).
// Targets: with outliers, A/A false alarms <= 6%; on clean data, a 5% slowdown called slower
// in >= 90%. Prints the rates with their Monte Carlo standard errors; asserts nothing.
//   outlier_bench [TRIALS] [RESAMPLES]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "stats/rng.hpp"
#include "stats/simulate.hpp"
#include "stats/verdict.hpp"

namespace stats = benchguard::stats;

namespace {

stats::SimulationOptions clean() {
  stats::SimulationOptions o;
  o.instances = 10;
  o.iterations = 20;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  return o;
}

stats::SimulationOptions spiky() {
  auto o = clean();
  o.outlier_probability = 0.02;
  o.outlier_factors = {3.0, 12.0};
  return o;
}

struct Rate {
  int hits = 0;
  int trials = 0;
  double value() const { return trials > 0 ? static_cast<double>(hits) / trials : NAN; }
  double se() const { return std::sqrt(value() * (1.0 - value()) / trials); }
};

// How often compare() says `wanted` (or, with wanted = kUnchanged, slower or faster: a false
// alarm) when B is A's data model slowed by `slowdown`.
Rate rate(const stats::SimulationOptions& model, double slowdown, stats::Statistic statistic,
          int trials, int resamples, uint64_t seed) {
  stats::VerdictOptions vo;
  vo.statistic = statistic;
  vo.resamples = resamples;
  auto model_b = model;
  model_b.slowdown = slowdown;
  Rate r;
  for (int t = 0; t < trials; ++t) {
    const auto a = stats::simulate(model, seed, 2 * static_cast<uint64_t>(t));
    const auto b = stats::simulate(model_b, seed, 2 * static_cast<uint64_t>(t) + 1);
    vo.seed = stats::derive_seed(seed, static_cast<uint64_t>(t));
    const auto v = stats::compare(a, b, vo).verdict;
    const bool hit = slowdown == 1.0
                         ? (v == stats::Verdict::kSlower || v == stats::Verdict::kFaster)
                         : v == stats::Verdict::kSlower;
    r.hits += hit ? 1 : 0;
    ++r.trials;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int resamples = argc > 2 ? std::atoi(argv[2]) : 2000;
  std::printf(
      "%d simulated comparisons per cell, %d resamples each; 10 instances x 20 "
      "iterations per side\n",
      trials, resamples);
  std::printf("%-13s %-26s %-26s %-26s %-26s\n", "", "A/A false alarms, outliers",
              "A/A false alarms, clean", "power 5%, clean", "power 5%, outliers");
  for (const auto statistic :
       {stats::Statistic::kMean, stats::Statistic::kMedian, stats::Statistic::kTrimmedMean}) {
    const Rate cells[] = {
        rate(spiky(), 1.0, statistic, trials, resamples, 11),
        rate(clean(), 1.0, statistic, trials, resamples, 12),
        rate(clean(), 1.05, statistic, trials, resamples, 13),
        rate(spiky(), 1.05, statistic, trials, resamples, 14),
    };
    std::printf("%-13s", stats::to_string(statistic));
    for (const auto& c : cells) {
      const std::string cell = std::to_string(100.0 * c.value()).substr(0, 5) + "% +- " +
                               std::to_string(100.0 * c.se()).substr(0, 4) + "%";
      std::printf(" %-26s", cell.c_str());
    }
    std::printf("\n");
  }
  std::printf(
      "(targets: A/A false alarms with outliers <= 6%%, power for 5%% on clean data >= "
      "90%%)\n");
  return 0;
}
