// Which schedule to use on a noisy machine: for each kind of controlled noise (noise_source)
// and each schedule, runs A/A (B the same program) and A/B (B does 3% more work) on this
// machine, `REPETITIONS` times, and prints per cell
//   - the A/A false-alarm rate (slower or faster) with its Clopper-Pearson 95% interval,
//   - the detection rate of the 3% slowdown (power), with its interval,
//   - the median width of the A/A interval of B/A, and the A/A bias (geometric mean of the A/A
//     ratios, minus 1),
//   - the mean wall-clock time of one comparison,
// and for duet cells the CPU and start-order effects the balanced design estimated. The budget
// is the same for every schedule: 10 instances a side one after the other, or 16 concurrent
// pairs, each instance 2 burn-in + 15 iterations of about 2.5 ms. Repetitions are the outer
// loop, so slow drifts of the machine reach every cell alike. Prints; asserts nothing.
//   noise_bench SPIN_BENCH NOISE_SOURCE [REPETITIONS] [NOISES] [SCHEDULES]
// NOISES and SCHEDULES are comma-separated; defaults: every noise, every schedule.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/duet.hpp"
#include "schedule/runner.hpp"
#include "stats/descriptive.hpp"
#include "stats/null_calibration.hpp"
#include "store/store.hpp"

namespace bg = benchguard;
namespace fs = std::filesystem;

namespace {

constexpr const char* kWorkA = "2000";  // thousands of steps: about 2.5 ms per iteration
constexpr const char* kWorkB = "2060";  // 3% more
constexpr int kIterations = 15;
constexpr int kBurnIn = 2;
constexpr int kInstances = 10;  // per side, for the schedules that run one instance at a time
constexpr int kPairs = 16;      // duet and sync-duet: two at a time

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream s(list);
  for (std::string item; std::getline(s, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

bool concurrent(const std::string& schedule) {
  return schedule == "duet" || schedule == "sync-duet";
}

pid_t start_noise(const std::string& source, const std::string& kind, unsigned seed) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string s = std::to_string(seed);
    execl(source.c_str(), source.c_str(), kind.c_str(), s.c_str(), nullptr);
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it take hold
  return pid;
}

void stop_noise(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

struct Outcome {
  double wall_s = 0;
  double ratio = NAN, lo = NAN, hi = NAN;
  bg::stats::Verdict verdict = bg::stats::Verdict::kInconclusive;
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
  b.instances = concurrent(schedule) ? kPairs : kInstances;
  b.iterations = kIterations;
  b.burn_in = kBurnIn;
  b.variants = {bg::VariantSpec{"A", {spin, "--work", kWorkA}, "", {}, {}},
                bg::VariantSpec{"B", {spin, "--work", work_b}, "", {}, {}}};
  suite.benchmarks.push_back(b);

  const std::string db = (dir / (schedule + std::to_string(rep) + work_b + ".db")).string();
  auto store = bg::store::open_store(db);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    std::exit(2);
  }
  bg::schedule::RunOptions options;
  options.seed = static_cast<uint64_t>(rep);
  options.counters = false;
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
  (*store).reset();
  std::error_code ec;
  fs::remove(db, ec);

  bg::analysis::CompareOptions co;
  co.burn_in.mode = bg::analysis::BurnInPolicy::Mode::kConfigured;
  co.metrics = {"wall_time"};
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
  o.verdict = row.result.verdict;
  if (row.duet) {
    const auto balance =
        bg::analysis::duet_balance(run->variants[0], run->variants[1], "wall_time", co.burn_in);
    o.cpu_effect = balance.cpu.factor;
    o.start_effect = balance.start.factor;
  }
  return o;
}

struct Cell {
  int comparisons = 0;
  int alarms = 0;    // A/A slower or faster
  int detected = 0;  // A/B slower
  std::vector<double> widths, log_ratios, cpu, start;
  double wall = 0;
};

double mean_pct(const std::vector<double>& factors) {
  double sum = 0;
  for (const double f : factors) sum += std::log(f);
  return factors.empty() ? NAN : 100 * (std::exp(sum / static_cast<double>(factors.size())) - 1);
}

std::string rate(int k, int n) {
  const auto ci =
      bg::stats::binomial_interval(static_cast<std::size_t>(k), static_cast<std::size_t>(n), 0.95);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%2d/%-2d %3.0f%% [%2.0f-%3.0f]", k, n,
                n > 0 ? 100.0 * k / n : NAN, 100 * ci.lower, 100 * ci.upper);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: noise_bench SPIN_BENCH NOISE_SOURCE [REPETITIONS] [NOISES] [SCHEDULES]\n");
    return 2;
  }
  const std::string spin = argv[1];
  const std::string source = argv[2];
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  const auto noises = split(argc > 4 ? argv[4] : "none,cpu-one,cpu-all-onoff,membw,burst");
  const auto schedules =
      split(argc > 5 ? argv[5] : "sequential,alternate,randomized,duet,sync-duet");
  const fs::path dir = fs::temp_directory_path() / ("bg-noise-bench-" + std::to_string(getpid()));
  fs::create_directories(dir);

