#include "schedule/runner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "measure/affinity.hpp"
#include "measure/host.hpp"
#include "measure/process.hpp"
#include "measure/protocol.hpp"
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

std::string config_json(const BenchmarkSpec& b, const VariantSpec& v, const std::string& sched) {
  nlohmann::json j;
  j["instances"] = b.instances;
  j["iterations"] = b.iterations;
  j["burn_in"] = b.burn_in;
  j["warmup"] = b.warmup;
  j["timeout_s"] = b.timeout_s;
  j["max_failures"] = b.max_failures;
  j["metrics"] = b.metrics;
  j["schedule"] = sched;
  j["cwd"] = v.cwd;
  return j.dump();
}

std::string resolve_in(const std::string& program, const std::string& cwd) {
  if (program.find('/') != std::string::npos && program.front() != '/' && !cwd.empty())
    return (fs::path(cwd) / program).string();
  return program;
}

}  // namespace

bool RunOutcome::any_failure() const {
  for (const auto& b : benchmarks)
    if (b.instances_failed > 0 || b.abandoned) return true;
  return false;
}

void request_stop() {
  g_stop.store(true);
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
  for (const auto& b : suite.benchmarks) {
    for (const auto& v : b.variants) {
      if (v.command.empty()) return Error{"benchmark '" + b.name + "' has an empty command"};
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

Result<RunOutcome> run_suite(const Suite& suite, store::Store& store, const RunOptions& options,
                             const ProgressFn& progress) {
  BG_TRY(preflight(suite));
  const std::string sched = options.schedule.empty() ? suite.schedule : options.schedule;
  BG_ASSIGN(auto order, make_order(suite, sched, options.seed));

  ScratchDir scratch;
  if (scratch.path().empty()) return Error{"cannot create a temporary directory"};

  RunRecord run;
  run.uuid = new_uuid();
  run.started_at = measure::realtime_ns();
  run.suite = suite.name;
  run.suite_path = suite.path;
  run.hostname = measure::hostname();
  const auto git = measure::git_info(fs::current_path().string());
  run.git_commit = git.commit;
  run.git_branch = git.branch;
  run.git_dirty = git.dirty;
  run.command_line = options.command_line;
  run.labels = options.labels;
  run.artifacts = measure::host_artifacts();
  run.artifacts.emplace_back("schedule", sched);
  if (sched == "randomized") run.artifacts.emplace_back("seed", std::to_string(options.seed));

  BG_ASSIGN(const int64_t run_id, store.begin_run(run));

  // variant ids per (benchmark, variant)
  std::vector<std::vector<int64_t>> variant_ids(suite.benchmarks.size());
  for (size_t bi = 0; bi < suite.benchmarks.size(); ++bi) {
    const auto& b = suite.benchmarks[bi];
    for (const auto& v : b.variants) {
      VariantRecord vr{b.name, v.name, v.command, b.params, v.env, config_json(b, v, sched)};
      BG_ASSIGN(const int64_t id, store.add_variant(run_id, vr));
      variant_ids[bi].push_back(id);
    }
  }

  RunOutcome outcome;
  outcome.run_id = run_id;
  outcome.uuid = run.uuid;
  outcome.status = "complete";
  outcome.benchmarks.resize(suite.benchmarks.size());
  std::vector<int> consecutive_failures(suite.benchmarks.size(), 0);
  for (size_t bi = 0; bi < suite.benchmarks.size(); ++bi)
    outcome.benchmarks[bi].name = suite.benchmarks[bi].name;

  const std::string results_path = scratch.path() + "/results.jsonl";
  const std::string cpus = options.cpus.empty() ? "" : measure::format_cpu_list(options.cpus);
  int done = 0;
  const int total = static_cast<int>(order.size());
  for (int64_t pos = 0; pos < static_cast<int64_t>(order.size()); ++pos) {
    if (g_stop.load()) {
      outcome.status = "interrupted";
      break;
    }
    const Slot& slot = order[pos];
    const auto& b = suite.benchmarks[slot.benchmark];
    const auto& v = b.variants[slot.variant];
    auto& bo = outcome.benchmarks[slot.benchmark];
    if (bo.abandoned) {
      ++done;
      continue;
    }
    if (progress) progress({done, total, &b, &v, slot.instance, false});

    std::remove(results_path.c_str());
    measure::LaunchSpec spec;
    spec.argv = v.command;
    spec.argv[0] = resolve_in(v.command[0], v.cwd);
    spec.cwd = v.cwd;
    spec.env = instance_env(b, v, slot.instance, results_path);
    spec.timeout_s = b.timeout_s;
    spec.kill_grace_s = options.kill_grace_s;
    spec.cpus = options.cpus;
    spec.counters = options.counters;
    spec.quiet = !options.show_output;

    auto launched = measure::launch(spec);
    if (!launched.ok()) {
      (void)store.finish_run(run_id, measure::realtime_ns(), "failed");
      return Error{fmt::format("benchmark '{}': {}", b.name, launched.error().message)};
    }
    std::string protocol_error;
    std::vector<IterationRecord> reported;
    if (auto parsed = measure::read_protocol_file(results_path); parsed.ok())
      reported = std::move(parsed.value());
    else
      protocol_error = parsed.error().message;

    ++done;
    if (slot.warmup()) continue;

    InstanceRecord rec = make_instance_record(b, slot.instance, launched.value(),
                                              std::move(reported), protocol_error, b.timeout_s);
    rec.order = pos;
    rec.schedule = sched;
    rec.cpus = cpus;
    BG_TRY(store.add_instance(variant_ids[slot.benchmark][slot.variant], rec));

    if (rec.ok()) {
      ++bo.instances_ok;
      consecutive_failures[slot.benchmark] = 0;
    } else {
      ++bo.instances_failed;
      bo.last_failure = rec.failure;
      if (++consecutive_failures[slot.benchmark] >= b.max_failures) bo.abandoned = true;
    }
  }
  if (progress) progress({done, total, nullptr, nullptr, 0, true});
  BG_TRY(store.finish_run(run_id, measure::realtime_ns(), outcome.status));
  return outcome;
}

}  // namespace benchguard::schedule
