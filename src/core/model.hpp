// The vocabulary of benchguard as plain data: what a suite asks for (specs) and what a
// run measured (records). Shared by suite parsing, the runner, the store and reports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace benchguard {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// The value of the first pair with this key; nullptr when there is none.
const std::string* find_value(const KeyValues& kv, std::string_view key);

// Runs made to find something out rather than to record how fast the code is: the A/A runs
// of `calibrate` (label `calibration`) and `run --null` (`null`), the runs of `ab` (`ab`),
// `bisect` (`bisect`) and `confirm` (`confirm`). They stay listed by `runs` and usable by id
// or by their label, but are no point of history, of the dashboard's overview or of a commit
// reference: a bisect step at the checkout's HEAD is not HEAD's measurement.
bool is_probe_run(const KeyValues& labels);

enum class Direction { kLowerIsBetter, kHigherIsBetter };

struct MetricInfo {
  std::string name;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
};

// Metrics benchguard knows by name (wall_time, cpu_time, ...); nullptr for unknown names.
const MetricInfo* find_builtin_metric(const std::string& name);
// Every built-in metric, in display order.
const std::vector<MetricInfo>& builtin_metrics();

// ---------------------------------------------------------------- specs (from a suite)

// Shell commands (each run by /bin/sh -c, in the variant's cwd with its env) around the
// instances of a variant, never measured (docs/suite.md, "Hooks"), as hyperfine's options of
// the same names: `setup` once before its first instance and `cleanup` once after its last,
// `prepare` before each instance and `conclude` after each. Empty: none.
struct Hooks {
  std::string setup;
  std::string prepare;
  std::string conclude;
  std::string cleanup;
  bool any() const {
    return !setup.empty() || !prepare.empty() || !conclude.empty() || !cleanup.empty();
  }
};

// One side of a comparison. After suite resolution a variant carries the full command.
struct VariantSpec {
  std::string name = "default";
  std::vector<std::string> command;  // argv; with shell, {"/bin/sh", "-c", script}
  std::string cwd;                   // empty: the suite file's directory
  KeyValues env;                     // set on top of the inherited environment
  Hooks hooks;                       // params substituted
};

// Upper limits on counts: a typo must not ask for more than any machine holds, and
// burn_in + iterations must fit an int. Checked where counts enter: suite and plan files,
// command-line flags (check_counts, from the runner's preflight).
inline constexpr int kMaxInstances = 1000000;          // instances, warmup, pair repetitions
inline constexpr int kMaxIterations = 100000000;       // iterations and burn_in, each
inline constexpr std::size_t kMaxBenchmarks = 100000;  // in a suite, after parameter expansion

struct BenchmarkSpec;
// An Error naming the benchmark, the count and its limit when a count is above it.
Status check_counts(const BenchmarkSpec& b);

struct BenchmarkSpec {
  std::string name;  // unique in the suite; with params: "base/k=v/k2=v2"
  std::string base_name;
  KeyValues params;  // the values substituted for this member of the product
  int instances = 5;
  int iterations = 1;    // measured iterations asked of a protocol-aware benchmark
  int burn_in = 0;       // iterations flagged burn-in before the measured ones
  int warmup = 0;        // whole instances run first and not stored
  double timeout_s = 0;  // per instance; 0 = none
  int max_failures = 3;  // consecutive failed instances before the benchmark is abandoned
  // A mixed plan (as in the duet harnesses): this many A/B pairs of each kind, in a seeded
  // random order, instead of `instances` under the suite's schedule. A pair is one instance
  // of each side; duet pairs run concurrently, sync pairs also line up their iterations,
  // sequential pairs run one after the other.
  int duet_repetitions = 0;
  int sync_repetitions = 0;
  int sequential_repetitions = 0;
  std::vector<std::string> metrics{"wall_time"};
  // Channels measured beside time and memory (suite key `measure`, `run --measure`):
  // "instructions" runs each instance under Valgrind (callgrind), whose count of executed
  // instructions is the same on every run; "caches" does too, with its cache simulation on
  // (l1_misses, ll_misses, estimated_cycles; docs/measurement.md).
  std::vector<std::string> measure;
  bool counts_instructions() const { return simulates_caches() || has_measure("instructions"); }
  bool simulates_caches() const { return has_measure("caches"); }
  bool has_measure(std::string_view channel) const {
    return std::find(measure.begin(), measure.end(), channel) != measure.end();
  }
  // Memory layout of its instances (suite key `layout`, `run --layout`; docs/measurement.md):
  // "" as the kernel gives it (ASLR), "randomized": each instance's stack and heap start at a
  // random offset, "fixed": address randomization off, the same layout for every instance.
  std::string layout;
  // How its instances report iterations: "" through the iteration protocol (docs/protocol.md);
  // "google-benchmark": the command is a Google Benchmark binary, run with
  // --benchmark_repetitions and --benchmark_out, each repetition one iteration.
  std::string format;
  bool google_benchmark() const { return std::string_view(format) == kGoogleBenchmark; }
  static constexpr const char* kGoogleBenchmark = "google-benchmark";
  std::vector<VariantSpec> variants;  // never empty after resolution
  int line = 0;                       // where it is declared in the suite file

