#include "cluster/task.hpp"

#include <filesystem>
#include <set>
#include <tuple>

#include "core/atomic_file.hpp"

namespace benchguard::cluster {

namespace fs = std::filesystem;

Result<TaskOutcome> run_task(const Job& job, int attempt, int task, const std::string& command_line,
                             const schedule::ProgressFn& progress) {
  BG_ASSIGN(const Attempt* a, find_task(job, attempt, task));
  BG_ASSIGN(const Suite suite, job_suite(job));
  std::set<std::tuple<int, int, int>> mine;  // (benchmark, variant, instance)
  for (const auto& u : a->units)
    if (u.task == task) mine.insert({u.benchmark, u.variant, u.instance});

  schedule::RunOptions opts;
  opts.schedule = job.schedule;
  opts.seed = job.seed;
  opts.uuid = job.uuid;
  opts.labels = job.labels;
  opts.command_line = command_line;
  opts.artifacts.emplace_back("slurm_task", a->slurm_job + "_" + std::to_string(task));
  // scancel and time limits signal the benchmark too: what they cut short is measured again.
  opts.keep_cut_short = false;
  opts.select = [&mine](const schedule::Slot& s) {
    return mine.contains({s.benchmark, s.variant, s.instance});
  };

  TaskOutcome out;
  out.units = static_cast<int>(mine.size());
  out.db = task_db(job, attempt, task);
  std::error_code ec;
  fs::create_directories(attempt_dir(job, attempt), ec);
  // A task Slurm runs again (requeued) starts over: its earlier run holds the same uuid. Its
  // -wal, -shm and instance logs go with it.
  const std::string stem = fs::path(out.db).filename().string();
  for (const auto& entry : fs::directory_iterator(attempt_dir(job, attempt), ec))
    if (entry.path().filename().string().starts_with(stem)) fs::remove(entry.path(), ec);
  store::OpenOptions open;
  open.create = true;
  BG_ASSIGN(auto store, store::open_store(out.db, open));
  BG_ASSIGN(out.run, schedule::run_suite(suite, *store, opts, progress));
  return out;
}

void write_task_exit(const Job& job, int attempt, int task, int code) {
  (void)write_file_atomically(task_exit_file(job, attempt, task), std::to_string(code) + "\n");
}

}  // namespace benchguard::cluster
