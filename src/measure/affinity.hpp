// CPU lists ("0,2-3") and CPU sets for pinning instances.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

#include "core/result.hpp"

namespace benchguard::measure {

// Parses "0,2-3" into {0,2,3}; an Error for bad syntax or CPUs this machine lacks.
Result<std::vector<int>> parse_cpu_list(const std::string& list);

// "0,2-3" for {0,2,3}: the form parse_cpu_list() reads. Expects sorted, distinct CPUs.
std::string format_cpu_list(const std::vector<int>& cpus);

// The CPUs as a cpu_set_t; an Error for numbers a cpu_set_t cannot hold.
Result<cpu_set_t> to_cpu_set(const std::vector<int>& cpus);

// CPUs the calling thread may run on.
std::vector<int> usable_cpus();

}  // namespace benchguard::measure