  bool mixed_plan() const {
    return duet_repetitions + sync_repetitions + sequential_repetitions > 0;
  }
};

// `until_decided:` of a suite (run --until-decided): A and B in rounds until the verdict is
// known (stats/sequential.hpp). 0 means the default.
struct UntilDecided {
  int max_instances = 0;  // a side; default twice the benchmark's instances
  double max_time_s = 0;  // the whole run's budget; 0: none
  int round = 0;          // instances a side between looks; default 1
};

struct Suite {
  std::string path;  // file it came from ("" for `run -- CMD`)
  std::string name;
  std::string schedule = "interleaved";
  std::optional<UntilDecided> until_decided;
  // `gate: {require: [...]}`: the channels (metrics) `gate --suite` requires when the command
  // line names none (docs/history.md, "Channels").
  std::vector<std::string> gate_require;
  std::vector<BenchmarkSpec> benchmarks;
};

// What `plan` writes and `run --plan` reads: per benchmark counts.
struct PlanEntry {
  std::optional<int> burn_in;
  std::optional<int> instances;
  std::optional<int> iterations;
  // Informational, written by `plan`.
  std::optional<double> mean, cv, mds, fpr;
  // Written by `plan`: whether the counts detect the target it planned for (false: the most
  // sensitive configuration it tried, which does not).
  std::optional<bool> reaches_target;
};
struct Plan {
  std::string path;
  std::map<std::string, PlanEntry> benchmarks;  // keyed by benchmark name (or base name)
};

// ---------------------------------------------------------------- records (measured)

struct InstanceRecord;

struct IterationRecord {
  int index = 0;
  int64_t start_ns = 0;  // CLOCK_MONOTONIC
  int64_t end_ns = 0;
  bool burn_in = false;
  bool timed_out = false;
  std::string failure;                                  // empty when the iteration succeeded
  std::vector<std::pair<std::string, double>> metrics;  // e.g. {"wall_time", 1.2e-3} (seconds)

  std::optional<double> metric(const std::string& name) const {
    for (const auto& [k, v] : metrics)
      if (k == name) return v;
    return std::nullopt;
  }
};

// An instance's iterations by column, as the store keeps them (docs/store.md): what analysis
// reads of a large run, 8 bytes a value instead of a record per iteration. Times, flags and
// metric values; no failure texts (a failed iteration is flagged kFailed). Read through
// IterationsView (core/iterations.hpp), which also reads InstanceRecord::iterations.
struct MetricColumn {
  std::string name;
  std::vector<double> values;    // one per iteration
  std::vector<uint8_t> present;  // one per iteration, 0 where it reported none; empty: all did
};
struct IterationColumns {
  static constexpr uint8_t kBurnIn = 1, kTimedOut = 2, kFailed = 4;
  std::size_t count = 0;
  std::vector<int64_t> start_ns, end_ns;
  std::vector<uint8_t> flags;         // one per iteration; empty when every flag is 0
  std::vector<MetricColumn> metrics;  // by the store's metric id
};

