#include "cluster/status.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <tuple>

#include "cluster/slurm_commands.hpp"
#include "store/store.hpp"

namespace benchguard::cluster {

namespace fs = std::filesystem;

namespace {

std::optional<int> read_exit_code(const std::string& path) {
  std::ifstream in(path);
  int code = 0;
  if (in >> code) return code;
  return std::nullopt;
}

using UnitKey = std::tuple<std::string, std::string, int>;  // benchmark, variant, instance

UnitKey key_of(const Suite& suite, const Unit& u) {
  const auto& b = suite.benchmarks.at(static_cast<size_t>(u.benchmark));
  return {b.name, b.variants.at(static_cast<size_t>(u.variant)).name, u.instance};
}

}  // namespace

bool JobStatus::active() const {
  for (const auto& t : tasks)
    if (t.state == TaskState::kPending || t.state == TaskState::kRunning) return true;
  return false;
}

TaskState task_state(std::optional<int> exit_code, std::optional<TaskState> slurm,
                     bool slurm_answered) {
  if (exit_code) return *exit_code == 0 || *exit_code == 3 ? TaskState::kDone : TaskState::kFailed;
  if (slurm) {
    // Ended without writing its exit code: killed (time limit, node failure, scancel).
    if (*slurm == TaskState::kDone) return TaskState::kFailed;
    return *slurm;
  }
  return slurm_answered ? TaskState::kFailed : TaskState::kUnknown;
}

Result<std::optional<RunData>> read_task_run(const std::string& path, const std::string& uuid) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<RunData>{};
  store::OpenOptions opts;
  opts.create = false;
  opts.read_only = true;
  BG_ASSIGN(auto store, store::open_store(path, opts));
  BG_ASSIGN(const auto runs, store->list_runs({.counts = false}));
  for (const auto& r : runs)
    if (r.uuid == uuid) {
      BG_ASSIGN(RunData data, store->load_run(uuid));
      return std::optional<RunData>{std::move(data)};
    }
  return std::optional<RunData>{};
}

Result<JobStatus> job_status(const Job& job, const Suite& suite,
                             const std::map<std::string, std::map<int, TaskState>>& slurm) {
  JobStatus status;
  status.units = static_cast<int>(job.units.size());
  std::set<UnitKey> stored;
  for (const auto& attempt : job.attempts) {
    const auto asked = slurm.find(attempt.slurm_job);
    const bool answered = asked != slurm.end() && !asked->second.empty();
    for (int t = 0; t < attempt.tasks; ++t) {
      TaskReport r;
      r.attempt = attempt.number;
      r.task = t;
      r.slurm_job = attempt.slurm_job;
      std::set<UnitKey> mine;
      for (const auto& u : attempt.units)
        if (u.task == t) mine.insert(key_of(suite, u));
      r.assigned = static_cast<int>(mine.size());
      std::optional<TaskState> said;
      if (answered)
        if (auto it = asked->second.find(t); it != asked->second.end()) said = it->second;
      const auto code = read_exit_code(task_exit_file(job, attempt.number, t));
      r.state = task_state(code, said, answered);
      if (code && *code != 0) r.note = "exit " + std::to_string(*code);
      if (!code && said == TaskState::kDone) r.note = "ended without storing its exit code";
      if (!code && answered && !said) r.note = "Slurm no longer knows it";
      if (!code && attempt.slurm_job.empty()) r.note = "not submitted (--dry-run)";
      auto run = read_task_run(task_db(job, attempt.number, t), job.uuid);
      if (!run.ok()) {
        r.note = run.error().message;
      } else if (run->has_value()) {
        const RunData& data = **run;
        r.host = data.run.hostname;
        for (const auto& v : data.variants)
          for (const auto& i : v.instances) {
            const UnitKey k{v.variant.benchmark, v.variant.name, i.index};
            if (mine.contains(k)) ++r.stored;
            stored.insert(k);
          }
      }
      status.tasks.push_back(std::move(r));
    }
  }
  for (const auto& u : job.units)
    if (!stored.contains(key_of(suite, u))) status.missing.push_back(u);
  return status;
}

Result<JobStatus> wait_for_job(const Job& job, const Suite& suite, double timeout_s,
                               double poll_s) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    BG_ASSIGN(JobStatus status, job_status(job, suite, ask_slurm(job)));
    if (!status.active()) return status;
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeout_s > 0 && waited + poll_s > timeout_s)
      return Error{"tasks of " + job.dir + " still pending or running after " +
                   std::to_string(static_cast<int>(waited)) + " s; see `benchguard status " +
                   job.dir + "`"};
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
}

std::map<std::string, std::map<int, TaskState>> ask_slurm(const Job& job) {
  std::map<std::string, std::map<int, TaskState>> out;
  for (const auto& a : job.attempts)
    if (!a.slurm_job.empty()) out[a.slurm_job] = slurm_task_states(a.slurm_job);
  return out;
}

}  // namespace benchguard::cluster
