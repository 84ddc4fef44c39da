// Counting executed instructions under Valgrind (its callgrind tool): the same count on every
// run of the same program and input, where time moves by percents (docs/measurement.md).
// A program using the C++ client (include/benchguard/client.hpp) finds where to read its own
// per-iteration counts in BENCHGUARD_CALLGRIND_OUT.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::measure {

// What Valgrind counted for one instance: its instructions, and with the cache simulation
// l1_misses, ll_misses and estimated_cycles (cache_counts()).
struct ValgrindCounts {
  int64_t instructions = 0;
  std::vector<std::pair<std::string, int64_t>> counts;
};

// Where the counts of one instance go: a fresh directory, removed with the object.
class ValgrindRun {
 public:
  // Finds valgrind in `path_env` and makes the directory; an Error says what to install.
  // `simulate_caches` turns callgrind's cache simulation on, for one fixed cache geometry
  // (kSimulatedCaches), so that the counts do not depend on the host's caches.
  static Result<ValgrindRun> prepare(const char* path_env, bool simulate_caches = false);
  ValgrindRun(ValgrindRun&& other) noexcept;
  ValgrindRun& operator=(ValgrindRun&&) = delete;
  ValgrindRun(const ValgrindRun&) = delete;
  ~ValgrindRun();

  // `argv` run under callgrind, following every exec'd child: each process writes its count
  // to `prefix().PID`, and one more file `prefix().PID.K` each time it asks for a dump
  // (CALLGRIND_DUMP_STATS: the count since the previous dump, then zeroed).
  std::vector<std::string> wrap(const std::vector<std::string>& argv) const;
  // What BENCHGUARD_CALLGRIND_OUT tells the program: the path of the files without ".PID".
  std::string prefix() const { return dir_ + "/cg"; }
  // The instructions executed by every process of the tree, and the cache figures when
  // simulated, summed over its files (dumps split a process's count, never repeat it); an
  // Error when no process wrote its count (valgrind could not run the program, or it was
  // killed).
  Result<ValgrindCounts> counts() const;

 private:
  ValgrindRun(std::string valgrind, std::string dir, bool simulate_caches)
      : valgrind_(std::move(valgrind)), dir_(std::move(dir)), simulate_caches_(simulate_caches) {}
  std::string valgrind_;
  std::string dir_;
  bool simulate_caches_ = false;
};

// The caches callgrind simulates (size, associativity, line size in bytes): a 32 KiB 8-way L1
// for instructions and one for data, an 8 MiB 16-way last level; 64-byte lines.
inline constexpr const char* kSimulatedCaches[] = {"--I1=32768,8,64", "--D1=32768,8,64",
                                                   "--LL=8388608,16,64"};

// Whether valgrind is on `path_env`; the Error says what to install.
Status valgrind_available(const char* path_env);

// Every event of one callgrind (or cachegrind) output file, named by its `events:` line, with
// its `summary:` figure (Ir, the instructions, first). An Error names what is missing.
Result<std::vector<std::pair<std::string, int64_t>>> parse_valgrind_events(const std::string& text);
// What the cache simulation's events (Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw) give, in this
// order: l1_misses (I1mr + D1mr + D1mw), ll_misses (ILmr + DLmr + DLmw) and estimated_cycles,
// L1 hits + 5 x LL hits + 35 x LL misses (Itamar Turner-Trauring's model,
// pythonspeed.com/articles/consistent-benchmarking-in-ci/, which iai and iai-callgrind use).
// Empty without them.
std::vector<std::pair<std::string, int64_t>> cache_counts(
    const std::vector<std::pair<std::string, int64_t>>& events);

}  // namespace benchguard::measure