struct InstanceRecord {
  int index = 0;           // 0-based within its (benchmark, variant)
  int64_t order = 0;       // position in the run's schedule
  int64_t start_ns = 0;    // CLOCK_MONOTONIC at launch
  int64_t end_ns = 0;      // CLOCK_MONOTONIC when reaped
  int64_t started_at = 0;  // unix epoch ns at launch
  int exit_code = -1;      // -1 when killed by a signal or never started
  int signal = 0;          // terminating signal, 0 if none
  bool timed_out = false;
  std::string failure;  // empty when the instance succeeded
  double user_s = 0;
  double sys_s = 0;
  int64_t max_rss_bytes = 0;   // from wait4's rusage
  int64_t mem_peak_bytes = 0;  // sampled over the whole process tree
  double mem_avg_bytes = 0;
  int mem_samples = 0;
  // benchguard's own ru_maxrss when the instance launched (0: not recorded). The kernel folds
  // the launcher's size into the child's ru_maxrss, so a max_rss_bytes at or below it is only
  // an upper bound (docs/measurement.md); see at_launch_floor().
  int64_t rss_floor_bytes = 0;
  // Where mem_peak_bytes came from: "cgroup2" or "cgroup1" (the kernel's peak of a memory
  // cgroup of the instance's own: exact however short the instance), "sampled" (the tree
  // sampled from /proc, and ru_maxrss above the floor), "" (not recorded: stored before
  // schema 14, or imported). See exact_peak_memory().
  std::string mem_source;
  // Wall seconds of the prepare hook run before it and the conclude hook run after it
  // (VariantSpec::hooks): recorded beside the instance, never part of its times. 0: none.
  double prepare_s = 0;
  double conclude_s = 0;
  std::optional<int64_t> instructions;  // unset: counters unavailable
  std::optional<int64_t> cycles;
  // Further counts of the whole process tree, by name, in the order measured: l1_misses,
  // ll_misses and estimated_cycles from Valgrind's cache simulation; branch_misses and
  // cache_misses from hardware counters. Empty when none was measured.
  std::vector<std::pair<std::string, int64_t>> counts;
  std::string cpus;  // CPU list it was pinned to, "" if not pinned
  // The schedule that launched it: interleaved | sequential | alternate | randomized | duet |
  // sync-duet
  // ("" when unknown, e.g. imported). Both members of a duet pair share `order`.
  std::string schedule;
  std::string schedule_tag;  // start order of a duet pair, "AB" or "BA"; "" otherwise
  // The benchmark reported no iterations: its one iteration was timed from outside and its
  // metrics are outside_metrics(*this) (the store keeps them once, in the instance's columns).
  bool timed_outside = false;
  std::vector<IterationRecord> iterations;
  // Set instead of `iterations` (then empty) when a store read the run for analysis
  // (store::LoadOptions::columns) and the instance has many iterations.
  std::shared_ptr<const IterationColumns> columns;

  bool ok() const { return failure.empty(); }
};

// The counts Valgrind simulates (instructions, and InstanceRecord::counts under its cache
// simulation): the same on every run of the same program and input.
inline constexpr std::string_view kSimulatedMetrics[] = {"instructions", "l1_misses", "ll_misses",
                                                         "estimated_cycles"};
bool is_simulated_metric(std::string_view metric);

