#include "cluster/submit.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cluster/slurm.hpp"
#include "core/atomic_file.hpp"
#include "core/suite.hpp"
#include "schedule/order.hpp"
#include "schedule/runner.hpp"
#include "store/location.hpp"

namespace benchguard::cluster {

namespace fs = std::filesystem;

namespace {

// Writes attempt `a`'s folder and script and submits it (unless dry_run).
Status send_attempt(Job& job, Attempt& a, const SubmitFn& send, bool dry_run) {
  const std::string dir = attempt_dir(job, a.number);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{"cannot create " + dir + ": " + ec.message()};
  ScriptOptions script;
  script.job_name = "benchguard-" + job.uuid.substr(0, 8);
  script.tasks = a.tasks;
  script.partition = job.partition;
  script.sbatch_args = job.sbatch_args;
  script.log_pattern = dir + "/task-%a.log";
  script.command = {job.binary, "task", job.dir, "--attempt", std::to_string(a.number)};
  const std::string path = dir + "/job.sh";
  BG_TRY(check_script(script));  // a job.json edited by hand is checked again
  BG_TRY(write_file_atomically(path, sbatch_script(script)));
  if (!dry_run) {
    BG_ASSIGN(a.slurm_job, send(path));
  }
  job.attempts.push_back(a);
  return save_job(job);
}

}  // namespace

Result<Job> submit(const SubmitOptions& o, const SubmitFn& send,
                   std::vector<std::string>* warnings) {
  if (o.tasks < 1) return Error{"--tasks must be at least 1"};
  // Every value the job script holds is one line of it.
  BG_TRY(check_script_value("--partition", o.partition));
  BG_TRY(check_script_value("--job-dir", o.job_dir));
  BG_TRY(check_script_value("the benchguard binary", o.binary));
  for (const auto& a : o.sbatch_args) {
    BG_TRY(check_script_value("--sbatch-arg", a));
    if (!a.starts_with("-"))
      return Error{"--sbatch-arg '" + a + "' must be one sbatch option, e.g. --time=30"};
  }
  std::ifstream in(o.suite_path);
  if (!in) return Error{"cannot read " + o.suite_path + ": give the suite file to submit"};
  std::ostringstream text;
  text << in.rdbuf();

  Job job;
  job.uuid = schedule::new_uuid();
  job.seed = o.seed;
  job.suite_path = fs::absolute(o.suite_path).lexically_normal().string();
  job.suite_text = text.str();
  job.instances = o.instances;
  job.iterations = o.iterations;
  job.labels = o.labels;
  job.binary = o.binary;
  if (tasks_can_store(o.db)) {
    if (store::is_postgres_url(o.db)) BG_TRY(store::check_url(o.db));
    if (store::has_password(o.db))
      return Error{
          "the --db URL holds a password, which the job folder would keep; give it "
          "through ~/.pgpass or PGPASSWORD on the nodes instead"};
    job.db = o.db;
  }
  job.partition = o.partition;
  job.sbatch_args = o.sbatch_args;
  BG_ASSIGN(const Suite declared, parse_suite(job.suite_text, job.suite_path));
  if (!o.plan_path.empty()) {
    std::ifstream plan_in(o.plan_path);
    if (!plan_in)
      return Error{"cannot read " + o.plan_path + ": give the plan file `plan -o` wrote"};
    std::ostringstream plan_text;
    plan_text << plan_in.rdbuf();
    job.plan_path = fs::absolute(o.plan_path).lexically_normal().string();
    job.plan_text = plan_text.str();
    BG_ASSIGN(const Plan plan, parse_plan(job.plan_text, job.plan_path));
    if (warnings != nullptr)
      for (const auto& name : unmatched_plan_entries(plan, declared))
        warnings->push_back(o.plan_path + ": plan entry '" + name + "' matches no benchmark");
  }
  job.schedule = o.schedule.empty() ? declared.schedule : o.schedule;
  if (!schedule::is_known_schedule(job.schedule))
    return Error{"unknown schedule '" + job.schedule +
                 "' (known: " + std::string(schedule::kKnownSchedules) + ")"};
  BG_ASSIGN(const Suite suite, job_suite(job));
  BG_TRY(schedule::preflight(suite));
  BG_ASSIGN(job.units, suite_units(suite, job.schedule, job.seed));
  if (job.units.empty()) return Error{o.suite_path + ": the suite has no instance to run"};

  const std::string dir =
      o.job_dir.empty() ? (fs::path("slurm-jobs") / job.uuid.substr(0, 8)).string() : o.job_dir;
  if (fs::exists(fs::path(dir) / "job.json"))
    return Error{dir + " already holds a job; give another --job-dir"};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{"cannot create " + dir + ": " + ec.message()};
  job.dir = fs::absolute(dir).lexically_normal().string();
  BG_TRY(write_file_atomically((fs::path(job.dir) / "suite.yml").string(), job.suite_text));
  Attempt first;
  first.number = 1;
  first.tasks = useful_tasks(job.units, o.tasks);
  first.units = assign_tasks(job.units, first.tasks, job.seed);
  BG_TRY(send_attempt(job, first, send, o.dry_run));
  return job;
}

Result<Attempt> resubmit(Job& job, const JobStatus& status, int tasks, const SubmitFn& send,
                         bool dry_run) {
  if (status.active())
    return Error{job.dir +
                 " still has tasks pending or running; wait for them (benchguard status " +
                 job.dir + ") or cancel them with scancel before resubmitting"};
  if (status.missing.empty())
    return Error{"every unit of " + job.dir +
                 " is stored; nothing to resubmit (collect it with "
                 "`benchguard collect " +
                 job.dir + "`)"};
  Attempt a;
  a.number = job.attempts.empty() ? 1 : job.attempts.back().number + 1;
  const int wanted = tasks > 0 ? tasks : (job.attempts.empty() ? 1 : job.attempts.front().tasks);
  a.tasks = useful_tasks(status.missing, wanted);
  a.units = assign_tasks(status.missing, a.tasks, job.seed + static_cast<uint64_t>(a.number));
  BG_TRY(send_attempt(job, a, send, dry_run));
  return a;
}

}  // namespace benchguard::cluster
