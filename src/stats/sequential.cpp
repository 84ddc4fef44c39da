#include "stats/sequential.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdio>
#include <limits>

#include "stats/bootstrap.hpp"

namespace benchguard::stats {
namespace {

constexpr double kLargestBound = 8.2;  // 2 (1 - Phi(8.2)) = 2.4e-16: nothing to spend
constexpr double kInvSqrt2Pi = 0.3989422804014327;

double norm_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}
double norm_pdf(double x) {
  return kInvSqrt2Pi * std::exp(-0.5 * x * x);
}
double z_upper(double tail) {  // z with 1 - Phi(z) = tail
  return boost::math::quantile(boost::math::complement(boost::math::normal(), tail));
}

// A density of the unstandardized statistic S(t) = sqrt(t) Z(t) on the continuation region
// [-b, b], sampled on an odd number of equally spaced points for Simpson's rule.
struct Grid {
  std::vector<double> s, weight, density;  // weight: Simpson weight x spacing
};

Grid make_grid(double b, std::size_t points) {
  Grid g;
  points |= 1U;  // odd
  g.s.resize(points);
  g.weight.resize(points);
  const double h = 2.0 * b / static_cast<double>(points - 1);
  for (std::size_t j = 0; j < points; ++j) {
    g.s[j] = -b + h * static_cast<double>(j);
    const double simpson = (j == 0 || j + 1 == points) ? 1.0 : (j % 2 == 1 ? 4.0 : 2.0);
    g.weight[j] = simpson * h / 3.0;
  }
  g.density.assign(points, 0.0);
  return g;
}

// Points enough for the kernel of sd sqrt(step) to be resolved (10 per sd), 201 at least.
std::size_t points_for(double b, double step) {
  const double per_sd = 10.0;
  const double n = 2.0 * b / (std::sqrt(step) / per_sd);
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(n)), 201, 4001);
}

// Probability of leaving through |S(t)| >= c sqrt(t) at this look from the density on `g`
// after a further step of variance `step`.
double exit_probability(const Grid& g, double step, double edge) {
  const double sd = std::sqrt(step);
  double p = 0.0;
  for (std::size_t j = 0; j < g.s.size(); ++j) {
    const double out = norm_cdf((-edge - g.s[j]) / sd) + norm_cdf((-edge + g.s[j]) / sd);
    p += g.weight[j] * g.density[j] * out;
  }
  return p;
}

}  // namespace

std::string check(const SequentialPlan& plan) {
  if (plan.min_instances < 2)
    return "a sequential plan needs at least 2 instances a side at the first look";
  if (plan.round < 1) return "a sequential round needs at least 1 instance a side";
  if (plan.max_instances < plan.min_instances)
    return "--max-instances (" + std::to_string(plan.max_instances) +
           ") must be at least the first look's " + std::to_string(plan.min_instances);
  if (!(plan.confidence > 0.0 && plan.confidence < 1.0)) return "confidence must be in (0, 1)";
  const std::size_t looks =
      (plan.max_instances - plan.min_instances + plan.round - 1) / plan.round + 1;
  if (looks > kMaxLooks)
    return std::to_string(looks) + " looks: at most " + std::to_string(kMaxLooks) +
           "; take a larger round";
  return "";
}

std::vector<std::size_t> look_sizes(const SequentialPlan& plan) {
  std::vector<std::size_t> sizes;
  if (!check(plan).empty()) return sizes;
  for (std::size_t n = plan.min_instances; n < plan.max_instances; n += plan.round)
    sizes.push_back(n);
  sizes.push_back(plan.max_instances);
  return sizes;
}

double obrien_fleming_spent(double t, double alpha) {
  if (!(t > 0.0)) return 0.0;
  if (t >= 1.0) return alpha;
  return 4.0 * (1.0 - norm_cdf(z_upper(alpha / 4.0) / std::sqrt(t)));
}

double pocock_spent(double t, double alpha) {
  if (!(t > 0.0)) return 0.0;
  if (t >= 1.0) return alpha;
  return alpha * std::log(1.0 + (std::exp(1.0) - 1.0) * t);
}

double spent(Spending spending, double t, double alpha) {
  return spending == Spending::kPocock ? pocock_spent(t, alpha) : obrien_fleming_spent(t, alpha);
}