// The metrics of an iteration timed from outside: the instance's wall time, CPU times and
// memory, and its hardware counters when they were available.
std::vector<std::pair<std::string, double>> outside_metrics(const InstanceRecord& in);
// The one iteration of an instance timed from outside: index 0, the instance's start, end,
// timed_out and failure, never burn-in, and outside_metrics(in).
IterationRecord outside_iteration(const InstanceRecord& in);
// True when `it` is exactly what outside_iteration(in) gives, metrics aside: the store then
// keeps nothing of it but the instance's columns.
bool is_outside_iteration(const InstanceRecord& in, const IterationRecord& it);
// How many samples of a process tree its peak_memory and avg_memory need to be the tree's own
// when ru_maxrss cannot bound them (it is at the launch floor): one or two samples of a tree
// that lived 10 to 30 ms are glimpses of whichever of its processes ran at that moment.
inline constexpr int kMinTreeSamples = 3;
// True when the instance's own value of `metric` (as outside_metrics gives it) says nothing
// about the benchmark but only bounds it from above: max_rss at or below the launch floor, and
// peak_memory and avg_memory of such an instance whose tree was sampled fewer than
// kMinTreeSamples times, unless that peak is exact (exact_peak_memory). False for every other
// metric and when the floor was not recorded.
bool at_launch_floor(const InstanceRecord& in, std::string_view metric);
// True when the instance's peak_memory is the kernel's own (mem_source cgroup2 or cgroup1):
// never at the launch floor, however few samples were taken.
bool exact_peak_memory(const InstanceRecord& in);

struct VariantRecord {
  std::string benchmark;  // BenchmarkSpec::name
  std::string name;       // VariantSpec::name
  std::vector<std::string> command;
  KeyValues params;
  KeyValues env;
  std::string config_json;  // counts and options used, for the record
};

struct RunRecord {
  std::string uuid;
  int64_t started_at = 0;          // unix epoch ns
  int64_t finished_at = 0;         // 0 while running
  std::string status = "running";  // running | complete | failed | interrupted | imported
  std::string suite;               // suite name
  std::string suite_path;
  std::string hostname;
  std::string git_commit;
  std::string git_branch;
  bool git_dirty = false;
  std::string command_line;
  KeyValues labels;
  KeyValues artifacts;  // host and environment facts
};

// What a source reports when it keeps statistics of a metric but not the measurements:
// pytest-benchmark files written without stats.data, Google Benchmark with
// --benchmark_report_aggregates_only, one number per commit in Otava's CSV layout. Kept apart
// from instances: nothing instance-level (steady state, outliers, bootstrap, A/B verdicts) is
// computed from it; history shows it as a summary point (docs/history.md).
struct SummaryRecord {
  std::string metric;
  int64_t count = 0;  // the measurements summarised; 0 when the source does not say
  double mean = 0;
  std::optional<double> stddev;  // of the measurements, when given
  std::optional<double> median;
  std::optional<double> min;
  std::optional<double> max;
};

class InstanceTable;

struct VariantData {
  VariantRecord variant;
  std::vector<InstanceRecord> instances;
  // Summary statistics, one per metric, of a source that kept no measurements (usually with
  // no instances beside them).
  std::vector<SummaryRecord> summaries;
  // The unit and direction the store holds for each metric its iterations carry (an
  // imported items_per_second is higher-is-better); empty when not read from a store.
  std::vector<MetricInfo> metrics;
  // Set instead of `instances` (then empty) when a store read the run for analysis by column
  // (store::LoadOptions::instance_table): read both through for_each_instance()
  // (core/instance_table.hpp).
  std::shared_ptr<const InstanceTable> table = nullptr;
};

struct RunData {
  int64_t id = 0;
  RunRecord run;
  std::vector<VariantData> variants;
};

// Whether a metric's values can be below zero: times, sizes and rates (units "s", "B",
// ".../s") and every built-in metric cannot; a metric of unknown unit can.
bool never_negative(const std::string& metric, const std::string& unit);

// A value a metric cannot take: not a finite number, or below zero where never_negative.
// "" when the value is fine.
std::string metric_value_problem(const std::string& metric, const std::string& unit, double v);

// Measured values that cannot be: a metric value metric_value_problem rejects, CPU times or
// memory below zero, an end before its start (instance, iteration or run; an end of 0 is
// one not recorded), a summary whose count or spread is negative, whose statistics
// metric_value_problem rejects, whose minimum is above its maximum, or that repeats a metric
// of its variant. The first one found, naming benchmark, variant, instance and iteration.
// `declared` holds the units of metrics that are not built in.
Status check_values(const RunData& data, const std::vector<MetricInfo>& declared = {});

}  // namespace benchguard