  std::printf(
      "%d repetitions; %d instances a side (sequential, alternate, randomized) or %d "
      "concurrent pairs (duet, sync-duet); %d burn-in + %d iterations of ~2.5 ms; A/B: B does "
      "3%% more work\n",
      reps, kInstances, kPairs, kBurnIn, kIterations);
  std::map<std::pair<std::string, std::string>, Cell> cells;
  const auto start = std::chrono::steady_clock::now();
  for (int rep = 0; rep < reps; ++rep) {
    for (const auto& noise : noises) {
      const pid_t pid = start_noise(source, noise, 1000U + static_cast<unsigned>(rep));
      for (const auto& schedule : schedules) {
        Cell& cell = cells[{noise, schedule}];
        const Outcome aa = measure(spin, schedule, kWorkA, dir, rep);
        const Outcome ab = measure(spin, schedule, kWorkB, dir, rep);
        ++cell.comparisons;
        cell.alarms +=
            aa.verdict == bg::stats::Verdict::kSlower || aa.verdict == bg::stats::Verdict::kFaster;
        cell.detected += ab.verdict == bg::stats::Verdict::kSlower;
        if (std::isfinite(aa.hi - aa.lo)) cell.widths.push_back(aa.hi - aa.lo);
        if (aa.ratio > 0) cell.log_ratios.push_back(std::log(aa.ratio));
        for (const Outcome* o : {&aa, &ab}) {
          if (std::isfinite(o->cpu_effect)) cell.cpu.push_back(o->cpu_effect);
          if (std::isfinite(o->start_effect)) cell.start.push_back(o->start_effect);
        }
        cell.wall += (aa.wall_s + ab.wall_s) / 2;
      }
      stop_noise(pid);
    }
    std::fprintf(stderr, "repetition %d/%d done, %.0f s\n", rep + 1, reps,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::error_code ec;
  fs::remove_all(dir, ec);

  std::printf("\n%-14s %-11s %-24s %-24s %9s %9s %7s\n", "noise", "schedule",
              "A/A false alarms [95%]", "3% detected [95%]", "A/A width", "A/A bias", "wall s");
  for (const auto& noise : noises)
    for (const auto& schedule : schedules) {
      const Cell& c = cells[{noise, schedule}];
      double mean_log = 0;
      for (const double l : c.log_ratios) mean_log += l / static_cast<double>(c.log_ratios.size());
      std::printf("%-14s %-11s %-24s %-24s %8.2f%% %+8.2f%% %7.2f\n", noise.c_str(),
                  schedule.c_str(), rate(c.alarms, c.comparisons).c_str(),
                  rate(c.detected, c.comparisons).c_str(), 100 * bg::stats::median(c.widths),
                  100 * (std::exp(mean_log) - 1), c.wall / std::max(1, c.comparisons));
    }
  bool any_duet = false;
  for (const auto& [key, c] : cells) any_duet = any_duet || !c.cpu.empty();
  if (any_duet) {
    std::printf(
        "\nduet balance (geometric mean over the concurrent runs): the side on the "
        "second CPU set, the side started second\n");
    for (const auto& [key, c] : cells)
      if (!c.cpu.empty())
        std::printf("%-14s %-11s %+6.2f%% %+6.2f%%\n", key.first.c_str(), key.second.c_str(),
                    mean_pct(c.cpu), mean_pct(c.start));
  }
  std::printf(
      "\n(A/A width: median width of the 95%% interval of B/A; targets under noise: A/A false "
      "alarms <= 5%%, 3%% detected >= 90%%)\n");
  return 0;
}
