#include "schedule/runner.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "benchguard/barrier.hpp"
#include "core/json_error.hpp"
#include "ingest/ingest.hpp"
#include "measure/affinity.hpp"
#include "measure/exec_resolve.hpp"
#include "measure/host.hpp"
#include "measure/process.hpp"
#include "measure/protocol.hpp"
#include "measure/valgrind_count.hpp"
#include "schedule/hooks.hpp"
#include "schedule/instance.hpp"
#include "schedule/order.hpp"

namespace benchguard::schedule {

namespace fs = std::filesystem;

namespace {

std::atomic<bool> g_stop{false};

// A private directory for the results files of this run's instances.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "benchguard-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The seed of one instance's layout: distinct per benchmark, variant and instance.
uint64_t layout_seed(uint64_t seed, int benchmark, int variant, int instance) {
  uint64_t x = seed;
  for (const int part : {benchmark, variant, instance}) {
    x ^= static_cast<uint64_t>(static_cast<int64_t>(part)) + 0x9e3779b97f4a7c15ULL + (x << 6) +
         (x >> 2);
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 31;
  }
  return x;
}

// `counters_said`: an earlier run of this machine in this database was told already.
std::vector<std::string> run_notes(const Suite& suite, const RunOptions& options,
                                   const KeyValues& host, bool counters_said) {
  std::vector<std::string> notes;
  const bool reads_counters =
      std::any_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                  [](const BenchmarkSpec& b) { return !b.counts_instructions(); });
  if (options.counters && reads_counters && !counters_said) {
    if (const std::string why = measure::counters_refusal(); !why.empty())
      notes.push_back("hardware counters refused: " + why +
                      "; instructions, cycles, branch and cache misses are not measured "
                      "(`--measure instructions` counts instructions under Valgrind). Said once "
                      "per database and machine; `benchguard system check` says it again");
  }
  const bool native = std::any_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                                  [](const BenchmarkSpec& b) { return b.layout.empty(); });
  for (const auto& [k, v] : host)
    if (k == "aslr" && v != "full" && native)
      notes.push_back("address randomization is " + v +
                      " here (kernel.randomize_va_space): every instance of a binary gets the "
                      "same stack and heap layout, so a layout difference between A and B can "
                      "pass for a change (--randomize-layout varies it per instance)");
  return notes;
}

std::string resolve_in(const std::string& program, const std::string& cwd) {
  if (program.find('/') != std::string::npos && program.front() != '/' && !cwd.empty())
    return (fs::path(cwd) / program).string();
  return program;
}

}  // namespace

bool RunOutcome::any_failure() const {
  for (const auto& b : benchmarks)
    if (b.instances_failed > 0 || b.abandoned || !b.stopped.empty()) return true;
  return false;
}

bool RunOutcome::nothing_measured() const {
  bool failed = false;
  for (const auto& b : benchmarks) {
    if (b.instances_ok > 0) return false;
    failed = failed || b.instances_failed > 0;
  }
  return failed;
}

void request_stop() {
  g_stop.store(true);
}

bool stop_requested() {
  return g_stop.load();
}

std::string new_uuid() {
  std::random_device rd;
  std::uniform_int_distribution<uint32_t> byte(0, 255);
  unsigned char u[16];
  for (auto& c : u) c = static_cast<unsigned char>(byte(rd));
  u[6] = static_cast<unsigned char>((u[6] & 0x0f) | 0x40);
  u[8] = static_cast<unsigned char>((u[8] & 0x3f) | 0x80);
  std::string s;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += fmt::format("{:02x}", u[i]);
  }
  return s;
}

