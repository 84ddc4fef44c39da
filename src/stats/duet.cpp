#include "stats/duet.hpp"

#include <algorithm>
#include <limits>

#include "stats/descriptive.hpp"
#include "stats/resample.hpp"

namespace benchguard::stats {

std::vector<std::pair<std::size_t, std::size_t>> pair_overlapping(std::span<const TimeSpan> a,
                                                                  std::span<const TimeSpan> b,
                                                                  double min_overlap) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t shared =
        std::min(a[i].end_ns, b[j].end_ns) - std::max(a[i].start_ns, b[j].start_ns);
    const auto covers = [&](const TimeSpan& s) {
      return static_cast<double>(shared) >=
             min_overlap * static_cast<double>(s.end_ns - s.start_ns);
    };
    if (shared > 0 && covers(a[i]) && covers(b[j])) {
      pairs.emplace_back(i++, j++);
    } else if (a[i].end_ns <= b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

namespace {

double run_ratio(const DuetRun& run) {
  double sum = 0.0;
  for (std::size_t k = 0; k < run.a.size(); ++k)
    sum += run.a[k] == 0.0 ? std::numeric_limits<double>::infinity() : run.b[k] / run.a[k];
  return sum / static_cast<double>(run.a.size());
}

}  // namespace

Hierarchical duet_side(std::span<const DuetRun> runs, bool b_side) {
  Hierarchical h;
  for (const auto& run : runs)
    if (!run.a.empty()) h.add_instance(b_side ? run.b : run.a);
  return h;
}

RatioSample duet_ratio_sample(std::span<const DuetRun> runs, int resamples, uint64_t seed) {
  Hierarchical ratios;
  for (const auto& run : runs) {
    if (run.a.empty()) continue;
    const double r = run_ratio(run);
    ratios.add_instance(std::span<const double>(&r, 1));
  }
  RatioSample s;
  if (ratios.empty()) return s;
  s.ratio = mean(ratios.values());
  s.a = variance_term(ratios);
  s.b = VarianceTerm{0.0, 0.0, ratios.instances()};
  // One value per run: the two-level bootstrap reduces to resampling runs.
  s.replicates = hierarchical_replicates(ratios, Statistic::kMean, resamples, seed);
  return s;
}

}  // namespace benchguard::stats
