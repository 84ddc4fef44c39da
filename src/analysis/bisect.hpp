// Bisection of a commit range by measurement (docs/bisect.md): where a candidate's
// measurements lie between the good and the bad endpoint's, and which commit to measure next.
// Pure: no I/O, no git; `benchguard bisect` (src/refs/) drives it with real runs and
// bench/bisect_bench with simulated ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/hierarchical.hpp"
#include "stats/resample.hpp"

namespace benchguard::analysis {

enum class StepVerdict { kGood, kBad, kInconclusive };
const char* to_string(StepVerdict v);  // "good", "bad", "inconclusive"

// A candidate measured in the same runs as both endpoints. With g, c and b the statistic of
// good, candidate and bad, and s = sign(log b - log g):
//   position = (log c - log g) / (log b - log g)   0 where c is like good, 1 like bad;
//   contrast = s (log c - (log g + log b) / 2)     < 0 nearer good, > 0 nearer bad.
// The contrast's interval comes from bootstrap replicates of the three sides (each its own
// seed, derived from `seed`); its ends are also given as positions. Bad when the interval
// lies above 0, good when below, otherwise inconclusive. Inconclusive too, whatever the
// candidate, when the endpoints' own ratio interval includes 1: they do not differ.
struct StepResult {
  StepVerdict verdict = StepVerdict::kInconclusive;
  double position = 0;
  double position_lower = 0, position_upper = 0;  // the contrast interval's ends as positions
  double step_ratio = 1;                          // b / g
  double step_lower = 1, step_upper = 1;          // its interval
  bool endpoints_differ = false;
  // The interval lies clear of both 0 and 1 as positions: the candidate is neither like good
  // nor like bad (several steps, or a gradual change).
  bool between = false;
};

StepResult classify_step(const stats::Hierarchical& good, const stats::Hierarchical& candidate,
                         const stats::Hierarchical& bad, stats::Statistic statistic,
                         double confidence, int resamples, uint64_t seed);

// The search over commits 0..n-1 strictly between good (index -1) and bad (index n), oldest
// first, as `git bisect` does it: the first bad commit lies in (last good, first bad]. A
// skipped commit (it does not build, its benchmark fails) is passed over; the next candidate
// is then the unskipped commit nearest the middle of the open range.
class BisectSearch {
 public:
  explicit BisectSearch(std::size_t commits);

  // The candidate to measure next; nullopt when done (no unskipped commit left in range).
  std::optional<std::size_t> next() const;
  void mark(std::size_t commit, StepVerdict verdict);  // kGood or kBad
  void skip(std::size_t commit);

  // When done: the first bad commit (n: the bad endpoint itself), and the skipped commits just
  // before it that might be the culprit instead (as git bisect's "only skipped commits left").
  std::size_t first_bad() const { return first_bad_; }
  std::vector<std::size_t> could_also_be() const;
  // Marks that contradict an ordered history: a commit marked good after (at a higher index
  // than) one marked bad. The search itself never asks for such a pair; marks given by hand
  // or reused from an earlier session can.
  bool contradicted() const { return contradicted_; }

 private:
  std::size_t n_;
  std::size_t last_good_plus_one_ = 0;  // lowest index that may still be the first bad
  std::size_t first_bad_;               // n until a commit is marked bad
  std::vector<bool> skipped_;
  bool contradicted_ = false;
};

// How many candidates a clean search of n commits measures at most: ceil(log2(n + 1)).
std::size_t expected_steps(std::size_t commits);

}  // namespace benchguard::analysis
