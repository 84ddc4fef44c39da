// Throughput of the hierarchical bootstrap: 10,000 resamples of the mean over 100 instances x
// 100 iterations (target: under 0.5 s on 2 cores), then the same for the median and for a
// ratio B / A. Each figure is the best of 5 runs, since the machine is shared; the CPU time
// (all threads) of that run is printed beside it, so that the wall time expected on idle cores
// is about cpu / threads even when other work competes for the machine. Last, the exact
// Mann-Whitney U test at its largest size (49 vs 49 instances, heavily tied), which every
// compare row runs: its time beside the ratio's.
//   bootstrap_bench [THREADS]   (default: all cores)
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/simulate.hpp"
#include "stats/tests.hpp"

namespace bs = benchguard::stats;

namespace {

struct Timing {
  double wall = 1e300;
  double cpu = 0.0;
};

Timing best_of_5(const std::function<void()>& work) {
  Timing best;
  for (int round = 0; round < 5; ++round) {
    const std::clock_t c0 = std::clock();
    const auto t0 = std::chrono::steady_clock::now();
    work();
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    const double wall = std::chrono::duration<double>(t1 - t0).count();
    if (wall < best.wall) best = {wall, static_cast<double>(c1 - c0) / CLOCKS_PER_SEC};
  }
  return best;
}

void report(const char* what, int resamples, Timing t) {
  std::printf("%-36s %7.3f s wall %7.3f s cpu %10.0f resamples/s\n", what, t.wall, t.cpu,
              resamples / t.wall);
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(std::max(1, threads)));
  bs::SimulationOptions sim;
  sim.instances = 100;
  sim.iterations = 100;
  const auto a = bs::simulate(sim, 1);
  const auto b = bs::simulate(sim, 2);
  const int resamples = 10000;
  std::printf("hierarchical bootstrap, 100 instances x 100 iterations, %d threads\n", threads);

  double sink = 0.0;
  const Timing mean_t = best_of_5(
      [&] { sink += bs::hierarchical_replicates(a, bs::Statistic::kMean, resamples, 7).back(); });
  report("mean, 10,000 resamples", resamples, mean_t);
  const Timing median_t = best_of_5(
      [&] { sink += bs::hierarchical_replicates(a, bs::Statistic::kMedian, resamples, 7).back(); });
  report("median, 10,000 resamples", resamples, median_t);
  const Timing ratio_t = best_of_5([&] {
    bs::BootstrapOptions options;
    sink += bs::bootstrap_ratio(a, b, options).ci.lower;
  });
  report("ratio of means B/A with interval", resamples, ratio_t);
  std::printf("target: mean under 0.5 s on 2 cores: %s (cpu / 2 = %.3f s)\n",
              mean_t.wall < 0.5 ? "met" : "MISSED", mean_t.cpu / 2.0);

  std::vector<double> x, y;
  for (int i = 0; i < 49; ++i) {
    x.push_back(i % 5);
    y.push_back(i % 7);
  }
  bool exact = true;
  const Timing u_t = best_of_5([&] {
    const auto r = bs::mann_whitney_u(x, y);
    exact = exact && r.exact;
    sink += r.p_value;
  });
  std::printf("%-36s %7.4f s wall (%s), %.3f of the ratio's time; target under 0.1 of it: %s\n",
              "exact U test, 49 vs 49, heavy ties", u_t.wall, exact ? "exact" : "NOT EXACT",
              u_t.wall / ratio_t.wall, u_t.wall < 0.1 * ratio_t.wall ? "met" : "MISSED");
  return sink == 0.0 ? 1 : 0;  // keeps the work observable
}
