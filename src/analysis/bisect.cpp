// Bisection of a commit range by measurement: the step classification by a three-sample
// bootstrap, and the search over commit indices.
#include "analysis/bisect.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <span>

#include "stats/bootstrap.hpp"
#include "stats/confidence.hpp"
#include "stats/rng.hpp"

namespace benchguard::analysis {

const char* to_string(StepVerdict v) {
  switch (v) {
    case StepVerdict::kGood:
      return "good";
    case StepVerdict::kBad:
      return "bad";
    case StepVerdict::kInconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

namespace {

// A statistic whose logarithm is defined and finite.
bool loggable(double x) {
  return std::isfinite(x) && x > 0.0;
}

}  // namespace

StepResult classify_step(const stats::Hierarchical& good, const stats::Hierarchical& candidate,
                         const stats::Hierarchical& bad, stats::Statistic statistic,
                         double confidence, int resamples, uint64_t seed) {
  // Every early return leaves the verdict inconclusive. Fields not computed keep their
  // defaults, so nothing is NaN: the step stays 1 when the endpoints cannot be compared, the
  // positions stay 0 when there is no step to measure them on, and the position interval is
  // (-inf, inf) when the point position exists but the replicates cannot be read.
  StepResult result;
  if (good.empty() || candidate.empty() || bad.empty() || resamples <= 0) return result;
  if (!(confidence > 0.0 && confidence < 1.0)) return result;

  const double g = stats::statistic_of(good, statistic);
  const double b = stats::statistic_of(bad, statistic);
  if (!loggable(g) || !loggable(b)) return result;
  const double log_g = std::log(g), log_b = std::log(b);
  const double step = log_b - log_g;

  // The three sides are independent samples: each is resampled on its own seed.
  const auto good_r =
      stats::bootstrap_replicates(good, statistic, resamples, stats::derive_seed(seed, 0)).values;
  const auto bad_r =
      stats::bootstrap_replicates(bad, statistic, resamples, stats::derive_seed(seed, 2)).values;
  const std::size_t count = good_r.size();
  if (count == 0 || bad_r.size() != count) return result;
  // A replicate at zero or below (every drawn value zero, or a normal-approximation draw below
  // zero) has no logarithm. Dropping it would bias the interval, so the interval is not read.
  for (std::size_t i = 0; i < count; ++i)
    if (!loggable(good_r[i]) || !loggable(bad_r[i])) return result;

  // The intervals are expanded percentile intervals, as compare's (docs/statistics.md): the
  // plain percentile interval of a few instances is too narrow (an A/A false-alarm rate of
  // about 7% at 10 instances, measured in bisect_test). Each side's relative variance term
  // enters with the square of its weight in the log-contrast: 1 for b / g's two sides; 1 for
  // the candidate and 1/4 for each endpoint in the contrast.
  const auto term = [&](const stats::Hierarchical& side, double weight) {
    stats::VarianceTerm t = stats::relative_variance_term(side, statistic);
    t.variance *= weight * weight;
    t.bootstrap_variance *= weight * weight;
    return t;
  };
  const stats::VarianceTerm step_terms[] = {term(good, 1.0), term(bad, 1.0)};
  const double tail = stats::tail_probability(confidence, stats::combined_expansion(step_terms));
  std::vector<double> ratios(count);
  for (std::size_t i = 0; i < count; ++i) ratios[i] = bad_r[i] / good_r[i];
  const stats::Interval step_ci = stats::percentile_interval(ratios, tail);
  result.step_ratio = b / g;
  result.step_lower = step_ci.lower;
  result.step_upper = step_ci.upper;
  result.endpoints_differ = !step_ci.contains(1.0);

  // Without a step there is no direction and no scale for a position.
  const double c = stats::statistic_of(candidate, statistic);
  if (step == 0.0 || !loggable(c)) return result;
  const double sign = step > 0.0 ? 1.0 : -1.0;
  const double scale = std::fabs(step);
  result.position = (std::log(c) - log_g) / step;
  result.position_lower = -std::numeric_limits<double>::infinity();
  result.position_upper = std::numeric_limits<double>::infinity();

  const auto cand_r =
      stats::bootstrap_replicates(candidate, statistic, resamples, stats::derive_seed(seed, 1))
          .values;
  if (cand_r.size() != count) return result;
  std::vector<double> contrasts(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!loggable(cand_r[i])) return result;
    contrasts[i] = sign * (std::log(cand_r[i]) - 0.5 * (std::log(good_r[i]) + std::log(bad_r[i])));
  }
  // contrast = s (log c - (log g + log b) / 2) = |log b - log g| (position - 1/2): the
  // position is an affine, increasing function of the contrast, so the contrast interval's
  // ends map to the position interval's ends.
  const stats::VarianceTerm contrast_terms[] = {term(candidate, 1.0), term(good, 0.5),
                                                term(bad, 0.5)};
  const stats::Interval contrast_ci = stats::percentile_interval(
      contrasts, stats::tail_probability(confidence, stats::combined_expansion(contrast_terms)));
  result.position_lower = contrast_ci.lower / scale + 0.5;
  result.position_upper = contrast_ci.upper / scale + 0.5;

  if (!result.endpoints_differ) return result;
  result.between = result.position_lower > 0.0 && result.position_upper < 1.0;
  if (contrast_ci.lower > 0.0) {
    result.verdict = StepVerdict::kBad;
  } else if (contrast_ci.upper < 0.0) {
    result.verdict = StepVerdict::kGood;
  }
  return result;
}

BisectSearch::BisectSearch(std::size_t commits)
    : n_(commits), first_bad_(commits), skipped_(commits, false) {}

std::optional<std::size_t> BisectSearch::next() const {
  const std::size_t lo = last_good_plus_one_, hi = first_bad_;
  // The open range is (lo - 1, hi); twice its midpoint is lo + hi - 1, kept in integers so
  // that the distances below are exact. Ties go to the lower index: for an unskipped range
  // that is floor of the midpoint, which splits the lo..hi possible answers evenly enough for
  // ceil(log2(n + 1)) measurements.
  std::optional<std::size_t> best;
  std::size_t best_distance = 0;
  for (std::size_t k = lo; k < hi; ++k) {
    if (skipped_[k]) continue;
    const std::size_t twice = 2 * k;
    const std::size_t mid2 = lo + hi - 1;
    const std::size_t distance = twice > mid2 ? twice - mid2 : mid2 - twice;
    if (!best || distance < best_distance) {
      best = k;
      best_distance = distance;
    }
  }
  return best;
}

void BisectSearch::mark(std::size_t commit, StepVerdict verdict) {
  if (commit >= n_) return;
  switch (verdict) {
    case StepVerdict::kGood:
      // Good at or above a bad commit: the history is not ordered as assumed. The bounds stay
      // where they are, so the range remains a valid (possibly empty) interval.
      if (commit >= first_bad_) {
        contradicted_ = true;
        return;
      }
      if (commit + 1 > last_good_plus_one_) last_good_plus_one_ = commit + 1;
      break;
    case StepVerdict::kBad:
      if (commit < last_good_plus_one_) {
        contradicted_ = true;
        return;
      }
      if (commit < first_bad_) first_bad_ = commit;
      break;
    case StepVerdict::kInconclusive:
      return;
  }
  // A commit that was measured after all is no longer a skipped one.
  skipped_[commit] = false;
}

void BisectSearch::skip(std::size_t commit) {
  if (commit < n_) skipped_[commit] = true;
}

std::vector<std::size_t> BisectSearch::could_also_be() const {
  std::vector<std::size_t> out;
  for (std::size_t k = last_good_plus_one_; k < first_bad_; ++k)
    if (skipped_[k]) out.push_back(k);
  return out;
}

std::size_t expected_steps(std::size_t commits) {
  // ceil(log2(n + 1)) is the number of bits of n: 2^(w - 1) <= n < 2^w gives
  // 2^(w - 1) < n + 1 <= 2^w.
  return static_cast<std::size_t>(std::bit_width(commits));
}

}  // namespace benchguard::analysis
