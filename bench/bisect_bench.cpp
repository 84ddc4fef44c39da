// Bisection by measurement (src/analysis/bisect.hpp) on simulated histories: does the search
// find the commit of a step, how many candidates and instances it measures, and what one
// classification costs. Then the A/A control: histories without a step, where the search must
// report that the endpoints do not differ. Every history comes from a fixed seed.
//
// Each history has `commits` candidates strictly between good and bad, and a step of `step`
// (relative) at a random commit (possibly the bad endpoint itself). Each candidate is measured
// as `benchguard bisect` does it: good, candidate and bad in the same round, 10 instances x 20
// iterations each (iterations lognormal with 2% log-sd, instances offset lognormally by 3%),
// classified with the trimmed mean at 95%. An inconclusive candidate gets its instances doubled
// (10, 20, 40: the budget), and is then taken as the nearer endpoint by position. At the first
// candidate the endpoints must differ, or the search stops with "nothing to bisect".
// ms/step is the CPU time (all threads) of the classifications of one candidate, every round
// included; the simulated measurements are not counted. Prints figures and asserts nothing.
//   bisect_bench [HISTORIES [COMMITS [STEP [RESAMPLES]]]]   (default 10 64 0.05 10000)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "analysis/bisect.hpp"
#include "stats/rng.hpp"
#include "stats/simulate.hpp"

