// Facts about the machine and the working directory recorded with every run.
#pragma once

#include <functional>
#include <future>
#include <string>
#include <string_view>

#include "core/model.hpp"

namespace benchguard::measure {

struct GitInfo {
  std::string commit;  // empty when not in a repository
  std::string branch;
  bool dirty = false;
  int64_t commit_time = 0;  // committer time of `commit`, unix seconds; 0 when unknown
  std::string author;       // of `commit`, "Name <email>" as git shows it; empty when unknown
};

// hostname, kernel, cpu_model, cpu_count, mem_total_bytes, the facts of `system check`
// (cpu_governor, turbo, smt, isolated_cpus, aslr, cpu_quota, ...: measure/system.hpp),
// load_avg_1m/5m/15m, benchguard_version, compiler, ci_url (when a CI system set one), ...
// Keys whose value cannot be read are left out.
KeyValues host_artifacts();
// The commit checked out in `dir` (a worktree of its own for `run --commits`), its branch
// (empty when detached), whether a tracked file changed, its committer time and author.
GitInfo git_info(const std::string& dir);
// git_info on a thread of its own, started now: its git commands (about 10 ms) run while the
// caller does something else, such as opening the store.
std::shared_future<GitInfo> git_info_async(const std::string& dir);
std::string hostname();

// The web page of the CI job running us, from the variables GitHub Actions, GitLab CI,
// Jenkins, Buildkite or CircleCI set; empty outside CI. `getenv` returns nullptr when unset.
std::string ci_url(const std::function<const char*(const char*)>& getenv);
// PRETTY_NAME from the text of /etc/os-release, unquoted.
std::string os_pretty_name(std::string_view os_release);
// The CPU model from the text of /proc/cpuinfo ("model name" on x86).
std::string cpu_model_name(std::string_view cpuinfo);

}  // namespace benchguard::measure
