// Launching one instance of a benchmark and measuring it from outside: wall time on
// CLOCK_MONOTONIC, rusage from wait4, memory of the whole process tree sampled about every
// 10 ms, hardware counters when the kernel allows, a timeout that ends the process group.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "measure/clock.hpp"  // monotonic_ns, realtime_ns

namespace benchguard::measure {

struct LaunchSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::string cwd;                // empty: inherit
  KeyValues env;                  // added to (or replacing in) the inherited environment
  double timeout_s = 0;           // 0: no timeout
  double kill_grace_s = 1.0;      // SIGTERM to the group, then SIGKILL after this long
  std::vector<int> cpus;          // pin to these CPUs; empty: no pinning
  bool sample_memory = true;
  bool counters = true;  // try hardware counters (recorded unavailable if refused)
  // Run under Valgrind (callgrind): `instructions` is its exact count over the whole tree
  // (measure/valgrind_count.hpp), hardware counters are not read, and time is Valgrind's.
  bool count_instructions = false;
  // With count_instructions: callgrind's cache simulation too (l1_misses, ll_misses,
  // estimated_cycles in LaunchResult::counts).
  bool simulate_caches = false;
  // Address space layout randomization off for this child (personality ADDR_NO_RANDOMIZE, as
  // `setarch -R`): its stack, heap and libraries start where they did last time.
  bool fixed_layout = false;
  bool quiet = true;        // stdout/stderr of the child to /dev/null
  std::string stdout_path;  // when set (and quiet), capture stdout/stderr there
};

struct LaunchResult {
  int64_t start_ns = 0;    // CLOCK_MONOTONIC just before spawn
  int64_t end_ns = 0;      // CLOCK_MONOTONIC when the child was reaped
  int64_t started_at = 0;  // unix epoch ns
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  double user_s = 0;
  double sys_s = 0;
  int64_t max_rss_bytes = 0;  // ru_maxrss of the largest process (see rss_floor_bytes)
  // The launcher's peak RSS once the child exec'd. The kernel folds the RSS of the address
  // space a child execs from into its ru_maxrss, so a max_rss_bytes at or below this floor
  // is only an upper bound (docs/measurement.md).
  int64_t rss_floor_bytes = 0;
  // The tree's peak: the kernel's for a memory cgroup of the instance's own where benchguard
  // may make one (mem_source "cgroup2" or "cgroup1", memory_group.hpp), else sampled from /proc
  // and ru_maxrss where it is above the floor ("sampled").
  int64_t mem_peak_bytes = 0;
  double mem_avg_bytes = 0;
  int mem_samples = 0;
  std::string mem_source;
  std::optional<int64_t> instructions;
  std::optional<int64_t> cycles;
  // Further counts, as InstanceRecord::counts: Valgrind's simulated caches, or the hardware's
  // branch_misses and cache_misses (the kernel may refuse one event and count another).
  std::vector<std::pair<std::string, int64_t>> counts;
  // Why a channel asked for (count_instructions) gave nothing: the instance failed.
  std::string measure_error;

  double wall_s() const { return static_cast<double>(end_ns - start_ns) * 1e-9; }
};

// A started child. start() returns once the child runs; wait() blocks until it is reaped
// (enforcing the timeout), samples the tree's memory meanwhile and fills the result. Two may
// run at once (duet schedules): wait for each on a thread of its own, or the one waited for
// second is not sampled until the first has ended.
class Child {
 public:
  static Result<std::unique_ptr<Child>> start(const LaunchSpec& spec);
  virtual ~Child() = default;
  virtual int pid() const = 0;
  virtual Result<LaunchResult> wait() = 0;
};

// start() + wait().
Result<LaunchResult> launch(const LaunchSpec& spec);

// True when perf_event_open lets this process count instructions of its children.
bool counters_available();
// Why it does not, in words ("" when it does): probed once per process.
std::string counters_refusal();
// The words for a refusal with errno `err` (0: none) under perf_event_paranoid `paranoid`.
std::string describe_counter_refusal(int err, std::optional<int> paranoid);

}  // namespace benchguard::measure
