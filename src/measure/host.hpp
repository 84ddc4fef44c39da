// Facts about the machine and the working directory recorded with every run.
#pragma once

#include <string>

#include "core/model.hpp"

namespace benchguard::measure {

struct GitInfo {
  std::string commit;  // empty when not in a repository
  std::string branch;
  bool dirty = false;
};

// hostname, kernel, cpu_model, cpu_count, mem_total_bytes, cpu_governor, turbo,
// load_avg_1m/5m/15m, benchguard_version, compiler, ci_url (when a CI system set one), ...
// Keys whose value cannot be read are left out.
KeyValues host_artifacts();
GitInfo git_info(const std::string& dir);
std::string hostname();

}  // namespace benchguard::measure
