// Shared by the measure tests: launching through either start path, and checks on pids.
#pragma once

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "measure/launch_options.hpp"
#include "support/test_support.hpp"

namespace benchguard::testing {

inline std::string method_name(measure::LaunchMethod m) {
  return m == measure::LaunchMethod::kFork ? "fork" : "vfork";
}

inline Result<measure::LaunchResult> launch_with(const measure::LaunchSpec& spec,
                                                 measure::LaunchMethod method) {
  measure::LaunchOptions options;
  options.method = method;
  BG_ASSIGN(auto child, measure::start_child(spec, options));
  return child->wait();
}

// True when `pid` no longer runs: gone, or a zombie (an orphan whose reaper, PID 1 in some
// containers, never reaps). Waits up to two seconds for a kill to land.
inline bool process_gone(pid_t pid) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < until) {
    if (kill(pid, 0) != 0) return true;
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Waits up to two seconds for a file that another process writes.
inline std::string wait_for_file(const std::string& path) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < until) {
    std::string text = read_file(path);
    if (!text.empty()) return text;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return "";
}

}  // namespace benchguard::testing
