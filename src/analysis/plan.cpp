#include "analysis/plan.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/samples.hpp"
#include "core/iterations.hpp"
#include "stats/descriptive.hpp"
#include "stats/outliers.hpp"
#include "stats/rng.hpp"

namespace benchguard::analysis {

namespace {

// FNV-1a: a benchmark's seed follows from its name, not from its position in the run.
uint64_t name_hash(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::size_t failed_iterations(const VariantData& v) {
  std::size_t n = 0;
  for (const auto& inst : v.instances) {
    if (!inst.ok()) continue;
    const IterationsView its(inst);
    for (std::size_t k = 0; k < its.size(); ++k)
      if (!its.burn_in(k) && (its.timed_out(k) || its.failed(k))) ++n;
  }
  return n;
}

struct Cleaned {
  Cleaning cleaning;
  stats::Hierarchical data;
  bool positive = true;  // every value finite and > 0: what a ratio of times needs
  std::vector<std::string> warnings;
};

// Hail's notebook, automated: steady-state burn-in and failed iterations (analysis::extract),
// then the iterations beyond the median-ratio factor of their instance.
Cleaned clean(const VariantData& v, const PlanOptions& o) {
  Cleaned out;
  const MetricSample s = extract(v, o.metric, BurnInPolicy{});
  Cleaning& c = out.cleaning;
  c.instances_ok = s.instances_ok;
  c.instances_failed = s.instances_failed;
  c.iterations_failed = failed_iterations(v);
  if (s.instances_ok > 0)
    c.configured_burn_in = (s.configured_burn_in + static_cast<std::size_t>(s.instances_ok) - 1) /
                           static_cast<std::size_t>(s.instances_ok);
  c.detected_burn_in = s.detected_burn_in;
  if (s.steady) c.steady = s.steady->summary;
  out.warnings = s.warnings;

  stats::OutlierOptions rule;
  rule.ratio_threshold = o.outlier_ratio;
  std::vector<double> kept;
  for (std::size_t i = 0; i < s.data.instances(); ++i) {
    const auto values = s.data.instance(i);
    const auto flags = stats::flag_outliers(values, rule);
    kept.clear();
    for (std::size_t j = 0; j < values.size(); ++j) {
      if ((flags.rules[j] & stats::kOutlierRatio) != 0) {
        ++c.outliers;
        continue;
      }
      out.positive = out.positive && std::isfinite(values[j]) && values[j] > 0;
      kept.push_back(values[j]);
    }
    out.data.add_instance(kept);
  }
  c.instances = out.data.instances();
  for (std::size_t i = 0; i < out.data.instances(); ++i) {
    const std::size_t m = out.data.instance(i).size();
    c.min_iterations = i == 0 ? m : std::min(c.min_iterations, m);
    c.max_iterations = std::max(c.max_iterations, m);
  }
  return out;
}

std::size_t instances_with(const stats::Hierarchical& data, std::size_t iterations) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < data.instances(); ++i)
    if (data.instance(i).size() >= iterations) ++n;
  return n;
}

// Viability for the recommendation's selection, and the numbers the whole grid needs.
void check_viability(BenchmarkPlan& p, const stats::Hierarchical& data,
                     const stats::MdsOptions& mds, stats::Selection selection) {
  const bool trial = selection == stats::Selection::kTrial;
  const auto [n0, n1] = std::minmax_element(mds.instances.begin(), mds.instances.end());
  const auto [m0, m1] = std::minmax_element(mds.iterations.begin(), mds.iterations.end());
  p.need_instances = trial ? *n1 : 2 * *n1;
  p.need_iterations = p.burn_in + (trial ? 2 * *m1 : *m1);
  const std::size_t per_instance = trial ? 2 * *m0 : *m0;
  const std::size_t least = trial ? *n0 : 2 * *n0;
  p.viable = stats::feasible(data, {selection, *n0, *m0});
  if (p.viable) return;
  p.not_viable = fmt::format(
      "not viable: {} instance(s) with at least {} measured iterations after cleaning; "
      "{}-based selection needs at least {} (the whole grid: {} instances of {} iterations, "
      "burn-in included)",
      instances_with(data, per_instance), per_instance, stats::to_string(selection), least,
      p.need_instances, p.need_iterations);
}

BenchmarkPlan plan_one(const VariantData& v, std::vector<std::string> variants,
                       const PlanOptions& o) {
  BenchmarkPlan p;
  p.benchmark = v.variant.benchmark;
  p.metric = metric_info(v, o.metric);
  p.variants = std::move(variants);
  Cleaned cleaned = clean(v, o);
  p.cleaning = cleaned.cleaning;
  p.warnings = std::move(cleaned.warnings);
  p.burn_in = p.cleaning.configured_burn_in + p.cleaning.detected_burn_in;
  const auto& data = cleaned.data;
  p.mean = stats::mean(data.values());
  p.cv = stats::cv(data.values());

  stats::MdsOptions mds = o.mds;
  mds.power = o.power;
  mds.target = o.target;
  mds.family = std::max<std::size_t>(o.family, 1);
  // The bootstrap decisions only when the recommendation rests on one: they cost most.
  mds.bootstrap_decisions = o.decision != stats::Decision::kCompare;
  mds.seed = stats::derive_seed(o.mds.seed, name_hash(p.benchmark));
  // Timed from outside: one iteration per instance, and only instances to choose.
  if (p.cleaning.max_iterations == 1) mds.iterations = {1};
  if (data.empty()) {
    p.not_viable = "not viable: no measured " + o.metric + " values";
    return p;
  }
  if (!cleaned.positive) {
    p.not_viable =
        "not viable: " + o.metric + " has values <= 0; slowdowns are ratios of positive values";
    return p;
  }
  check_viability(p, data, mds, o.selection);
  if (!p.viable) return p;

  p.grid = stats::simulate_mds(data, mds);
  const auto uncovered = std::count_if(p.grid.begin(), p.grid.end(), [&](const auto& c) {
    return c.config.selection == o.selection && !c.feasible;
  });
  if (uncovered > 0)
    p.warnings.push_back(fmt::format(
        "{} of {} {}-based configurations could not be simulated: the whole grid needs {} "
        "instances of {} iterations",
        uncovered, mds.instances.size() * mds.iterations.size(), stats::to_string(o.selection),
        p.need_instances, p.need_iterations));
  p.recommendation = recommend(p.grid, p.burn_in, p.mean, o);
  if (!p.recommendation.note.empty()) p.warnings.push_back(p.recommendation.note);
  if (p.recommendation.found && p.recommendation.fresh_draws)
    p.warnings.push_back(fmt::format(
        "{} instance(s) with enough iterations are fewer than twice the {} an experiment of {} x "
        "{} needs: its experiments drew instances with replacement",
        instances_with(data, o.selection == stats::Selection::kTrial
                                 ? 2 * p.recommendation.config.iterations
                                 : p.recommendation.config.iterations),
        (o.selection == stats::Selection::kTrial ? 1 : 2) * p.recommendation.config.instances,
        p.recommendation.config.instances, p.recommendation.config.iterations));
  return p;
}

}  // namespace

std::vector<BenchmarkPlan> plan_benchmarks(std::span<const VariantData* const> variants,
                                           const PlanOptions& options) {
  // Group by benchmark, in order of appearance.
  std::vector<std::vector<const VariantData*>> groups;
  std::map<std::string, std::size_t> index;
  for (const VariantData* v : variants) {
    const auto [it, added] = index.emplace(v->variant.benchmark, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(v);
  }
  std::vector<BenchmarkPlan> plans(groups.size());
  PlanOptions own = options;
  if (own.family == 0) own.family = std::max<std::size_t>(groups.size(), 1);
  tbb::parallel_for(std::size_t{0}, groups.size(), [&](std::size_t g) {
    const auto& group = groups[g];
    std::vector<std::string> names;
    for (const auto* v : group) names.push_back(v->variant.name);
    if (group.size() == 1) {
      plans[g] = plan_one(*group.front(), std::move(names), own);
      return;
    }
    VariantData pooled;
    pooled.variant = group.front()->variant;
    for (const auto* v : group)
      pooled.instances.insert(pooled.instances.end(), v->instances.begin(), v->instances.end());
    plans[g] = plan_one(pooled, std::move(names), own);
  });
  return plans;
}

}  // namespace benchguard::analysis