Status preflight(const Suite& suite) {
  if (suite.benchmarks.size() > kMaxBenchmarks)
    return Error{fmt::format("the suite has {} benchmarks, above the limit of {}",
                             suite.benchmarks.size(), kMaxBenchmarks)};
  for (const auto& b : suite.benchmarks) {
    if (auto counts = check_counts(b); !counts.ok()) {
      const std::string where =
          suite.path.empty() ? "" : suite.path + ":" + std::to_string(b.line) + ": ";
      return Error{where + counts.error().message};
    }
    for (const auto& v : b.variants) {
      if (v.command.empty()) return Error{"benchmark '" + b.name + "' has an empty command"};
      if (b.google_benchmark() && v.command.size() == 3 && v.command[0] == "/bin/sh" &&
          v.command[1] == "-c")
        return Error{(suite.path.empty() ? "" : suite.path + ":" + std::to_string(b.line) + ": ") +
                     "benchmark '" + b.name +
                     "': format: google-benchmark runs the binary itself; give its command as "
                     "a list, without shell: true"};
      if (!v.cwd.empty() && !fs::is_directory(v.cwd))
        return Error{
            fmt::format("benchmark '{}': working directory '{}' does not exist", b.name, v.cwd)};
      auto exe = measure::resolve_executable(resolve_in(v.command[0], v.cwd));
      if (!exe.ok()) {
        std::string where =
            suite.path.empty() ? "" : suite.path + ":" + std::to_string(b.line) + ": ";
        return Error{where + "benchmark '" + b.name + "': " + exe.error().message};
      }
    }
  }
  return ok_status();
}

namespace {

// What one launched instance left behind, before it becomes an InstanceRecord.
struct Measured {
  measure::LaunchResult launch;
  std::vector<IterationRecord> reported;
  std::string protocol_error;
  std::vector<MetricInfo> declared;  // metric units and directions the results file declared
  // Hooks around it (RunHooks): their times and the failure of one, if any.
  double prepare_s = 0;
  double conclude_s = 0;
  std::string hook_failure;
  bool ran = true;    // false: its prepare failed and it was not launched
  bool store = true;  // false: the other side of a pair whose prepare failed
};

// The instance that did not run because its prepare failed.
Measured not_run(const measure::HookResult& prepare) {
  Measured m;
  m.launch.start_ns = m.launch.end_ns = measure::monotonic_ns();
  m.launch.started_at = measure::realtime_ns();
  m.prepare_s = prepare.seconds;
  m.hook_failure = prepare.failure("prepare");
  m.ran = false;
  return m;
}

// The conclude hook's time and failure on what it followed.
void concluded(Measured& m, const std::optional<measure::HookResult>& conclude) {
  if (!conclude) return;
  m.conclude_s = conclude->seconds;
  if (!conclude->ok()) m.hook_failure = conclude->failure("conclude");
}

// Where a Google Benchmark binary is told to write its JSON, beside the protocol file.
std::string gbench_out(const std::string& results_path) {
  return results_path + ".gbench.json";
}

// Reads what the instance reported and removes the file, so the next instance starts without
// one. A benchmark that reports nothing leaves no file: nothing to remove.
Measured collect(const measure::LaunchResult& launch, const std::string& results_path,
                 bool google_benchmark) {
  Measured m;
  m.launch = launch;
  if (google_benchmark) {
    // Whatever the binary wrote; nothing when it died before writing (the instance failed).
    const std::string out = gbench_out(results_path);
    std::ifstream in(out, std::ios::binary);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      auto parsed = ingest::google_benchmark_iterations(out, text.str());
      if (parsed.ok())
        m.reported = std::move(parsed.value());
      else if (launch.exit_code == 0)
        m.protocol_error = parsed.error().message;
    }
    std::remove(out.c_str());
    return m;
  }
  auto parsed = measure::read_protocol_file(results_path, &m.declared);
  if (parsed.ok())
    m.reported = std::move(parsed.value());
  else
    m.protocol_error = parsed.error().message;
  if (!parsed.ok() || !m.reported.empty()) std::remove(results_path.c_str());
  return m;
}

// The two sides of a concurrent pair run on CPUs of their own: the two halves of --cpus, or
// the first two CPUs this process may use.
Result<std::pair<std::vector<int>, std::vector<int>>> duet_cpus(const std::vector<int>& cpus) {
  std::vector<int> pool = cpus.empty() ? measure::usable_cpus() : cpus;
  if (pool.size() < 2)
    return Error{cpus.empty() ? "a duet runs A and B on CPUs of their own, but this process may "
                                "use only one CPU"
                              : "a duet runs A and B on CPUs of their own; give --cpus at "
                                "least two CPUs"};
  if (cpus.empty()) pool.resize(2);
  const auto half = static_cast<std::ptrdiff_t>(pool.size() / 2);
  return std::pair{std::vector<int>(pool.begin(), pool.begin() + half),
                   std::vector<int>(pool.begin() + half, pool.begin() + 2 * half)};
}

