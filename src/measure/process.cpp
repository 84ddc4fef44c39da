#include "measure/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "measure/affinity.hpp"
#include "measure/count_library.hpp"
#include "measure/environment.hpp"
#include "measure/exec_resolve.hpp"
#include "measure/launch_options.hpp"
#include "measure/memory_group.hpp"
#include "measure/memory_sampler.hpp"
#include "measure/spawn.hpp"
#include "measure/valgrind_count.hpp"
#include "measure/wait.hpp"

namespace benchguard::measure {
namespace {

// The events a program using the C++ client counts per iteration where hardware counters work
// (BENCHGUARD_COUNTERS): those benchguard counts per instance, under the same names.
constexpr const char* kIterationCounters = "instructions,cycles,branch_misses,cache_misses";

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

class ProcessChild final : public Child {
 public:
  ProcessChild(Spawned spawned, const LaunchSpec& spec, std::optional<TreeSampler> sampler,
               std::optional<ValgrindRun> valgrind, std::optional<MemoryLease> memory)
      : s_(std::move(spawned)),
        timeout_s_(spec.timeout_s),
        grace_s_(spec.kill_grace_s),
        sampler_(sampler),
        valgrind_(std::move(valgrind)),
        memory_(std::move(memory)) {
    // A timeout or memory sampling needs a waitable handle (a plain wait blocks in waitid):
    // the one the child came with, or one asked for now.
    if (s_.pidfd.get() < 0 && (timeout_s_ > 0 || sampler_.has_value()))
      s_.pidfd.reset(static_cast<int>(syscall(SYS_pidfd_open, s_.pid, 0)));
  }

  ~ProcessChild() override {
    if (!reaped_) {
      // Never waited for: do not leave the tree running or a zombie behind.
      signal_group(s_.pid, SIGKILL);
      LaunchResult ignored;
      reap(ignored);
    }
  }

  int pid() const override { return s_.pid; }

  Result<LaunchResult> wait() override {
    if (reaped_) return Error{"instance " + std::to_string(s_.pid) + " was already waited for"};
    LaunchResult r;
    r.start_ns = s_.start_ns;
    r.started_at = s_.started_at;
    const int64_t deadline =
        timeout_s_ > 0 ? s_.start_ns + static_cast<int64_t>(timeout_s_ * 1e9) : -1;
    bool exited = false;
    while (true) {
      // Sleep until the child exits, the timeout passes or the next sample is due.
      int64_t until = deadline;
      const int64_t due = sampler_.has_value() ? sampler_->due_ns() : -1;
      if (due >= 0) until = until < 0 ? due : std::min(until, due);
      if (wait_exit(s_.pid, s_.pidfd.get(), until)) {
        exited = true;
        break;
      }
      if (deadline >= 0 && monotonic_ns() >= deadline) {
        r.timed_out = true;
        signal_group(s_.pid, SIGTERM);
        const int64_t grace_end = monotonic_ns() + static_cast<int64_t>(grace_s_ * 1e9);
        if (grace_s_ <= 0 || !wait_exit(s_.pid, s_.pidfd.get(), grace_end))
          signal_group(s_.pid, SIGKILL);
        break;
      }
      sampler_->sample();
    }
    if (!exited) wait_exit(s_.pid, -1, -1);
    r.end_ns = monotonic_ns();
    reap(r);
    return r;
  }