const char* to_string(Spending spending) {
  return spending == Spending::kPocock ? "pocock" : "obrien-fleming";
}

std::vector<double> spending_bounds(std::span<const double> fractions, double alpha,
                                    Spending spending) {
  std::vector<double> bounds;
  Grid grid;
  double previous_t = 0.0, used = 0.0;
  for (const double t : fractions) {
    const double target = std::max(0.0, stats::spent(spending, t, alpha) - used);
    used = stats::spent(spending, t, alpha);
    double c = kLargestBound;
    if (bounds.empty()) {
      // The first look: Z(t_1) is standard normal.
      if (target > 2.0 * (1.0 - norm_cdf(kLargestBound))) c = z_upper(target / 2.0);
      const double b = c * std::sqrt(t);
      grid = make_grid(b, points_for(b, t));
      for (std::size_t j = 0; j < grid.s.size(); ++j)
        grid.density[j] = norm_pdf(grid.s[j] / std::sqrt(t)) / std::sqrt(t);
    } else {
      const double step = t - previous_t;
      const double root_t = std::sqrt(t);
      if (target > exit_probability(grid, step, kLargestBound * root_t)) {
        double lo = 0.0, hi = kLargestBound;
        for (int it = 0; it < 60; ++it) {
          const double mid = 0.5 * (lo + hi);
          (exit_probability(grid, step, mid * root_t) > target ? lo : hi) = mid;
        }
        c = 0.5 * (lo + hi);
      }
      // Carry the density on to the new continuation region.
      const double b = c * root_t;
      Grid next = make_grid(b, points_for(b, step));
      const double sd = std::sqrt(step);
      for (std::size_t i = 0; i < next.s.size(); ++i) {
        double f = 0.0;
        for (std::size_t j = 0; j < grid.s.size(); ++j)
          f += grid.weight[j] * grid.density[j] * norm_pdf((next.s[i] - grid.s[j]) / sd);
        next.density[i] = f / sd;
      }
      grid = std::move(next);
    }
    bounds.push_back(c);
    previous_t = t;
  }
  return bounds;
}

