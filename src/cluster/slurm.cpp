#include "cluster/slurm.hpp"

#include <charconv>
#include <sstream>

namespace benchguard::cluster {

namespace {

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc{} || p != end) return std::nullopt;
  return v;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

std::string shell_quote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_-./=:,+@%") == std::string::npos)
    return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Status check_script_value(const std::string& what, const std::string& value) {
  if (value.find_first_of(std::string_view("\n\r\0", 3)) == std::string::npos) return ok_status();
  std::string shown;
  for (const char c : value)
    shown += c == '\n'   ? std::string("\\n")
             : c == '\r' ? std::string("\\r")
             : c == '\0' ? std::string("\\0")
                         : std::string(1, c);
  return Error{what + " '" + shown +
               "' holds a line break, which would add a line to the job script"};
}

Status check_script(const ScriptOptions& o) {
  BG_TRY(check_script_value("the job name", o.job_name));
  BG_TRY(check_script_value("--job-dir", o.log_pattern));
  BG_TRY(check_script_value("--partition", o.partition));
  for (const auto& a : o.sbatch_args) BG_TRY(check_script_value("--sbatch-arg", a));
  for (const auto& w : o.command) BG_TRY(check_script_value("the task command", w));
  return ok_status();
}

std::string sbatch_script(const ScriptOptions& o) {
  std::ostringstream s;
  s << "#!/bin/sh\n";
  s << "#SBATCH --job-name=" << shell_quote(o.job_name) << "\n";
  s << "#SBATCH --array=0-" << (o.tasks > 0 ? o.tasks - 1 : 0) << "\n";
  if (!o.log_pattern.empty()) s << "#SBATCH --output=" << shell_quote(o.log_pattern) << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << shell_quote(o.partition) << "\n";
  for (const auto& a : o.sbatch_args) s << "#SBATCH " << a << "\n";
  s << "exec";
  for (const auto& w : o.command) s << " " << shell_quote(w);
  s << "\n";
  return s.str();
}

Result<std::string> parse_sbatch_output(const std::string& out) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    const std::string id = line.substr(0, line.find(';'));
    if (!id.empty() && to_int(id)) return id;
  }
  return Error{"sbatch printed no job id: '" + trim(out) + "'"};
}

std::string to_string(TaskState state) {
  switch (state) {
    case TaskState::kPending:
      return "pending";
    case TaskState::kRunning:
      return "running";
    case TaskState::kDone:
      return "done";
    case TaskState::kFailed:
      return "failed";
    case TaskState::kUnknown:
      break;
  }
  return "unknown";
}

TaskState from_slurm_state(const std::string& word) {
  const std::string w = trim(word.substr(0, word.find(' ')));  // "CANCELLED by 0"
  if (w == "PENDING" || w == "REQUEUED" || w == "CONFIGURING" || w == "REQUEUE_HOLD" ||
      w == "RESV_DEL_HOLD" || w == "SUSPENDED")
    return TaskState::kPending;
  if (w == "RUNNING" || w == "COMPLETING" || w == "STAGE_OUT" || w == "SIGNALING")
    return TaskState::kRunning;
  if (w == "COMPLETED") return TaskState::kDone;
  if (w == "FAILED" || w == "CANCELLED" || w == "TIMEOUT" || w == "NODE_FAIL" ||
      w == "OUT_OF_MEMORY" || w == "BOOT_FAIL" || w == "DEADLINE" || w == "PREEMPTED" ||
      w == "REVOKED")
    return TaskState::kFailed;
  return TaskState::kUnknown;
}

std::map<int, TaskState> parse_task_states(const std::string& out, const std::string& job) {
  std::map<int, TaskState> states;
  std::istringstream lines(out);
  const std::string prefix = job + "_";
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    const auto bar = line.find('|');
    if (bar == std::string::npos || !line.starts_with(prefix)) continue;
    const std::string task = line.substr(prefix.size(), bar - prefix.size());
    const TaskState state = from_slurm_state(line.substr(bar + 1));
    if (auto t = to_int(task)) {
      states[*t] = state;
      continue;
    }
    // "[2-5%4]" or "[2,4-6]": what is still pending, as ranges.
    if (task.size() < 2 || task.front() != '[' || task.back() != ']') continue;
    std::string ranges = task.substr(1, task.size() - 2);
    ranges = ranges.substr(0, ranges.find('%'));
    std::istringstream parts(ranges);
    for (std::string part; std::getline(parts, part, ',');) {
      const auto dash = part.find('-');
      const auto lo = to_int(part.substr(0, dash));
      const auto hi = dash == std::string::npos ? lo : to_int(part.substr(dash + 1));
      if (!lo || !hi || *hi < *lo || *hi - *lo > 1'000'000) continue;
      for (int t = *lo; t <= *hi; ++t) states[t] = state;
    }
  }
  return states;
}

}  // namespace benchguard::cluster
