// Detection over history as `detect` does it (src/analysis/detection.hpp): change points found,
// judged and confirmed by the commits' means, ids and digests, in parallel over series; then one
// commit appended to every series and detected incrementally from the stored result.
// Usage: history_bench [series points]   (default 1000 1000)
// Every series: 3 instances per point, 1% noise, and a 10% step at a seeded point in one
// series of ten.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "analysis/detection.hpp"
#include "stats/rng.hpp"

namespace {

using benchguard::analysis::DetectOptions;
using benchguard::analysis::History;
using benchguard::analysis::HistoryPoint;
using benchguard::analysis::HistorySeries;
using benchguard::analysis::TextPool;

// The points' commits and run ids.
const auto texts = std::make_shared<TextPool>();

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

HistoryPoint point(benchguard::stats::Rng& rng, int commit, double level) {
  HistoryPoint p;
  p.commit = texts->keep("c" + std::to_string(commit));
  p.time = commit;
  p.runs = {commit};
  p.run_uuids = {p.commit};
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    const double v = level * (1 + 0.01 * rng.normal());
    p.data.add_instance(std::span<const double>(&v, 1));
    sum += v;
  }
  p.centre = sum / 3;
  return p;
}

// The planted step of each series (the index of its first slower point); none: npos.
std::vector<std::size_t> planted;

History make(std::size_t series, std::size_t points) {
  History h;
  planted.assign(series, static_cast<std::size_t>(-1));
  for (std::size_t s = 0; s < series; ++s) {
    HistorySeries hs;
    hs.benchmark = "bench" + std::to_string(s);
    hs.machine = "m";
    hs.texts = texts;
    hs.metric = {"wall_time", "s", benchguard::Direction::kLowerIsBetter};
    benchguard::stats::Rng rng(7, s);
    const std::size_t step =
        s % 10 == 0 ? points / 4 + rng.below(static_cast<uint32_t>(points / 2)) : points + 1;
    if (step <= points) planted[s] = step;
    for (std::size_t k = 0; k < points; ++k)
      hs.points.push_back(point(rng, static_cast<int>(k), k >= step ? 1.1 : 1.0));
    h.series.push_back(std::move(hs));
  }
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t series = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
  const std::size_t points = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1000;
  History h = make(series, points + 1);
  // The history before the newest commit.
  History before = h;
  for (auto& s : before.series) s.points.pop_back();

  DetectOptions o;
  auto t0 = std::chrono::steady_clock::now();
  const auto first = benchguard::analysis::detect_history(before, o, {}, {}, 1);
  const double full = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto next = benchguard::analysis::detect_history(h, o, first.states, first.changes, 2);
  const double incremental = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const auto again = benchguard::analysis::detect_history(h, o, {}, {}, 2);
  const double full_again = seconds_since(t0);

  // Accuracy: a planted step found within 2 points; every other change point is false.
  const std::size_t none = static_cast<std::size_t>(-1);
  std::size_t steps = 0, found = 0, found_confirmed = 0, false_any = 0, false_confirmed = 0;
  std::vector<bool> hit(series, false);
  for (std::size_t s = 0; s < series; ++s) steps += planted[s] != none ? 1 : 0;
  for (const auto& c : first.changes) {
    const std::size_t s = std::strtoul(c.benchmark.c_str() + 5, nullptr, 10);
    const bool true_change = planted[s] != none && !hit[s] &&
                             std::llabs(c.index - static_cast<int64_t>(planted[s])) <= 2;
    const bool confirmed = c.status == "confirmed";
    if (true_change) {
      hit[s] = true;
      ++found;
      found_confirmed += confirmed ? 1 : 0;
    } else {
      ++false_any;
      false_confirmed += confirmed ? 1 : 0;
    }
  }
  std::printf(
      "detect: %zu series x %zu points, 3 instances a point, 1%% noise; a 10%% step in "
      "%zu series\n",
      series, points, steps);
  std::printf(
      "  steps found %zu of %zu (%zu confirmed); other change points %zu (%zu "
      "confirmed): %.3f false change points per series, %.3f confirmed\n",
      found, steps, found_confirmed, false_any, false_confirmed,
      static_cast<double>(false_any) / static_cast<double>(series),
      static_cast<double>(false_confirmed) / static_cast<double>(series));
  std::printf("  full detection                %8.3f s   (target < 2 s)\n", full);
  std::printf(
      "  one more commit, incremental  %8.3f s   (target < 0.2 s)  %.3fx the full "
      "detection of %zu points (%.3f s)\n",
      incremental, incremental / full_again, points + 1, full_again);
  bool same = next.changes.size() == again.changes.size();
  for (std::size_t i = 0; same && i < next.changes.size(); ++i)
    same = next.changes[i].id == again.changes[i].id &&
           next.changes[i].index == again.changes[i].index &&
           next.changes[i].p_value == again.changes[i].p_value &&
           next.changes[i].status == again.changes[i].status;
  std::printf("  incremental result equals full: %s (%zu series reused)\n",
              same ? "yes, change by change" : "NO", next.reused);
  if (!same) return 1;
  return 0;
}