// Starts both sides of a concurrent pair, the first in start order first, and waits for
// both. When one side ends the barrier breaks, so the other never waits for it.
Result<std::vector<Measured>> run_together(std::vector<measure::LaunchSpec> specs,
                                           const std::vector<std::string>& results,
                                           const std::vector<std::string>& formats,
                                           const std::string& barrier_name) {
  SharedBarrier barrier;
  if (!barrier_name.empty()) {
    barrier = SharedBarrier::create(barrier_name, 2);
    if (!barrier.valid())
      return Error{fmt::format("cannot create the shared-memory barrier {}: {}", barrier_name,
                               std::strerror(errno))};
    for (auto& spec : specs) spec.env.emplace_back("BENCHGUARD_BARRIER", barrier_name);
  }
  BG_ASSIGN(auto first, measure::Child::start(specs[0]));
  auto second = measure::Child::start(specs[1]);
  if (!second.ok()) {
    barrier.break_barrier();
    (void)first->wait();
    return second.error();
  }
  // Each side is waited for (and its memory sampled) by a thread of its own on that side's
  // CPUs, so benchguard's own work lands on both sides alike.
  std::unique_ptr<measure::Child> children[2] = {std::move(first), std::move(second.value())};
  std::optional<Result<measure::LaunchResult>> waited[2];
  std::vector<std::thread> waiters;
  waiters.reserve(2);
  for (int k = 0; k < 2; ++k)
    waiters.emplace_back([&, k] {
      if (auto set = measure::to_cpu_set(specs[k].cpus); set.ok() && !specs[k].cpus.empty())
        (void)pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &set.value());
      waited[k].emplace(children[k]->wait());
      barrier.break_barrier();
    });
  for (auto& w : waiters) w.join();
  std::vector<Measured> out;
  for (int k = 0; k < 2; ++k) {
    if (!waited[k]->ok()) return waited[k]->error();
    out.push_back(
        collect(waited[k]->value(), results[k], formats[k] == BenchmarkSpec::kGoogleBenchmark));
  }
  return out;
}

// The steps of a shard: the measured ones whose instances `select` all accepts, and the
// warmups of the benchmarks and variants that have any of them.
std::vector<Step> select_steps(std::vector<Step> order,
                               const std::function<bool(const Slot&)>& select) {
  std::set<std::pair<int, int>> kept;  // (benchmark, variant) with a measured instance
  auto measured = [&](const Step& step) {
    return std::all_of(step.slots.begin(), step.slots.end(), select);
  };
  for (const auto& step : order)
    if (!step.warmup() && measured(step))
      for (const auto& slot : step.slots) kept.insert({slot.benchmark, slot.variant});
  std::vector<Step> out;
  for (auto& step : order) {
    const bool keep = step.warmup() ? std::any_of(step.slots.begin(), step.slots.end(),
                                                  [&](const Slot& s) {
                                                    return kept.contains({s.benchmark, s.variant});
                                                  })
                                    : measured(step);
    if (keep) out.push_back(std::move(step));
  }
  return out;
}

// Instances shorter than this are stored batched (add_instance_batched).
constexpr int64_t kBatchBelowNs = 10'000'000;

// The run about to start: its suite, host and git facts, labels and artifacts.
RunRecord new_record(const Suite& suite, const RunOptions& options, const std::string& sched) {
  RunRecord run;
  run.uuid = options.uuid.empty() ? new_uuid() : options.uuid;
  run.started_at = measure::realtime_ns();
  run.suite = suite.name;
  run.suite_path = suite.path;
  run.hostname = measure::hostname();
  const auto git =
      options.git.valid() ? options.git.get() : measure::git_info(fs::current_path().string());
  run.git_commit = git.commit;
  run.git_branch = git.branch;
  run.git_dirty = git.dirty;
  run.command_line = options.command_line;
  run.labels = options.labels;
  run.artifacts = measure::host_artifacts();
  if (git.commit_time > 0)
    run.artifacts.emplace_back("git_commit_time", std::to_string(git.commit_time));
  if (!git.author.empty()) run.artifacts.emplace_back("git_author", git.author);
  run.artifacts.emplace_back("schedule", sched);
  run.artifacts.emplace_back("seed", std::to_string(options.seed));
  run.artifacts.insert(run.artifacts.end(), options.artifacts.begin(), options.artifacts.end());
  return run;
}

}  // namespace

