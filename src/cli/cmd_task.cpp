// benchguard task JOB [--attempt K] [--task T]: what each array task of `submit` runs (hidden).
#include <fmt/format.h>

#include <cstdlib>

#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "cluster/collect.hpp"
#include "cluster/task.hpp"
#include "core/names.hpp"

namespace benchguard::cli {

namespace {

struct TaskFlags {
  std::string job;
  int attempt = 1;
  int task = -1;
};

Result<int> do_task(Context& ctx, const TaskFlags& f) {
  BG_ASSIGN(const cluster::Job job, cluster::load_job(f.job));
  int task = f.task;
  if (task < 0) {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    if (id == nullptr || *id == '\0')
      return Error{"no task: give --task N, or run under Slurm (SLURM_ARRAY_TASK_ID)"};
    task = std::atoi(id);
  }
  BG_TRY(cluster::find_task(job, f.attempt, task));
  // scancel and time limits: stop after the instance in flight.
  const StopOnSignals stop;
  auto outcome = [&] {
    Progress progress(ctx, "task");
    return cluster::run_task(job, f.attempt, task, "benchguard " + ctx.command_line,
                             std::ref(progress));
  }();
  int code = 0;
  if (!outcome.ok()) {
    code = static_cast<int>(outcome.error().code);
    ctx.err << "benchguard: " << escape_text(outcome.error().message) << "\n";
  } else if (outcome->run.status == "interrupted") {
    code = 130;
  } else if (outcome->run.any_failure()) {
    code = static_cast<int>(ExitCode::kBenchmarkFailure);
  }
  if (outcome.ok())
    ctx.err << fmt::format("benchguard: task {} of attempt {}: {} units into {} ({})\n", task,
                           f.attempt, outcome->units, outcome->db, outcome->run.status);
  // The last task of a job with a database stores the whole run there, before its exit code
  // says it is done.
  auto stored = cluster::collect_if_complete(job);
  if (!stored.ok()) {
    ctx.err << "benchguard: storing the job's run: " << escape_text(stored.error().message)
            << "; store it with `benchguard collect " << job.dir << "`\n";
    if (code == 0) code = static_cast<int>(stored.error().code);
  } else if (stored->has_value() && !(*stored)->already) {
    ctx.err << fmt::format(
        "benchguard: every unit is stored: run {} ({} instances) stored in the job's database\n",
        job.uuid.substr(0, 8), (*stored)->units);
  }
  cluster::write_task_exit(job, f.attempt, task, code);
  return code;
}

}  // namespace

Action add_task(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<TaskFlags>();
  auto* c = app.add_subcommand("task", "Run one array task of a submitted job");
  c->group("");  // hidden: sbatch scripts run it
  c->add_option("job", f->job, "Job folder")->required();
  c->add_option("--attempt", f->attempt, "Attempt (1, or a resubmission)")
      ->check(whole_number("--attempt", 1));
  c->add_option("--task", f->task, "Task (default: $SLURM_ARRAY_TASK_ID)")
      ->check(whole_number("--task", 0));
  return [&ctx, f]() { return do_task(ctx, *f); };
}

}  // namespace benchguard::cli