const char* to_string(SequentialDecision decision) {
  switch (decision) {
    case SequentialDecision::kContinue:
      return "continue";
    case SequentialDecision::kSlower:
      return "slower";
    case SequentialDecision::kFaster:
      return "faster";
    case SequentialDecision::kEquivalent:
      return "equivalent";
    case SequentialDecision::kInconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

SequentialDesign make_design(const SequentialPlan& plan) {
  SequentialDesign d;
  d.plan = plan;
  d.sizes = look_sizes(plan);
  std::vector<double> fractions;
  for (const auto n : d.sizes)
    fractions.push_back(static_cast<double>(n) / static_cast<double>(plan.max_instances));
  for (const double c : spending_bounds(fractions, 1.0 - plan.confidence, plan.spending))
    d.levels.push_back(std::min(1.0 - 1e-15, 1.0 - std::erfc(c / std::sqrt(2.0))));
  return d;
}

Look sequential_look(const Hierarchical& a, const Hierarchical& b, const SequentialDesign& design,
                     std::size_t look, const VerdictOptions& options, bool last) {
  Look l;
  l.look = look;
  l.instances_a = a.instances();
  l.instances_b = b.instances();
  const auto& levels = design.levels;
  if (levels.empty() || look == 0) {
    l.decision = SequentialDecision::kInconclusive;
    l.reason = levels.empty() ? check(design.plan) : "no look 0";
    return l;
  }
  const std::size_t k = std::min(look, levels.size()) - 1;
  last = last || look >= levels.size();
  l.level = levels[k];
  const double va = statistic_of(a, options.statistic);
  const double vb = statistic_of(b, options.statistic);
  l.ratio = vb / va;
  const VarianceTerm terms[] = {relative_variance_term(a, options.statistic),
                                relative_variance_term(b, options.statistic)};
  const bool usable = a.instances() >= kMinInstancesForVerdict &&
                      b.instances() >= kMinInstancesForVerdict && std::isfinite(l.ratio) &&
                      l.ratio > 0.0;
  if (usable) {
    // Conservative degrees of freedom (see the header): Satterthwaite's are estimated from the
    // same few instances and run high exactly when one side's variance is underestimated.
    l.dof = static_cast<double>(std::min(a.instances(), b.instances()) - 1);
    const double variance = t_variance(terms);
    const auto ci = t_interval(std::log(l.ratio), variance, l.dof, l.level);
    l.ci = {std::exp(ci.lower), std::exp(ci.upper)};
    l.p_fixed = t_p_value(std::log(l.ratio), variance, l.dof);
  } else {
    l.ci = {std::nan(""), std::nan("")};
  }
  switch (usable ? classify(l.ratio, l.ci, options.threshold, options.direction)
                 : Verdict::kInconclusive) {
    case Verdict::kSlower:
      l.decision = SequentialDecision::kSlower;
      break;
    case Verdict::kFaster:
      l.decision = SequentialDecision::kFaster;
      break;
    case Verdict::kUnchanged:
      l.decision = SequentialDecision::kEquivalent;
      break;
    case Verdict::kInconclusive:
      l.decision = last ? SequentialDecision::kInconclusive : SequentialDecision::kContinue;
      break;
  }
  char buf[256];
  const double t = options.threshold;
  if (!usable) {
    std::snprintf(buf, sizeof buf, "%zu and %zu instances: no interval yet", l.instances_a,
                  l.instances_b);
  } else if (l.decision == SequentialDecision::kEquivalent) {
    std::snprintf(buf, sizeof buf, "interval [%.4f, %.4f] inside %.4f..%.4f", l.ci.lower,
                  l.ci.upper, 1.0 - t, 1.0 + t);
  } else if (l.decision == SequentialDecision::kSlower ||
             l.decision == SequentialDecision::kFaster) {
    std::snprintf(buf, sizeof buf, "interval [%.4f, %.4f] excludes 1, ratio %.4f beyond 1 %c %.4f",
                  l.ci.lower, l.ci.upper, l.ratio, l.ratio > 1.0 ? '+' : '-', t);
  } else {
    std::snprintf(buf, sizeof buf,
                  "interval [%.4f, %.4f]: a change needs it to exclude 1, equivalence to lie "
                  "inside %.4f..%.4f",
                  l.ci.lower, l.ci.upper, 1.0 - t, 1.0 + t);
  }
  l.reason = buf;
  return l;
}

double repeated_p_value(const SequentialPlan& plan, std::size_t look, double p_fixed) {
  if (std::isnan(p_fixed)) return p_fixed;
  const auto sizes = look_sizes(plan);
  if (sizes.empty() || look == 0) return std::numeric_limits<double>::quiet_NaN();
  if (!(p_fixed > 0.0)) return 0.0;
  std::vector<double> fractions;
  for (std::size_t k = 0; k < std::min(look, sizes.size()); ++k)
    fractions.push_back(static_cast<double>(sizes[k]) / static_cast<double>(plan.max_instances));
  // The nominal two-sided level of the look's interval when the design spends alpha: it only
  // grows with alpha, and never exceeds it.
  const auto nominal = [&](double alpha) {
    const double c = spending_bounds(fractions, alpha, plan.spending).back();
    return std::erfc(c / std::sqrt(2.0));
  };
  if (nominal(1.0) < p_fixed) return 1.0;
  double lo = std::min(p_fixed, 1.0), hi = 1.0;  // nominal(lo) <= p_fixed <= nominal(hi)
  if (nominal(lo) >= p_fixed) return lo;
  while (hi > 1.01 * lo) {
    const double mid = std::sqrt(lo * hi);
    (nominal(mid) >= p_fixed ? hi : lo) = mid;
  }
  return hi;
}

Look replay_sequential(const Hierarchical& a, const Hierarchical& b, const SequentialDesign& design,
                       const VerdictOptions& options) {
  const auto& sizes = design.sizes;
  const std::size_t have = std::min(a.instances(), b.instances());
  Look l;
  l.decision = SequentialDecision::kInconclusive;
  l.reason = sizes.empty() ? check(design.plan) : "fewer instances than the first look";
  for (std::size_t k = 0; k < sizes.size() && sizes[k] <= have; ++k) {
    const bool last = k + 1 == sizes.size() || sizes[k + 1] > have;
    l = sequential_look(first_instances(a, sizes[k]), first_instances(b, sizes[k]), design, k + 1,
                        options, last);
    if (l.decision != SequentialDecision::kContinue) break;
  }
  return l;
}

}  // namespace benchguard::stats