namespace {

namespace an = benchguard::analysis;
namespace bs = benchguard::stats;

constexpr std::size_t kFirstInstances = 10;
constexpr std::size_t kMaxInstances = 40;
constexpr std::size_t kIterations = 20;
constexpr double kConfidence = 0.95;
constexpr uint64_t kSeed = 20240601;

struct Settings {
  std::size_t histories = 10;
  std::size_t commits = 64;
  double step = 0.05;
  int resamples = 10000;
};

// One history: commit k (0..commits-1) runs at 1 + step when k >= step_at, else at 1; the good
// endpoint (index -1) at 1, the bad endpoint (index commits) at 1 + step. step_at == commits
// puts the step on the bad endpoint. With step 0 every commit runs at 1.
struct History {
  std::size_t step_at = 0;
  double step = 0;
  uint64_t seed = 0;
  double level(std::size_t commit) const { return commit >= step_at ? 1.0 + step : 1.0; }
};

struct StepRecord {
  bool endpoints_differ = false;
  an::StepVerdict decided = an::StepVerdict::kInconclusive;
  bool uncertain = false;      // inconclusive at the budget, taken as the nearer endpoint
  std::size_t instances = 0;   // per side, at the end
  double classify_cpu_ms = 0;  // all classifications of this candidate
  std::size_t classifications = 0;
};

// Appends `count` simulated instances at `level` to `data`; (stream) keeps every round of
// every side of every candidate on its own random numbers.
void measure_more(bs::Hierarchical& data, double level, std::size_t count, uint64_t seed,
                  uint64_t stream) {
  bs::SimulationOptions o;
  o.instances = count;
  o.iterations = kIterations;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  o.slowdown = level;
  const auto fresh = bs::simulate(o, seed, stream);
  for (std::size_t i = 0; i < fresh.instances(); ++i) data.add_instance(fresh.instance(i));
}

// Measures candidate `commit` (the `order`-th of the search) against both endpoints until it
// is good or bad or the budget is spent.
StepRecord measure_step(const History& h, std::size_t commits, std::size_t commit,
                        std::size_t order, int resamples) {
  StepRecord r;
  bs::Hierarchical good, candidate, bad;
  std::size_t want = kFirstInstances;
  an::StepResult result;
  for (uint64_t round = 0;; ++round) {
    const std::size_t add = want - good.instances();
    const uint64_t base = (order * 64 + round) * 4;
    measure_more(good, 1.0, add, h.seed, base);
    measure_more(candidate, h.level(commit), add, h.seed, base + 1);
    measure_more(bad, h.level(commits), add, h.seed, base + 2);
    const std::clock_t c0 = std::clock();
    result = an::classify_step(good, candidate, bad, bs::Statistic::kTrimmedMean, kConfidence,
                               resamples, bs::derive_seed(h.seed, base + 3));
    r.classify_cpu_ms += 1e3 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    ++r.classifications;
    r.instances = good.instances();
    if (result.verdict != an::StepVerdict::kInconclusive || want >= kMaxInstances) break;
    want = std::min(kMaxInstances, 2 * want);
  }
  r.endpoints_differ = result.endpoints_differ;
  r.decided = result.verdict;
  if (r.decided == an::StepVerdict::kInconclusive) {
    r.uncertain = true;
    r.decided = result.position > 0.5 ? an::StepVerdict::kBad : an::StepVerdict::kGood;
  }
  return r;
}

struct Outcome {
  bool nothing_to_bisect = false;  // the endpoints did not differ at the first candidate
  std::size_t found = 0;
  std::size_t steps = 0;
  std::size_t instances = 0;  // over all sides and candidates
  std::size_t uncertain = 0;
  double classify_cpu_ms = 0;
  std::size_t classifications = 0;
};

Outcome bisect(const History& h, std::size_t commits, int resamples) {
  Outcome out;
  an::BisectSearch search(commits);
  while (const auto next = search.next()) {
    const StepRecord s = measure_step(h, commits, *next, out.steps, resamples);
    ++out.steps;
    out.instances += 3 * s.instances;
    out.classify_cpu_ms += s.classify_cpu_ms;
    out.classifications += s.classifications;
    out.uncertain += s.uncertain;
    if (out.steps == 1 && !s.endpoints_differ) {
      out.nothing_to_bisect = true;
      return out;
    }
    search.mark(*next, s.decided);
  }
  out.found = search.first_bad();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Settings st;
  if (argc > 1) st.histories = static_cast<std::size_t>(std::atoll(argv[1]));
  if (argc > 2) st.commits = static_cast<std::size_t>(std::atoll(argv[2]));
  if (argc > 3) st.step = std::atof(argv[3]);
  if (argc > 4) st.resamples = std::atoi(argv[4]);
  if (st.commits == 0 || st.resamples <= 0 || !(st.step > -1.0)) {
    std::fprintf(stderr, "usage: bisect_bench [HISTORIES [COMMITS [STEP [RESAMPLES]]]]\n");
    return 2;
  }

  std::printf(
      "bisect: %zu histories of %zu commits, a %.1f%% step at a random commit; %zu..%zu "
      "instances x %zu iterations a side, trimmed mean, %.0f%%, %d resamples "
      "(at most %zu candidates expected)\n",
      st.histories, st.commits, 100 * st.step, kFirstInstances, kMaxInstances, kIterations,
      100 * kConfidence, st.resamples, an::expected_steps(st.commits));
  std::printf("%7s %6s %6s %6s %6s %10s %9s %9s\n", "history", "step", "found", "exact", "steps",
              "instances", "uncertain", "ms/step");
  std::size_t exact = 0, stopped = 0, total_steps = 0, total_instances = 0;
  double total_ms = 0;
  std::size_t total_classifications = 0;
  for (std::size_t k = 0; k < st.histories; ++k) {
    History h;
    h.seed = bs::derive_seed(kSeed, k);
    h.step = st.step;
    // Not h.seed itself: its streams are the measurements.
    bs::Rng rng(bs::derive_seed(h.seed, 0xB15EC7), 0);
    h.step_at = rng.below(static_cast<uint32_t>(st.commits + 1));
    const Outcome o = bisect(h, st.commits, st.resamples);
    total_steps += o.steps;
    total_instances += o.instances;
    total_ms += o.classify_cpu_ms;
    total_classifications += o.classifications;
    const double per = o.steps ? o.classify_cpu_ms / static_cast<double>(o.steps) : 0.0;
    if (o.nothing_to_bisect) {
      ++stopped;
      std::printf("%7zu %6zu %6s %6s %6zu %10zu %9zu %9.1f\n", k, h.step_at, "-", "stop", o.steps,
                  o.instances, o.uncertain, per);
      continue;
    }
    const bool hit = o.found == h.step_at;
    exact += hit;
    std::printf("%7zu %6zu %6zu %6s %6zu %10zu %9zu %9.1f\n", k, h.step_at, o.found,
                hit ? "yes" : "no", o.steps, o.instances, o.uncertain, per);
  }
  std::printf(
      "exact %zu of %zu, stopped (endpoints not different) %zu; mean %.1f candidates, %.0f "
      "instances per history; classification cpu %.1f ms per candidate, %.1f ms per call "
      "(%zu calls)\n",
      exact, st.histories, stopped, static_cast<double>(total_steps) / st.histories,
      static_cast<double>(total_instances) / st.histories,
      total_ms / static_cast<double>(total_steps),
      total_ms / static_cast<double>(total_classifications), total_classifications);

  // A/A: the same histories with no step. The search must stop at the first candidate.
  std::size_t no_differ = 0, aa_steps = 0;
  for (std::size_t k = 0; k < st.histories; ++k) {
    History h;
    h.seed = bs::derive_seed(bs::derive_seed(kSeed, 1000003), k);
    h.step = 0;
    h.step_at = st.commits + 1;  // beyond the bad endpoint: every commit at 1
    const Outcome o = bisect(h, st.commits, st.resamples);
    no_differ += o.nothing_to_bisect;
    aa_steps += o.steps;
  }
  std::printf(
      "A/A control (no step): endpoints reported not to differ in %zu of %zu histories "
      "(%.1f candidates measured on average)\n",
      no_differ, st.histories, static_cast<double>(aa_steps) / st.histories);
  return 0;
}
