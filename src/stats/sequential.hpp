// Sequential A/B: instances of A and B in rounds, a decision after each round, stopping as
// soon as the answer is known.
//
// Looking after every round and stopping at the first interval that decides would, with fixed
// 95% intervals, call an A/A pair slower or faster far more often than 5% (the more looks, the
// more often). Error control under repeated looking comes from **repeated confidence
// intervals** (Jennison & Turnbull, "Interim analyses: the repeated confidence interval
// approach", JRSS B 51(3), 1989): intervals I_1, I_2, ... at the planned looks such that
//   P(the true ratio lies in I_k at every look k) >= confidence,
// whatever the true ratio and whenever the run stops. Their widths come from a two-sided
// group-sequential boundary c_1, c_2, ... for the standardized statistic: the boundary is
// crossed at look k with probability alpha(t_k) - alpha(t_{k-1}) under a true null, where
// t_k = n_k / n_max is the share of the planned instances measured so far and alpha(t) the
// O'Brien-Fleming-type spending function of Lan & DeMets ("Discrete sequential boundaries for
// clinical trials", Biometrika 70(3), 1983), alpha/2 spent on each side:
//   alpha(t) = 4 - 4 Phi(z_{1 - alpha/4} / sqrt(t)),
// which spends almost nothing early (wide early intervals) and leaves the last look nearly the
// fixed design's (1.96 becomes about 2.0 with 5 or more looks). The boundaries are found by
// numerical integration of the standardized statistic's Brownian-motion path (Armitage,
// McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19): exact under normality with known
// variance. With estimated variances each look's interval is a t interval at the look's
// nominal level 2 (1 - Phi(c_k)), the usual conversion (Jennison & Turnbull 2000, 3.8 and
// 11.4), so the coverage is approximate. Its degrees of freedom are min(n_a, n_b) - 1, not
// Welch-Satterthwaite's: at the first looks, with A and B of unequal variances, Satterthwaite's
// estimated df made the level liberal (7.4% any false alarm for one benchmark at a 5% level,
// first look at 3 instances), the conservative df kept it at or below 5% on lognormal,
// heavy-tailed, unequal-variance and bad-launch data (bench/sequential_family_bench.cpp,
// docs/sequential.md).
//
// The repeated p-value of a look (Jennison & Turnbull 2000, 9.1) is the smallest alpha at which
// the repeated confidence interval of that look, with boundaries designed for alpha, excludes
// a ratio of 1: dual to the intervals as the fixed p-value is to the fixed interval, and never
// below it. It is what Holm's adjustment may combine with other p-values.
//
// Decision at a look, from its ratio r and interval [lo, hi] with the verdict's rule
// (verdict.hpp, `classify`): slower, faster, or equivalent (the whole interval inside
// 1 +- threshold: an equivalence test, TOST, at the same level), otherwise go on; at the last
// planned look, or when the time budget ends the run early, inconclusive. Because every
// decision is read off an interval that covers the true ratio at all looks at once with
// probability >= confidence, a false slower/faster (true ratio 1) and a false equivalent (true
// change beyond the threshold) each happen at most 1 - confidence of the time.
//
// A fixed-n interval computed on data whose size was chosen by looking at it is too narrow
// and its ratio biased away from 1; a sequential run is therefore compared with the interval
// of its last look (sequential_look), not a fixed one.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "stats/confidence.hpp"
#include "stats/hierarchical.hpp"
#include "stats/resample.hpp"
#include "stats/verdict.hpp"

