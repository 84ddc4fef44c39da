#include "cluster/slurm_commands.hpp"

#include "measure/capture.hpp"
#include "measure/exec_resolve.hpp"

namespace benchguard::cluster {

namespace {

// Standard error joined to the output: sbatch says why it refused there.
Result<measure::Captured> run_joined(const std::vector<std::string>& argv) {
  std::string script = "exec";
  for (const auto& a : argv) script += " " + shell_quote(a);
  return measure::capture_output({"/bin/sh", "-c", script + " 2>&1"});
}

}  // namespace

Result<std::string> sbatch(const std::string& script_path) {
  if (!measure::resolve_executable("sbatch").ok())
    return Error{
        "sbatch not found: submit from a machine of the Slurm cluster (a login node), "
        "or put Slurm's commands on PATH"};
  BG_ASSIGN(const auto done, run_joined({"sbatch", "--parsable", script_path}));
  std::string said = done.out;
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
  for (auto& c : said)
    if (c == '\n') c = ' ';
  if (done.exit_code != 0)
    return Error{"sbatch refused " + script_path + " (exit " + std::to_string(done.exit_code) +
                 "): " + said};
  return parse_sbatch_output(done.out);
}

std::map<int, TaskState> slurm_task_states(const std::string& job) {
  std::map<int, TaskState> states;
  if (job.empty()) return states;
  if (measure::resolve_executable("sacct").ok()) {
    auto acct =
        measure::capture_output({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State"});
    if (acct.ok() && acct->exit_code == 0) states = parse_task_states(acct->out, job);
  }
  // squeue is current where sacct lags: it wins for the tasks it lists.
  if (measure::resolve_executable("squeue").ok()) {
    auto queue =
        measure::capture_output({"squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%i|%T"});
    if (queue.ok() && queue->exit_code == 0)
      for (const auto& [task, state] : parse_task_states(queue->out, job)) states[task] = state;
  }
  return states;
}

}  // namespace benchguard::cluster
