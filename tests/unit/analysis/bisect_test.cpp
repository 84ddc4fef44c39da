// Bisection by measurement (src/analysis/bisect.hpp): the search over commit indices against
// exact oracles, the step classification on hand-built samples, and its false-classification
// rate on simulated ones.
#include "analysis/bisect.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "stats/simulate.hpp"
#include "support/test_support.hpp"

namespace benchguard::analysis {
namespace {

struct SearchOutcome {
  std::size_t first_bad = 0;
  std::vector<std::size_t> measured;  // candidates in the order next() gave them
  std::vector<std::size_t> could_also_be;
  bool contradicted = false;
};

// A perfect oracle over n commits: commit k is bad exactly when k >= step (step == n: only the
// bad endpoint is bad). Commits in `broken` do not build: they are skipped when proposed.
SearchOutcome search(std::size_t n, std::size_t step, const std::set<std::size_t>& broken = {}) {
  BisectSearch s(n);
  SearchOutcome out;
  for (std::size_t guard = 0; guard <= n + 1; ++guard) {
    const auto k = s.next();
    if (!k) break;
    EXPECT_LT(*k, n);
    if (broken.count(*k) != 0) {
      s.skip(*k);
      continue;
    }
    out.measured.push_back(*k);
    s.mark(*k, *k >= step ? StepVerdict::kBad : StepVerdict::kGood);
  }
  EXPECT_FALSE(s.next().has_value()) << "the search did not end";
  out.first_bad = s.first_bad();
  out.could_also_be = s.could_also_be();
  out.contradicted = s.contradicted();
  return out;
}

TEST(BisectSearch, ExpectedStepsIsCeilLog2OfNPlusOne) {
  EXPECT_EQ(expected_steps(0), 0u);
  EXPECT_EQ(expected_steps(1), 1u);   // log2 2
  EXPECT_EQ(expected_steps(2), 2u);   // log2 3 = 1.58
  EXPECT_EQ(expected_steps(3), 2u);   // log2 4
  EXPECT_EQ(expected_steps(4), 3u);   // log2 5 = 2.32
  EXPECT_EQ(expected_steps(31), 5u);  // log2 32
  EXPECT_EQ(expected_steps(32), 6u);  // log2 33 = 5.04
  EXPECT_EQ(expected_steps(63), 6u);  // log2 64
  EXPECT_EQ(expected_steps(64), 7u);  // log2 65 = 6.02
}

TEST(BisectSearch, PerfectOracleFindsEveryStepWithinExpectedSteps) {
  for (const std::size_t n : {0u, 1u, 2u, 3u, 5u, 31u, 64u, 100u}) {
    for (std::size_t step = 0; step <= n; ++step) {
      const auto out = search(n, step);
      EXPECT_EQ(out.first_bad, step) << "n " << n << " step " << step;
      EXPECT_LE(out.measured.size(), expected_steps(n)) << "n " << n << " step " << step;
      EXPECT_TRUE(out.could_also_be.empty());
      EXPECT_FALSE(out.contradicted);
    }
  }
}

TEST(BisectSearch, FirstCandidateIsTheMiddle) {
  // Candidates 0..30 between good -1 and bad 31: the middle one is 15.
  EXPECT_EQ(BisectSearch(31).next(), 15u);
  // 0..63 between -1 and 64: the midpoint 31.5, ties to the lower index.
  EXPECT_EQ(BisectSearch(64).next(), 31u);
  EXPECT_EQ(BisectSearch(1).next(), 0u);
  EXPECT_FALSE(BisectSearch(0).next().has_value());
  EXPECT_EQ(BisectSearch(0).first_bad(), 0u);
}

TEST(BisectSearch, SkippedCommitSevenOfThirtyOneStepAtNineteen) {
  // Commit 7 does not build. 15 good -> (15, 31): 23 bad -> (15, 23): 19 bad -> (15, 19):
  // 17 good -> (17, 19): 18 good -> done at 19. Commit 7 never comes up.
  const auto out = search(31, 19, {7});
  EXPECT_EQ(out.first_bad, 19u);
  EXPECT_EQ(out.measured, (std::vector<std::size_t>{15, 23, 19, 17, 18}));
  EXPECT_LE(out.measured.size(), 7u);
  EXPECT_TRUE(out.could_also_be.empty());
}

TEST(BisectSearch, SkippedCommitAtTheBoundaryIsNamed) {
  // Step at 8: 15 bad -> (-1, 15), midpoint 7 is skipped, 6 and 8 are equally near and the
  // lower is taken: 6 good -> (6, 15), midpoint 10.5: 10 bad -> (6, 10): 8 bad -> (6, 8):
  // only the skipped 7 is left, which may be the first bad as well as 8.
  const auto out = search(31, 8, {7});
  EXPECT_EQ(out.measured, (std::vector<std::size_t>{15, 6, 10, 8}));
  EXPECT_EQ(out.first_bad, 8u);
  EXPECT_EQ(out.could_also_be, (std::vector<std::size_t>{7}));
  // Step at 7 (the broken commit itself): the same measurements, the same answer.
  const auto at7 = search(31, 7, {7});
  EXPECT_EQ(at7.first_bad, 8u);
  EXPECT_EQ(at7.could_also_be, (std::vector<std::size_t>{7}));
}

TEST(BisectSearch, OneSkippedCommitEveryStep) {
  // With 7 skipped the answer is exact for every step except 7 and 8, which cannot be told
  // apart without measuring 7; a skip replaces one measurement by its neighbour, so at most
  // one measurement more than a clean search.
  for (std::size_t step = 0; step <= 31; ++step) {
    const auto out = search(31, step, {7});
    if (step == 7 || step == 8) {
      EXPECT_EQ(out.first_bad, 8u);
      EXPECT_EQ(out.could_also_be, (std::vector<std::size_t>{7}));
    } else {
      EXPECT_EQ(out.first_bad, step);
      EXPECT_TRUE(out.could_also_be.empty()) << "step " << step;
    }
    EXPECT_LE(out.measured.size(), expected_steps(31) + 1) << "step " << step;
  }
}

TEST(BisectSearch, EverythingSkipped) {
  BisectSearch s(3);
  for (std::size_t k = 0; k < 3; ++k) s.skip(k);
  EXPECT_FALSE(s.next().has_value());
  EXPECT_EQ(s.first_bad(), 3u);
  EXPECT_EQ(s.could_also_be(), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(BisectSearch, ContradictedMarksAreReportedAndKeepTheRange) {
  {
    BisectSearch s(31);
    s.mark(10, StepVerdict::kBad);
    EXPECT_FALSE(s.contradicted());
    s.mark(12, StepVerdict::kGood);  // good above a bad commit
    EXPECT_TRUE(s.contradicted());
    EXPECT_EQ(s.first_bad(), 10u);
    const auto k = s.next();
    ASSERT_TRUE(k.has_value());
    EXPECT_LT(*k, 10u);  // still searching below the first bad
  }
  {
    BisectSearch s(31);
    s.mark(10, StepVerdict::kBad);
    s.mark(10, StepVerdict::kGood);  // the same commit both ways
    EXPECT_TRUE(s.contradicted());
    EXPECT_EQ(s.first_bad(), 10u);
  }
  {
    BisectSearch s(31);
    s.mark(5, StepVerdict::kGood);
    s.mark(3, StepVerdict::kBad);  // bad below a good commit
    EXPECT_TRUE(s.contradicted());
    EXPECT_EQ(s.first_bad(), 31u);
    const auto k = s.next();
    ASSERT_TRUE(k.has_value());
    EXPECT_GT(*k, 5u);
  }
  {
    // Consistent marks given out of order, and repeated ones, are not contradictions.
    BisectSearch s(31);
    s.mark(20, StepVerdict::kBad);
    s.mark(25, StepVerdict::kBad);
    s.mark(4, StepVerdict::kGood);
    s.mark(2, StepVerdict::kGood);
    s.mark(20, StepVerdict::kBad);
    EXPECT_FALSE(s.contradicted());
    EXPECT_EQ(s.first_bad(), 20u);
    EXPECT_EQ(s.next(), 12u);  // the middle of (4, 20)
  }
}

TEST(BisectSearch, OutOfRangeAndInconclusiveMarksChangeNothing) {
  BisectSearch s(5);
  s.mark(5, StepVerdict::kBad);
  s.mark(100, StepVerdict::kGood);
  s.skip(7);
  s.mark(2, StepVerdict::kInconclusive);
  EXPECT_EQ(s.first_bad(), 5u);
  EXPECT_EQ(s.next(), 2u);
  EXPECT_FALSE(s.contradicted());
  EXPECT_TRUE(s.could_also_be().empty());
}

TEST(BisectVerdict, Names) {
  EXPECT_STREQ(to_string(StepVerdict::kGood), "good");
  EXPECT_STREQ(to_string(StepVerdict::kBad), "bad");
  EXPECT_STREQ(to_string(StepVerdict::kInconclusive), "inconclusive");
}

// 10 instances x 5 iterations around `level`, with deterministic spreads of +-0.4% between
// iterations and +-0.1% between instances, both summing to zero so that the mean is `level`:
// tight next to the steps below.
stats::Hierarchical tight(double level) {
  stats::Hierarchical h;
  for (int i = 0; i < 10; ++i) {
    std::vector<double> it;
    it.reserve(5);
    for (int j = 0; j < 5; ++j)
      it.push_back(level * (1.0 + 0.002 * ((3 * i + j) % 5 - 2) + 0.001 * (2 * (i % 2) - 1)));
    h.add_instance(it);
  }
  return h;
}

constexpr int kResamples = 2000;
constexpr double kConfidence = 0.95;

StepResult classify(const stats::Hierarchical& g, const stats::Hierarchical& c,
                    const stats::Hierarchical& b, uint64_t seed = 1,
                    stats::Statistic statistic = stats::Statistic::kMean) {
  return classify_step(g, c, b, statistic, kConfidence, kResamples, seed);
}

bool no_nan(const StepResult& r) {
  return !std::isnan(r.position) && !std::isnan(r.position_lower) &&
         !std::isnan(r.position_upper) && !std::isnan(r.step_ratio) && !std::isnan(r.step_lower) &&
         !std::isnan(r.step_upper);
}

TEST(BisectClassify, CandidateLikeGood) {
  const auto good = tight(1.0), bad = tight(1.1);
  const auto r = classify(good, good, bad);
  EXPECT_EQ(r.verdict, StepVerdict::kGood);
  EXPECT_TRUE(r.endpoints_differ);
  EXPECT_FALSE(r.between);
  EXPECT_EQ(r.position, 0.0);  // the same data: log c - log g is exactly 0
  EXPECT_NEAR(r.step_ratio, 1.1, 1e-12);
  EXPECT_LT(r.step_upper, 1.1 * 1.01);  // the spread is a fraction of a percent
  EXPECT_GT(r.step_lower, 1.1 / 1.01);
  EXPECT_LE(r.position_lower, 0.0);  // the interval is centred on the point position 0
  EXPECT_GE(r.position_upper, 0.0);
  EXPECT_LT(r.position_upper, 0.5);
}

TEST(BisectClassify, CandidateLikeBad) {
  const auto good = tight(1.0), bad = tight(1.1);
  const auto r = classify(good, bad, bad);
  EXPECT_EQ(r.verdict, StepVerdict::kBad);
  EXPECT_TRUE(r.endpoints_differ);
  EXPECT_FALSE(r.between);
  EXPECT_EQ(r.position, 1.0);  // log c - log g and log b - log g are the same number
  EXPECT_GT(r.position_lower, 0.5);
  EXPECT_LE(r.position_lower, 1.0);
  EXPECT_GE(r.position_upper, 1.0);
}

TEST(BisectClassify, EveryStatistic) {
  const auto good = tight(1.0), bad = tight(1.1);
  for (const auto st :
       {stats::Statistic::kMean, stats::Statistic::kMedian, stats::Statistic::kTrimmedMean}) {
    EXPECT_EQ(classify(good, good, bad, 3, st).verdict, StepVerdict::kGood) << to_string(st);
    EXPECT_EQ(classify(good, bad, bad, 3, st).verdict, StepVerdict::kBad) << to_string(st);
  }
}

TEST(BisectClassify, HalfwayIsBetween) {
  // The geometric middle of 1.0 and 1.1: log c - log g is half of log b - log g.
  const auto good = tight(1.0), bad = tight(1.1), mid = tight(std::sqrt(1.1));
  const auto r = classify(good, mid, bad);
  EXPECT_NEAR(r.position, 0.5, 1e-9);
  EXPECT_TRUE(r.between);
  EXPECT_GT(r.position_lower, 0.0);
  EXPECT_LT(r.position_upper, 1.0);
  EXPECT_LT(r.position_lower, 0.5);
  EXPECT_GT(r.position_upper, 0.5);
  EXPECT_EQ(r.verdict, StepVerdict::kInconclusive);  // neither nearer good nor nearer bad
  // A quarter of the way: between, and clearly nearer good.
  const auto quarter = classify(good, tight(std::pow(1.1, 0.25)), bad);
  EXPECT_NEAR(quarter.position, 0.25, 1e-9);
  EXPECT_TRUE(quarter.between);
  EXPECT_EQ(quarter.verdict, StepVerdict::kGood);
}

TEST(BisectClassify, StepDownwardsToo) {
  // Bisecting an improvement: bad is faster than good. The sign s keeps "good" meaning "like
  // the good endpoint".
  const auto good = tight(1.0), bad = tight(0.9);
  const auto like_good = classify(good, good, bad);
  EXPECT_EQ(like_good.verdict, StepVerdict::kGood);
  EXPECT_EQ(like_good.position, 0.0);
  const auto like_bad = classify(good, bad, bad);
  EXPECT_EQ(like_bad.verdict, StepVerdict::kBad);
  EXPECT_EQ(like_bad.position, 1.0);
  EXPECT_NEAR(like_bad.step_ratio, 0.9, 1e-12);
  EXPECT_LT(like_bad.step_upper, 1.0);
}

TEST(BisectClassify, IdenticalEndpointsAreInconclusive) {
  const auto good = tight(1.0);
  // The same data at both ends: a step of exactly 1, whose interval (two resamplings of one
  // sample) straddles 1, and no position: it keeps its default.
  const auto same = classify(good, tight(1.1), good);
  EXPECT_EQ(same.verdict, StepVerdict::kInconclusive);
  EXPECT_FALSE(same.endpoints_differ);
  EXPECT_FALSE(same.between);
  EXPECT_EQ(same.step_ratio, 1.0);
  EXPECT_LT(same.step_lower, 1.0);
  EXPECT_GT(same.step_upper, 1.0);
  EXPECT_EQ(same.position, 0.0);
  EXPECT_TRUE(no_nan(same));
  // The same instances in the opposite order: the ratio's point value is 1 up to rounding and
  // both sides' bootstrap distributions are alike, so its interval straddles 1, whatever the
  // candidate.
  stats::Hierarchical reversed;
  for (std::size_t i = good.instances(); i-- > 0;) reversed.add_instance(good.instance(i));
  for (const auto& candidate : {good, tight(1.1), tight(0.9)}) {
    const auto r = classify(good, candidate, reversed);
    EXPECT_EQ(r.verdict, StepVerdict::kInconclusive);
    EXPECT_FALSE(r.endpoints_differ);
    EXPECT_FALSE(r.between);
    EXPECT_NEAR(r.step_ratio, 1.0, 1e-12);
    EXPECT_LT(r.step_lower, 1.0);
    EXPECT_GT(r.step_upper, 1.0);
  }
}

TEST(BisectClassify, UnusableInputIsInconclusiveWithoutNaN) {
  const auto good = tight(1.0), bad = tight(1.1);
  const stats::Hierarchical empty;
  stats::Hierarchical zeros;
  zeros.add_instance(std::vector<double>{0.0, 0.0, 0.0});
  stats::Hierarchical negative;
  negative.add_instance(std::vector<double>{-1.0, -2.0});
  // Statistic positive, but a quarter of the replicates draw only the zero instance: those
  // replicates have no logarithm.
  stats::Hierarchical half_zero;
  half_zero.add_instance(std::vector<double>{0.0, 0.0});
  half_zero.add_instance(std::vector<double>{2.0, 2.0});
  const std::vector<StepResult> results = {
      classify(empty, good, bad),
      classify(good, empty, bad),
      classify(good, good, empty),
      classify(zeros, good, bad),
      classify(good, zeros, bad),
      classify(good, negative, bad),
      classify(good, half_zero, bad),
      classify_step(good, good, bad, stats::Statistic::kMean, kConfidence, 0, 1),
      classify_step(good, good, bad, stats::Statistic::kMean, 1.0, kResamples, 1),
      classify_step(good, good, bad, stats::Statistic::kMean, 0.0, kResamples, 1),
      classify_step(good, good, bad, stats::Statistic::kMean, std::nan(""), kResamples, 1)};
  for (std::size_t k = 0; k < results.size(); ++k) {
    EXPECT_EQ(results[k].verdict, StepVerdict::kInconclusive) << "case " << k;
    EXPECT_FALSE(results[k].between) << "case " << k;
    EXPECT_TRUE(no_nan(results[k])) << "case " << k;
  }
  // The half-zero candidate has a point position (its mean is 1) but no readable interval.
  const auto& hz = results[6];
  EXPECT_TRUE(hz.endpoints_differ);
  EXPECT_NEAR(hz.position, 0.0, 1e-12);
  EXPECT_EQ(hz.position_lower, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(hz.position_upper, std::numeric_limits<double>::infinity());
}

TEST(BisectClassify, SameSeedSameResult) {
  const auto good = tight(1.0), bad = tight(1.1), mid = tight(std::pow(1.1, 0.3));
  const auto a = classify(good, mid, bad, 42), b = classify(good, mid, bad, 42);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.position_lower, b.position_lower);
  EXPECT_EQ(a.position_upper, b.position_upper);
  EXPECT_EQ(a.step_ratio, b.step_ratio);
  EXPECT_EQ(a.step_lower, b.step_lower);
  EXPECT_EQ(a.step_upper, b.step_upper);
  EXPECT_EQ(a.endpoints_differ, b.endpoints_differ);
  EXPECT_EQ(a.between, b.between);
  // Another seed: the same point values, other replicates.
  const auto c = classify(good, mid, bad, 43);
  EXPECT_EQ(a.position, c.position);
  EXPECT_NE(a.position_lower, c.position_lower);
}

// Three standard errors of a binomial proportion p over `trials`.
using testing::three_se;

TEST(BisectSimulation, FalseClassificationRate) {
  // A 5% step: 10 instances x 5 iterations a side, 3% lognormal instance offsets, 2% lognormal
  // iterations. Each trial draws good, bad, a candidate from good's distribution and one from
  // bad's, all independent, plus an A/A pair (bad from good's distribution).
  stats::SimulationOptions o;
  o.instances = 10;
  o.iterations = 5;
  o.instance_sd = 0.03;
  o.iteration_sd = 0.02;
  auto slow = o;
  slow.slowdown = 1.05;
  constexpr int kTrials = 200;
  constexpr uint64_t kSeed = 2024;
  int good_as_bad = 0, bad_as_good = 0, good_inconclusive = 0, bad_inconclusive = 0;
  int good_right = 0, bad_right = 0, no_step_seen = 0, aa_differ = 0;
  for (int t = 0; t < kTrials; ++t) {
    const uint64_t s = 5 * static_cast<uint64_t>(t);
    const auto good = stats::simulate(o, kSeed, s);
    const auto bad = stats::simulate(slow, kSeed, s + 1);
    const auto like_good = stats::simulate(o, kSeed, s + 2);
    const auto like_bad = stats::simulate(slow, kSeed, s + 3);
    const auto other_good = stats::simulate(o, kSeed, s + 4);
    const auto rg = classify(good, like_good, bad, static_cast<uint64_t>(t));
    const auto rb = classify(good, like_bad, bad, static_cast<uint64_t>(t));
    const auto aa = classify(good, like_good, other_good, static_cast<uint64_t>(t));
    if (!rg.endpoints_differ) ++no_step_seen;
    good_as_bad += rg.verdict == StepVerdict::kBad;
    good_right += rg.verdict == StepVerdict::kGood;
    good_inconclusive += rg.verdict == StepVerdict::kInconclusive;
    bad_as_good += rb.verdict == StepVerdict::kGood;
    bad_right += rb.verdict == StepVerdict::kBad;
    bad_inconclusive += rb.verdict == StepVerdict::kInconclusive;
    aa_differ += aa.endpoints_differ;
    // Without a step seen there is no verdict.
    if (!aa.endpoints_differ) {
      EXPECT_EQ(aa.verdict, StepVerdict::kInconclusive);
    }
    if (!rg.endpoints_differ) {
      EXPECT_EQ(rg.verdict, StepVerdict::kInconclusive);
    }
  }
  std::printf(
      "    like good: %d good, %d bad, %d inconclusive; like bad: %d bad, %d good, %d "
      "inconclusive; step not seen %d; A/A endpoints differ %d (of %d)\n",
      good_right, good_as_bad, good_inconclusive, bad_right, bad_as_good, bad_inconclusive,
      no_step_seen, aa_differ, kTrials);
  RecordProperty("good_as_bad", good_as_bad);
  RecordProperty("bad_as_good", bad_as_good);
  RecordProperty("good_inconclusive", good_inconclusive);
  RecordProperty("bad_inconclusive", bad_inconclusive);
  RecordProperty("aa_endpoints_differ", aa_differ);
  // A candidate from good's distribution has a true contrast of -|d| / 2; calling it bad needs
  // the whole interval above 0, rarer than the interval missing the true value on that side,
  // which a 95% interval does nominally 2.5% of the time. With 200 trials the proportion's
  // standard error at 2.5% is 1.1%: three of them on top give 5.8% (11 trials).
  const double tail = (1.0 - kConfidence) / 2.0;
  const double wrong_limit = tail + three_se(tail, kTrials);
  EXPECT_LE(good_as_bad, static_cast<int>(wrong_limit * kTrials));
  EXPECT_LE(bad_as_good, static_cast<int>(wrong_limit * kTrials));
  // A/A: the step's (expanded) interval excludes 1 nominally 5% of the time; 5% + 3 standard
  // errors (4.6%) is 19 of 200. Measured: 8 of 200 (14 with the plain percentile interval).
  const double alpha = 1.0 - kConfidence;
  EXPECT_LE(aa_differ, static_cast<int>((alpha + three_se(alpha, kTrials)) * kTrials));
}

}  // namespace
}  // namespace benchguard::analysis
