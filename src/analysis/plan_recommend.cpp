// Choosing a configuration from a simulated MDS grid, and the plan file it becomes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "analysis/plan.hpp"
#include "core/units.hpp"

namespace benchguard::analysis {

namespace {

Recommendation from(const stats::ConfigResult& c, std::size_t burn_in, double mean,
                    const PlanOptions& o) {
  const auto& r = c[o.decision];
  Recommendation rec;
  rec.found = true;
  rec.config = c.config;
  rec.mds = r.mds;
  rec.false_positive_rate = r.false_positive_rate;
  rec.detection_at_target = stats::detection_rate(r, o.target);
  rec.detection_lower = stats::detection_lower_bound(r, o.target);
  rec.experiments = r.upper.size();
  rec.fresh_draws = c.fresh_draws;
  rec.meets_target = rec.detection_lower >= o.power;
  rec.seconds = expected_seconds(c.config, burn_in, mean);
  return rec;
}

// Lexicographic: the first key decides, the next ones break ties.
bool better(const Recommendation& a, const Recommendation& b, bool by_mds) {
  const auto key = [by_mds](const Recommendation& r) {
    return std::make_tuple(by_mds ? r.mds : r.seconds, by_mds ? r.seconds : r.mds,
                           r.config.instances, r.config.iterations);
  };
  return key(a) < key(b);
}

}  // namespace

double fpr_limit(const PlanOptions& o) {
  const double experiments = std::max(1, o.mds.experiments);
  return o.alpha + o.fpr_allowance_se * std::sqrt(o.alpha * (1.0 - o.alpha) / experiments);
}

double expected_seconds(const stats::Configuration& config, std::size_t burn_in, double mean) {
  return static_cast<double>(config.instances) * static_cast<double>(burn_in + config.iterations) *
         mean;
}

Recommendation recommend(std::span<const stats::ConfigResult> grid, std::size_t burn_in,
                         double mean, const PlanOptions& o) {
  // Candidates: simulated, of the chosen selection, false-positive rate within the limit.
  const double limit = fpr_limit(o) + 1e-12;
  std::vector<Recommendation> candidates;
  double cheapest = std::numeric_limits<double>::infinity();
  for (const auto& c : grid) {
    if (!c.feasible || c.config.selection != o.selection) continue;
    const Recommendation r = from(c, burn_in, mean, o);
    cheapest = std::min(cheapest, r.seconds);
    if (r.false_positive_rate <= limit) candidates.push_back(r);
  }
  Recommendation none;
  if (candidates.empty()) {
    none.note =
        fmt::format("no configuration keeps the false-positive rate at or below {:g}", o.alpha);
    return none;
  }
  const Recommendation* best = nullptr;
  if (o.budget_s) {
    for (const auto& r : candidates)
      if (r.seconds <= *o.budget_s && (best == nullptr || better(r, *best, true))) best = &r;
    if (best == nullptr) {
      none.note = fmt::format("no configuration fits in the budget of {}: the cheapest takes {}",
                              format_duration(*o.budget_s), format_duration(cheapest));
      return none;
    }
    return *best;
  }
  for (const auto& r : candidates)
    if (r.meets_target && (best == nullptr || better(r, *best, false))) best = &r;
  if (best != nullptr) return *best;
  // Out of reach: the most sensitive configuration, and say so.
  for (const auto& r : candidates)
    if (best == nullptr || better(r, *best, true)) best = &r;
  Recommendation out = *best;
  out.note = fmt::format(
      "no configuration detects a slowdown of {:g} with power {:g} (at the {:g} lower bound of "
      "its detection rate); the most sensitive ({} x {}) detects {:.3f}: measure more instances, "
      "or accept it",
      o.target, o.power, o.mds.bound_confidence, out.config.instances, out.config.iterations,
      out.mds);
  return out;
}

Plan to_plan(std::span<const BenchmarkPlan> plans) {
  Plan plan;
  for (const auto& p : plans) {
    PlanEntry e;
    // Without enough data the detected burn-in is no better than the suite's own: keep that.
    if (p.viable) e.burn_in = static_cast<int>(p.burn_in);
    if (std::isfinite(p.mean)) e.mean = p.mean;
    if (std::isfinite(p.cv)) e.cv = p.cv;
    const Recommendation& r = p.recommendation;
    if (r.found) {
      e.instances = static_cast<int>(r.config.instances);
      e.iterations = static_cast<int>(r.config.iterations);
      e.mds = r.mds;
      e.fpr = r.false_positive_rate;
      e.reaches_target = r.meets_target;
    }
    plan.benchmarks.emplace(p.benchmark, e);
  }
  return plan;
}

}  // namespace benchguard::analysis
