// benchguard submit SUITE.yml --slurm [--tasks N] [--partition P] [--sbatch-arg ARG]...
// benchguard submit --resubmit JOB [--tasks N]
#include <fmt/format.h>

#include <filesystem>

#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "cluster/slurm_commands.hpp"
#include "cluster/status.hpp"
#include "cluster/submit.hpp"
#include "core/names.hpp"
#include "measure/process.hpp"

namespace benchguard::cli {

namespace {

struct SubmitFlags {
  cluster::SubmitOptions options;
  bool slurm = false;
  bool seed_set = false;
  std::string resubmit;
  std::vector<std::string> labels;
};

std::string own_binary() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "benchguard" : exe.string();
}

Result<int> do_resubmit(Context& ctx, const SubmitFlags& f) {
  BG_ASSIGN(cluster::Job job, cluster::load_job(f.resubmit));
  BG_ASSIGN(const Suite suite, cluster::job_suite(job));
  BG_ASSIGN(const auto status, cluster::job_status(job, suite, cluster::ask_slurm(job)));
  BG_ASSIGN(const auto attempt,
            cluster::resubmit(job, status, f.options.tasks, cluster::sbatch, f.options.dry_run));
  ctx.err << fmt::format("benchguard: resubmitted {} missing units of {} as {} over {} tasks{}\n",
                         attempt.units.size(), job.dir,
                         attempt.slurm_job.empty() ? "attempt " + std::to_string(attempt.number)
                                                   : "Slurm job " + attempt.slurm_job,
                         attempt.tasks, f.options.dry_run ? " (not sent: --dry-run)" : "");
  ctx.out << job.dir << "\n";
  return 0;
}

Result<int> do_submit(Context& ctx, SubmitFlags& f) {
  if (!f.resubmit.empty()) {
    if (!f.options.suite_path.empty())
      return Error{"give either a suite to submit or --resubmit JOB, not both"};
    return do_resubmit(ctx, f);
  }
  if (f.options.suite_path.empty())
    return Error{"give the suite file to submit (or --resubmit JOB)"};
  if (!f.slurm)
    return Error{"submit needs --slurm: Slurm is the cluster it submits to (docs/cluster.md)"};
  if (!f.seed_set) f.options.seed = static_cast<uint64_t>(measure::realtime_ns());
  BG_ASSIGN(f.options.labels, parse_labels(f.labels));
  f.options.binary = own_binary();
  f.options.db = ctx.globals.db;
  std::vector<std::string> warnings;
  BG_ASSIGN(const cluster::Job job, cluster::submit(f.options, cluster::sbatch, &warnings));
  for (const auto& w : warnings) ctx.err << "benchguard: warning: " << escape_text(w) << "\n";
  const auto& a = job.attempts.front();
  ctx.err << fmt::format(
      "benchguard: {} units of run {} over {} tasks{}; follow with `benchguard status {}`{}\n",
      job.units.size(), job.uuid.substr(0, 8), a.tasks,
      a.slurm_job.empty() ? " (not sent: --dry-run)" : ", Slurm job " + a.slurm_job, job.dir,
      job.db.empty() ? ", then `benchguard collect " + job.dir + "`"
                     : "; the last task stores the run in the database");
  ctx.out << job.dir << "\n";
  return 0;
}

}  // namespace

Action add_submit(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<SubmitFlags>();
  auto* c = app.add_subcommand("submit", "Run a suite as a Slurm job array (docs/cluster.md)");
  c->add_option("suite", f->options.suite_path, "Suite YAML file");
  c->add_flag("--slurm", f->slurm, "Submit to Slurm with sbatch --array");
  c->add_option("--tasks", f->options.tasks, "Array tasks the units are spread over")
      ->check(whole_number("--tasks", 1));
  c->add_option("--partition", f->options.partition, "Slurm partition (default: the cluster's)");
  c->add_option("--sbatch-arg", f->options.sbatch_args,
                "An sbatch option for every task, e.g. --time=30 (repeatable)")
      ->allow_extra_args(false);
  c->add_option("--job-dir", f->options.job_dir,
                "The job folder, on a file system the nodes share (default: slurm-jobs/UUID8)");
  add_schedule(c, f->options.schedule);
  add_plan_file(c, f->options.plan_path);
  add_instances(c, f->options.instances);
  add_iterations(c, f->options.iterations);
  add_seed(c, f->options.seed, f->seed_set);
  add_labels(c, f->labels)->allow_extra_args(false);
  c->add_option("--resubmit", f->resubmit, "Submit again the units job folder JOB has not stored");
  c->add_flag("--dry-run", f->options.dry_run, "Write the job folder and script; do not submit");
  return [&ctx, f]() { return do_submit(ctx, *f); };
}

}  // namespace benchguard::cli