namespace benchguard::stats {

// How alpha is spent over the looks (Lan & DeMets 1983): O'Brien-Fleming-type keeps early
// looks strict and the last nearly the fixed design's; Pocock-type spends alpha evenly, so it
// stops large changes sooner and pays with a stricter last look.
enum class Spending { kOBrienFleming, kPocock };
const char* to_string(Spending spending);  // "obrien-fleming", "pocock"

// The plan: looks after min_instances, min_instances + round, ... up to max_instances a side.
struct SequentialPlan {
  Spending spending = Spending::kPocock;
  // The first look. Earlier looks keep the level (their df are small, their intervals wide)
  // but rarely decide; 5 loses little power against 3 (docs/sequential.md).
  std::size_t min_instances = 5;
  std::size_t round = 1;  // instances a side between looks
  std::size_t max_instances = 20;
  double confidence = 0.95;
};

// Why an instance count or plan cannot work, or "" (min >= 2, round >= 1, max >= min,
// confidence in (0, 1), at most kMaxLooks looks).
std::string check(const SequentialPlan& plan);
inline constexpr std::size_t kMaxLooks = 200;

// Instances a side at each planned look: min, min + round, ..., with max always the last.
std::vector<std::size_t> look_sizes(const SequentialPlan& plan);

// The two-sided O'Brien-Fleming-type spending function (each side spends alpha / 2 by
// 2 - 2 Phi(z_{1 - alpha/4} / sqrt(t))): the share of alpha spent by information fraction t in
// [0, 1]; 0 at t = 0, alpha at t >= 1.
double obrien_fleming_spent(double t, double alpha);

// Two-sided critical values |Z| >= c_k at information fractions 0 < t_1 < ... < t_K (the last
// may be below 1: then not all of alpha is spent), spending alpha by obrien_fleming_spent.
// A look that may spend next to nothing gets c = 8.2 (a nominal level of 2e-16).
std::vector<double> spending_bounds(std::span<const double> fractions, double alpha,
                                    Spending spending = Spending::kOBrienFleming);
// Pocock-type: alpha ln(1 + (e - 1) t).
double pocock_spent(double t, double alpha);
double spent(Spending spending, double t, double alpha);

enum class SequentialDecision { kContinue, kSlower, kFaster, kEquivalent, kInconclusive };
const char* to_string(SequentialDecision decision);  // "continue", "slower", ...

// The plan with its looks worked out: instances a side at each look and the nominal
// confidence of each look's interval, 1 - 2 (1 - Phi(c_k)). Computing the boundaries takes a
// numerical integration per look: make the design once per run.
struct SequentialDesign {
  SequentialPlan plan;
  std::vector<std::size_t> sizes;  // look_sizes(plan); empty when check(plan) fails
  std::vector<double> levels;
};
SequentialDesign make_design(const SequentialPlan& plan);

struct Look {
  std::size_t look = 0;  // 1-based index into the plan's looks
  std::size_t instances_a = 0, instances_b = 0;
  double ratio = 0.0;  // B / A of the statistic
  Interval ci{0, 0};   // the repeated confidence interval
  double level = 0.0;  // its nominal confidence
  double dof = 0.0;    // of the t interval: min(instances_a, instances_b) - 1
  // "The ratio is 1" at this look: the fixed-sample p-value (the t test of the interval, as if
  // this look were the only one) and the repeated p-value (repeated_p_value), NaN until set.
  double p_fixed = std::numeric_limits<double>::quiet_NaN();
  double p_value = std::numeric_limits<double>::quiet_NaN();
  SequentialDecision decision = SequentialDecision::kContinue;
  std::string reason;  // what decided, or what would end it
};

// Look number `look` (1-based) of `plan` at data a and b. options: statistic, threshold and
// direction (the median has no t interval, verdict.hpp: callers refuse it). `last` forces a
// decision (inconclusive instead of continue), as does the plan's last look.
Look sequential_look(const Hierarchical& a, const Hierarchical& b, const SequentialDesign& design,
                     std::size_t look, const VerdictOptions& options, bool last = false);

// The repeated p-value of a look that saw p_fixed: the smallest alpha whose design (the same
// looks and spending) gives look `look` (1-based) a nominal level 1 - p_fixed or less, so that
// its interval just excludes 1 (found by bisection on log alpha, to 1% of alpha; a numerical
// integration per step, about 0.1 s for 20 looks). p_fixed at the first look of a one-look
// design; 1 when even alpha = 1 does not reach it; NaN for NaN.
double repeated_p_value(const SequentialPlan& plan, std::size_t look, double p_fixed);

// The plan played over data already measured: look k sees the first look_sizes(plan)[k]
// instances of each side, up to the first decision (or the last look the data reach, which
// then decides). For simulations and for replaying a stored sequential run.
Look replay_sequential(const Hierarchical& a, const Hierarchical& b, const SequentialDesign& design,
                       const VerdictOptions& options);

}  // namespace benchguard::stats