 private:
  // Reaps the exited child; fills exit status, rusage, memory and counters.
  void reap(LaunchResult& r) {
    // The child is a zombie now, so its pid (the group id) cannot be reused: stray
    // grandchildren still in the group are killed before the instance counts as over.
    kill(-s_.pid, SIGKILL);
    int status = 0;
    rusage ru{};
    while (wait4(s_.pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.user_s = seconds(ru.ru_utime);
    r.sys_s = seconds(ru.ru_stime);
    r.max_rss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
    r.rss_floor_bytes = s_.rss_floor_bytes;

    const MemoryStats mem = sampler_.has_value() ? sampler_->stats() : MemoryStats{};
    r.mem_samples = mem.samples;
    if (mem.samples > 0) {
      // The tree holds at least its largest process, even if sampling missed that moment;
      // but a ru_maxrss within the floor may be benchguard's own size, not the tree's.
      const bool genuine = r.max_rss_bytes > r.rss_floor_bytes;
      r.mem_peak_bytes = genuine ? std::max(mem.peak_bytes, r.max_rss_bytes) : mem.peak_bytes;
      r.mem_avg_bytes = mem.avg_bytes;
    } else {
      r.mem_peak_bytes = r.max_rss_bytes;
      r.mem_avg_bytes = static_cast<double>(r.max_rss_bytes);
    }
    r.mem_source = memory_source_name(MemorySource::kSampled);
    if (memory_.has_value()) {
      // The kernel's own peak of everything the instance started: exact however short it was
      // (the average stays the sampler's, or ru_maxrss).
      if (const auto peak = memory_->peak_bytes()) {
        r.mem_peak_bytes = *peak;
        r.mem_source = memory_source_name(memory_->kind());
      }
      memory_.reset();  // back to the pool, or retired if a process is left in it
    }
    if (valgrind_.has_value() && !r.timed_out) {
      auto counted = valgrind_->counts();
      if (counted.ok()) {
        r.instructions = counted->instructions;
        r.counts = std::move(counted->counts);
      } else {
        r.measure_error = counted.error().message;
      }
    } else if (!s_.counters.empty()) {
      const auto counts = s_.counters.read();
      if (!counts.empty()) r.instructions = counts[0];
      if (counts.size() > 1) r.cycles = counts[1];
      // Then the further events, in hardware_counter_events()' order.
      for (std::size_t k = 2; k < counts.size() && k - 2 < std::size(kHardwareCounts); ++k)
        if (counts[k]) r.counts.emplace_back(kHardwareCounts[k - 2], *counts[k]);
    }
  }

  Spawned s_;
  double timeout_s_ = 0;
  double grace_s_ = 0;
  std::optional<TreeSampler> sampler_;
  std::optional<ValgrindRun> valgrind_;
  std::optional<MemoryLease> memory_;
  bool reaped_ = false;
};

}  // namespace

Result<std::unique_ptr<Child>> start_child(const LaunchSpec& spec, const LaunchOptions& options) {
  if (spec.argv.empty() || spec.argv[0].empty()) return Error{"cannot run an empty command"};
  BG_TRY(validate_env(spec.env));
  std::optional<ValgrindRun> valgrind;
  std::vector<std::string> wrapped;
  KeyValues env_values = spec.env;
  // Hardware counters would count Valgrind's own work.
  const bool hardware = spec.counters && !spec.count_instructions && counters_available();
  // Where they work, a program using the C++ client counts each iteration too
  // (iteration_counters.hpp), unless the suite or the environment names events of its own.
  const bool named = std::getenv("BENCHGUARD_COUNTERS") != nullptr ||
                     std::any_of(spec.env.begin(), spec.env.end(),
                                 [](const auto& kv) { return kv.first == "BENCHGUARD_COUNTERS"; });
  if (hardware && !named) env_values.emplace_back("BENCHGUARD_COUNTERS", kIterationCounters);
  // One that cannot open perf events itself (Python) does so through benchguard's library.
  if (!spec.count_instructions && (hardware || named))
    if (const std::string& lib = count_library(); !lib.empty())
      env_values.emplace_back("BENCHGUARD_COUNT_LIB", lib);
  if (spec.count_instructions) {
    const ChildEnvironment before(spec.env);
    // The benchmark's own name is checked first, so that its errors name it, not valgrind.
    if (spec.argv[0].find('/') == std::string::npos) {
      BG_TRY(resolve_executable(spec.argv[0], before.get("PATH"), spec.cwd));
    }
    BG_ASSIGN(ValgrindRun run, ValgrindRun::prepare(before.get("PATH"), spec.simulate_caches));
    wrapped = run.wrap(spec.argv);
    // Where a program using the C++ client reads its per-iteration counts, and the library
    // through which one that cannot issue client requests (Python) asks for them.
    env_values.emplace_back("BENCHGUARD_CALLGRIND_OUT", run.prefix());
    if (const std::string& lib = count_library(); !lib.empty())
      env_values.emplace_back("BENCHGUARD_COUNT_LIB", lib);
    // Python randomizes its string hashes per process, which moves a program's count by a
    // few in 10,000 from run to run; a fixed seed makes it exact (an explicit one is kept).
    if (before.get("PYTHONHASHSEED") == nullptr) env_values.emplace_back("PYTHONHASHSEED", "0");
    valgrind.emplace(std::move(run));
  }
  const ChildEnvironment env(env_values);
  const std::vector<std::string>& args = valgrind.has_value() ? wrapped : spec.argv;
  const std::string& program = args[0];
  std::string path = program;
  // A name with a '/' goes to exec as is; its errors are explained after a failed spawn.
  if (program.find('/') == std::string::npos) {
    BG_ASSIGN(path, resolve_executable(program, env.get("PATH"), spec.cwd));
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  cpu_set_t cpus;
  if (!spec.cpus.empty()) {
    BG_ASSIGN(cpus, to_cpu_set(spec.cpus));
  }
  UniqueFd out;
  SpawnRequest req;
  req.program = &program;
  req.path = path.c_str();
  req.argv = argv.data();
  req.envp = env.envp();
  req.cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str();
  req.cpus = spec.cpus.empty() ? nullptr : &cpus;
  req.fixed_layout = spec.fixed_layout;
  req.stdin_fd = devnull_fd();
  if (spec.quiet) {
    if (!spec.stdout_path.empty()) {
      out.reset(open(spec.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
      if (out.get() < 0)
        return Error{"cannot write '" + spec.stdout_path + "': " + std::strerror(errno)};
      req.stdout_fd = req.stderr_fd = out.get();
    } else {
      req.stdout_fd = req.stderr_fd = devnull_fd();
    }
  }

  // A memory group of the instance's own (memory_group.hpp); not under Valgrind, whose memory
  // is the simulator's.
  std::optional<MemoryLease> memory;
  if (spec.sample_memory && !spec.count_instructions) {
    memory = MemoryLease::acquire(options.memory_source.value_or(memory_source_from_environment()));
    if (memory.has_value()) req.cgroup_procs_fd = memory->procs_fd();
  }

  const bool fork_path =
      options.method == LaunchMethod::kFork || (options.method == LaunchMethod::kAuto && hardware);
  Result<Spawned> spawned = Error{};
  if (fork_path) {
    std::vector<CounterEvent> events;
    if (options.events.has_value())
      events = *options.events;
    else if (hardware)
      events = hardware_counter_events();
    spawned = spawn_forked(req, events);
  } else {
    spawned = spawn_vfork(req);
  }
  if (!spawned.ok()) return spawned.error();
  std::optional<TreeSampler> sampler;
  if (spec.sample_memory) sampler.emplace(spawned->pid, spawned->start_ns, options.sample_interval);
  return std::unique_ptr<Child>(std::make_unique<ProcessChild>(
      std::move(spawned.value()), spec, sampler, std::move(valgrind), std::move(memory)));
}

Result<std::unique_ptr<Child>> Child::start(const LaunchSpec& spec) {
  return start_child(spec, LaunchOptions{});
}

Result<LaunchResult> launch(const LaunchSpec& spec) {
  BG_ASSIGN(auto child, Child::start(spec));
  return child->wait();
}

}  // namespace benchguard::measure
