// Duet against sequential under noise: on this machine, with a background load that switches
// on and off at random, runs A/A and A/B (B does 3% more work) as a sequential schedule and
// as a duet, for the same wall-clock budget, and prints the interval widths and verdicts, then
// per schedule the A/A false-alarm rate and the A/B detection rate over the repetitions (with
// their Monte Carlo standard errors), and what the duet's CPU sets and start order did.
// Targets: A/A false alarms <= 5%, detection of the 3% change >= 90%, duet intervals at least
// 5x narrower than sequential ones (at least 30 repetitions). Prints; asserts nothing.
//   duet_noise_bench SPIN_BENCH [REPETITIONS]
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/duet.hpp"
#include "schedule/runner.hpp"
#include "store/store.hpp"

namespace bg = benchguard;
namespace fs = std::filesystem;

namespace {

constexpr const char* kWorkA = "4000";  // thousands of steps: about 5 ms per iteration
constexpr const char* kWorkB = "4120";  // 3% more
constexpr int kIterations = 20;
constexpr int kBurnIn = 2;
constexpr int kSequentialInstances = 10;  // per side, one after the other
constexpr int kDuetPairs = 16;            // two at a time, each side sharing the machine

// A child process that loads every CPU for 100-600 ms, idles for 100-600 ms, and so on: a
// burner thread pinned to each CPU, as another tenant of a shared machine would be.
pid_t start_noise(unsigned seed) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ms(100, 600);
  const unsigned cpus = std::max(1U, std::thread::hardware_concurrency());
  std::atomic<bool> on{false};
  std::vector<std::thread> burners;
  for (unsigned i = 0; i < cpus; ++i)
    burners.emplace_back([&on, i] {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(i, &set);
      sched_setaffinity(0, sizeof set, &set);
      volatile uint64_t x = 1;
      for (;;) {
        if (on.load(std::memory_order_relaxed))
          for (int k = 0; k < 100000; ++k) x = x * 6364136223846793005ULL + 1;
        else
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  for (;;) {
    on = !on;
    std::this_thread::sleep_for(std::chrono::milliseconds(ms(rng)));
  }
}

struct Outcome {
  double wall_s = 0;
  double ratio = 0, lo = 0, hi = 0;
  std::string verdict;
  std::size_t paired = 0;
  double cpu_effect = NAN, start_effect = NAN;  // duet: factors, 1 for none
};

Outcome measure(const std::string& spin, const std::string& schedule, const char* work_b,
                const fs::path& dir, int rep) {
  bg::Suite suite;
  suite.name = "noise";
  suite.schedule = schedule;
  bg::BenchmarkSpec b;
  b.name = "spin";
  b.base_name = "spin";
  b.instances = schedule == "duet" ? kDuetPairs : kSequentialInstances;
  b.iterations = kIterations;
  b.burn_in = kBurnIn;
  b.variants = {bg::VariantSpec{"A", {spin, "--work", kWorkA}, "", {}},
                bg::VariantSpec{"B", {spin, "--work", work_b}, "", {}}};
  suite.benchmarks.push_back(b);

  const std::string db = (dir / (schedule + std::to_string(rep) + work_b + ".db")).string();
  auto store = bg::store::open_store(db);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    std::exit(2);
  }
  bg::schedule::RunOptions options;
  options.seed = static_cast<uint64_t>(rep);
  const auto t0 = std::chrono::steady_clock::now();
  auto outcome = bg::schedule::run_suite(suite, **store, options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!outcome.ok()) {
    std::fprintf(stderr, "%s\n", outcome.error().message.c_str());
    std::exit(2);
  }
  auto run = (*store)->load_run(outcome->uuid);
  if (!run.ok() || run->variants.size() != 2) {
    std::fprintf(stderr, "could not read the run back\n");
    std::exit(2);
  }
  bg::analysis::CompareOptions co;
  co.burn_in.mode = bg::analysis::BurnInPolicy::Mode::kConfigured;
  co.verdict.resamples = 4000;
  co.verdict.seed = static_cast<uint64_t>(rep);
  const auto report =
      bg::analysis::compare_sides({"A", {&run->variants[0]}}, {"B", {&run->variants[1]}}, co);
  Outcome o;
  o.wall_s = wall;
  if (report.metrics.empty() || report.metrics[0].rows.empty()) return o;
  const auto& row = report.metrics[0].rows[0];
  o.ratio = row.result.ratio.value;
  o.lo = row.result.ratio.ci.lower;
  o.hi = row.result.ratio.ci.upper;
  o.verdict = bg::stats::to_string(row.result.verdict);
  if (row.duet) {
    o.paired = row.duet->paired;
    const auto balance =
        bg::analysis::duet_balance(run->variants[0], run->variants[1], "wall_time", co.burn_in);
    o.cpu_effect = balance.cpu.factor;
    o.start_effect = balance.start.factor;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: duet_noise_bench SPIN_BENCH [REPETITIONS]\n");
    return 2;
  }
  const std::string spin = argv[1];
  const int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  const fs::path dir = fs::temp_directory_path() / ("bg-duet-bench-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const pid_t noise = start_noise(12345);

  std::printf(
      "%d repetitions; sequential: %d instances per side; duet: %d pairs; %d x ~5 ms "
      "iterations each\n",
      reps, kSequentialInstances, kDuetPairs, kIterations);
  std::printf("%-10s %-4s %3s %7s %7s %17s %7s %7s  %s\n", "schedule", "test", "rep", "wall s",
              "B/A", "95% CI", "width", "paired", "verdict");
  double width[2][2] = {{0, 0}, {0, 0}};  // [schedule][A/A, A/B]
  int hits[2][2] = {{0, 0}, {0, 0}};      // A/A: slower or faster; A/B: slower
  double wall[2] = {0, 0};
  std::vector<double> cpu_effects, start_effects;
  for (int rep = 0; rep < reps; ++rep) {
    for (int s = 0; s < 2; ++s) {
      const std::string schedule = s == 0 ? "sequential" : "duet";
      for (int t = 0; t < 2; ++t) {
        const Outcome o = measure(spin, schedule, t == 0 ? kWorkA : kWorkB, dir, rep);
        width[s][t] += (o.hi - o.lo) / reps;
        hits[s][t] +=
            t == 0 ? (o.verdict == "slower" || o.verdict == "faster") : o.verdict == "slower";
        if (std::isfinite(o.cpu_effect)) cpu_effects.push_back(o.cpu_effect);
        if (std::isfinite(o.start_effect)) start_effects.push_back(o.start_effect);
        wall[s] += o.wall_s / (2 * reps);
        std::printf("%-10s %-4s %3d %7.2f %7.4f %8.4f..%-8.4f %7.4f %7zu  %s\n", schedule.c_str(),
                    t == 0 ? "A/A" : "A/B", rep, o.wall_s, o.ratio, o.lo, o.hi, o.hi - o.lo,
                    o.paired, o.verdict.c_str());
        std::fflush(stdout);
      }
    }
  }
  kill(noise, SIGKILL);
  waitpid(noise, nullptr, 0);
  std::error_code ec;
  fs::remove_all(dir, ec);

  std::printf("\nmean wall-clock per comparison: sequential %.2f s, duet %.2f s\n", wall[0],
              wall[1]);
  for (int t = 0; t < 2; ++t)
    std::printf("%s mean CI width: sequential %.4f, duet %.4f -> duet %.1fx narrower\n",
                t == 0 ? "A/A" : "A/B", width[0][t], width[1][t], width[0][t] / width[1][t]);
  for (int sch = 0; sch < 2; ++sch) {
    const double fa = static_cast<double>(hits[sch][0]) / reps;
    const double det = static_cast<double>(hits[sch][1]) / reps;
    std::printf(
        "%-10s A/A false alarms %d/%d = %.1f%% +- %.1f%%; A/B (+3%%) detected %d/%d = "
        "%.1f%% +- %.1f%%\n",
        sch == 0 ? "sequential" : "duet", hits[sch][0], reps, 100 * fa,
        100 * std::sqrt(fa * (1 - fa) / reps), hits[sch][1], reps, 100 * det,
        100 * std::sqrt(det * (1 - det) / reps));
  }
  auto mean_pct = [](const std::vector<double>& f) {
    double sum = 0;
    for (double x : f) sum += x - 1;
    return f.empty() ? NAN : 100 * sum / static_cast<double>(f.size());
  };
  std::printf(
      "duet balance, mean over %zu duet runs: the side on the second CPU %+.2f%%, the "
      "side started second %+.2f%%\n",
      cpu_effects.size(), mean_pct(cpu_effects), mean_pct(start_effects));
  std::printf("(targets: A/A false alarms <= 5%%, A/B detection >= 90%%, duet >= 5x narrower)\n");
  return 0;
}