Result<RunOutcome> run_suite(const Suite& declared, store::Store& store, const RunOptions& options,
                             const ProgressFn& progress) {
  BG_TRY(preflight(declared));
  if (std::any_of(declared.benchmarks.begin(), declared.benchmarks.end(),
                  [](const BenchmarkSpec& b) { return b.counts_instructions(); })) {
    BG_TRY(measure::valgrind_available(std::getenv("PATH")));
  }
  const std::string sched = options.schedule.empty() ? declared.schedule : options.schedule;
  BG_ASSIGN(const Suite suite, pair_variants(declared, sched));
  BG_ASSIGN(auto order, make_order(suite, sched, options.seed));
  if (options.select) order = select_steps(std::move(order), options.select);
  bool any_concurrent = false;
  for (const auto& step : order) any_concurrent = any_concurrent || step.concurrent();
  std::pair<std::vector<int>, std::vector<int>> side_cpus;
  if (any_concurrent) {
    BG_ASSIGN(side_cpus, duet_cpus(options.cpus));
  }

  ScratchDir scratch;
  if (scratch.path().empty()) return Error{"cannot create a temporary directory"};
  // Declared after the suite and before any early return: the cleanups due run however the
  // run ends.
  RunHooks hooks(suite, order, options.show_output);

  const RunRecord run = new_record(suite, options, sched);
  BG_ASSIGN(const int64_t run_id, store.begin_run(run));
  if (std::any_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                  [](const BenchmarkSpec& b) { return b.google_benchmark(); }))
    BG_TRY(store.declare_metrics(ingest::google_benchmark_metrics()));

  // variant ids per (benchmark, variant)
  std::vector<std::vector<int64_t>> variant_ids(suite.benchmarks.size());
  for (size_t bi = 0; bi < suite.benchmarks.size(); ++bi) {
    const auto& b = suite.benchmarks[bi];
    for (const auto& v : b.variants) {
      VariantRecord vr{b.name,   v.name, v.command,
                       b.params, v.env,  variant_config_json(b, v, sched)};
      BG_ASSIGN(const int64_t id, store.add_variant(run_id, vr));
      variant_ids[bi].push_back(id);
    }
  }

  RunOutcome outcome;
  bool counters_said = false;
  for (const auto& [k, v] : run.artifacts)
    if (k == "hostname") {
      BG_ASSIGN(counters_said, store.artifact_seen(v, "hardware_counters", "unavailable", run_id));
    }
  outcome.notes = run_notes(suite, options, run.artifacts, counters_said);
  outcome.run_id = run_id;
  outcome.uuid = run.uuid;
  outcome.status = "complete";
  outcome.benchmarks.resize(suite.benchmarks.size());
  std::vector<int> consecutive_failures(suite.benchmarks.size(), 0);
  std::vector<MetricInfo> declared_metrics;  // declared to the store during this run
  for (size_t bi = 0; bi < suite.benchmarks.size(); ++bi)
    outcome.benchmarks[bi].name = suite.benchmarks[bi].name;

  const std::string cpus = options.cpus.empty() ? "" : measure::format_cpu_list(options.cpus);
  auto spec_for = [&](const Slot& slot, const std::string& results_path,
                      const std::vector<int>& pin) {
    const auto& b = suite.benchmarks[slot.benchmark];
    const auto& v = b.variants[slot.variant];
    measure::LaunchSpec spec;
    spec.argv = v.command;
    spec.argv[0] = resolve_in(v.command[0], v.cwd);
    if (b.google_benchmark()) {
      spec.argv.push_back("--benchmark_repetitions=" + std::to_string(b.burn_in + b.iterations));
      spec.argv.push_back("--benchmark_out=" + gbench_out(results_path));
      spec.argv.push_back("--benchmark_out_format=json");
    }
    spec.cwd = v.cwd;
    spec.env = instance_env(b, v, slot.instance, results_path);
    apply_layout(b.layout, layout_seed(options.seed, slot.benchmark, slot.variant, slot.instance),
                 spec.env, spec);
    spec.timeout_s = b.timeout_s;
    spec.kill_grace_s = options.kill_grace_s;
    spec.cpus = pin;
    spec.counters = options.counters;
    spec.count_instructions = b.counts_instructions();
    spec.simulate_caches = b.simulates_caches();
    spec.quiet = !options.show_output;
    return spec;
  };
  auto abort_run = [&](const BenchmarkSpec& b, const Error& e) -> Error {
    (void)store.finish_run(run_id, measure::realtime_ns(), "failed");
    return Error{fmt::format("benchmark '{}': {}", b.name, e.message)};
  };

  int done = 0;
  int total = 0;
  for (const auto& step : order) total += static_cast<int>(step.slots.size());
  for (int64_t pos = 0; pos < static_cast<int64_t>(order.size()); ++pos) {
    if (g_stop.load()) {
      outcome.status = "interrupted";
      break;
    }
    const Step& step = order[pos];
    const int bi = step.slots.front().benchmark;
    const auto& b = suite.benchmarks[bi];
    auto& bo = outcome.benchmarks[bi];
    const int slots = static_cast<int>(step.slots.size());
    if (bo.abandoned || bo.decided) {
      done += slots;
      continue;
    }
    // A variant's setup before its first instance; one whose setup failed runs no instance,
    // nor does a pair with it.
    std::vector<Slot> live;
    for (const Slot& slot : step.slots) {
      const std::string failed = hooks.setup(slot);
      if (failed.empty()) {
        live.push_back(slot);
        continue;
      }
      const std::string what =
          fmt::format("variant '{}' not run: {}", b.variants[slot.variant].name, failed);
      if (std::find(bo.stopped.begin(), bo.stopped.end(), what) == bo.stopped.end())
        bo.stopped.push_back(what);
    }
    if (live.empty() || (live.size() < step.slots.size() && step.concurrent())) {
      for (const Slot& slot : step.slots) hooks.done(slot);
      done += slots;
      continue;
    }
    if (progress)
      progress({done, total, &b, &b.variants[step.slots.front().variant],
                step.slots.front().instance, false, bi, static_cast<int>(suite.benchmarks.size()),
                b.instances});

    std::vector<Measured> measured;
    std::vector<std::string> pins;
    // Both sides of a pair prepared first; when one side's prepare fails, that instance
    // fails and the pair does not run.
    std::vector<std::optional<measure::HookResult>> prepared;
    if (step.concurrent())
      for (const Slot& slot : live) prepared.push_back(hooks.prepare(slot));
    const auto prepare_failed = [](const std::optional<measure::HookResult>& h) {
      return h && !h->ok();
    };
    if (step.concurrent() && std::any_of(prepared.begin(), prepared.end(), prepare_failed)) {
      for (const auto& h : prepared) {
        measured.push_back(prepare_failed(h) ? not_run(*h) : Measured{});
        measured.back().store = prepare_failed(h);
        pins.push_back("");
      }
    } else if (step.concurrent()) {
      std::vector<measure::LaunchSpec> specs;
      std::vector<std::string> results;
      for (std::size_t k = 0; k < live.size(); ++k) {
        const Slot& slot = live[k];
        // A on the first CPU set and B on the second, or swapped (balanced over the pairs).
        const bool first_set = (slot.variant == 0) != step.swap_cpus;
        const auto& pin = first_set ? side_cpus.first : side_cpus.second;
        results.push_back(scratch.path() + "/results-" + std::to_string(k) + ".jsonl");
        specs.push_back(spec_for(slot, results.back(), pin));
        pins.push_back(measure::format_cpu_list(pin));
      }
      const std::string barrier =
          step.synchronized() ? fmt::format("/benchguard-{}-{}", getpid(), pos) : "";
      const std::vector<std::string> formats(specs.size(), b.format);
      auto together = run_together(std::move(specs), results, formats, barrier);
      if (!together.ok()) return abort_run(b, together.error());
      measured = std::move(together.value());
      for (std::size_t k = 0; k < live.size(); ++k) {
        if (prepared[k]) measured[k].prepare_s = prepared[k]->seconds;
        concluded(measured[k], hooks.conclude(live[k]));
      }
    } else {
      const std::string results = scratch.path() + "/results.jsonl";
      for (const Slot& slot : live) {
        pins.push_back(cpus);
        const auto prepare = hooks.prepare(slot);
        if (prepare_failed(prepare)) {
          measured.push_back(not_run(*prepare));
          continue;
        }
        auto launched = measure::launch(spec_for(slot, results, options.cpus));
        if (!launched.ok()) return abort_run(b, launched.error());
        measured.push_back(collect(launched.value(), results, b.google_benchmark()));
        if (prepare) measured.back().prepare_s = prepare->seconds;
        concluded(measured.back(), hooks.conclude(slot));
      }
    }
    for (const Slot& slot : step.slots) hooks.done(slot);
    done += slots;
    // A SIGTERM benchguard did not send (no timeout) is the stop's, even when it reached the
    // benchmark before benchguard's own handler ran.
    const bool cut_short =
        g_stop.load() || std::any_of(measured.begin(), measured.end(), [](const Measured& m) {
          return m.launch.signal == SIGTERM && !m.launch.timed_out;
        });
    if (!options.keep_cut_short && cut_short) {
      outcome.status = "interrupted";
      break;
    }
    if (step.warmup()) continue;

    for (std::size_t k = 0; k < live.size(); ++k) {
      const Slot& slot = live[k];
      if (!measured[k].store) continue;
      // Units and directions go in before the first values of their metrics: the store keeps
      // the first it is told.
      std::vector<MetricInfo> fresh;
      for (auto& d : measured[k].declared)
        if (std::none_of(declared_metrics.begin(), declared_metrics.end(),
                         [&](const MetricInfo& m) { return m.name == d.name; }))
          fresh.push_back(d);
      if (!fresh.empty()) {
        BG_TRY(store.declare_metrics(fresh));
        declared_metrics.insert(declared_metrics.end(), fresh.begin(), fresh.end());
      }
      InstanceRecord rec = make_instance_record(b, slot.instance, measured[k].launch,
                                                std::move(measured[k].reported),
                                                measured[k].protocol_error, b.timeout_s);
      if (!measured[k].hook_failure.empty())
        add_hook_failure(rec, measured[k].hook_failure, measured[k].ran);
      rec.prepare_s = measured[k].prepare_s;
      rec.conclude_s = measured[k].conclude_s;
      rec.order = pos;
      rec.schedule = step.schedule;
      rec.schedule_tag = step.start_order();
      rec.cpus = pins[k];
      // A commit costs about 30 µs: for an instance shorter than 10 ms (0.3% of it) the
      // store logs it with one write and commits it with the next ones (store.hpp).
      const bool short_instance = rec.end_ns - rec.start_ns < kBatchBelowNs;
      BG_TRY(short_instance ? store.add_instance_batched(variant_ids[bi][slot.variant], rec)
                            : store.add_instance(variant_ids[bi][slot.variant], rec));

      if (rec.ok()) {
        ++bo.instances_ok;
        consecutive_failures[bi] = 0;
      } else {
        ++bo.instances_failed;
        bo.last_failure = rec.failure;
        if (++consecutive_failures[bi] >= b.max_failures) bo.abandoned = true;
      }
    }
    if (options.after_step && !bo.abandoned && options.after_step(bi)) bo.decided = true;
    if (bo.abandoned || bo.decided) hooks.end_benchmark(bi);
  }
  hooks.finish();
  for (const auto& w : hooks.warnings()) outcome.notes.push_back(w);
  if (progress) progress({done, total, nullptr, nullptr, 0, true});
  if (outcome.status == "complete" &&
      (outcome.nothing_measured() || (options.failed_on_failure && outcome.any_failure())))
    outcome.status = "failed";
  BG_TRY(store.finish_run(run_id, measure::realtime_ns(), outcome.status,
                          options.final_artifacts ? options.final_artifacts() : KeyValues{}));
  return outcome;
}

Result<int64_t> store_failed_run(const Suite& suite, store::Store& store,
                                 const RunOptions& options) {
  const RunRecord run =
      new_record(suite, options, options.schedule.empty() ? suite.schedule : options.schedule);
  BG_ASSIGN(const int64_t run_id, store.begin_run(run));
  BG_TRY(store.finish_run(run_id, measure::realtime_ns(), "failed"));
  return run_id;
}

}  // namespace benchguard::schedule
