// A one-line progress bar on stderr, redrawn in place; silent when not interactive.
#pragma once

#include <chrono>
#include <ostream>

#include "schedule/runner.hpp"

namespace benchguard::cli {

class ProgressBar {
 public:
  ProgressBar(std::ostream& err, bool enabled) : err_(err), enabled_(enabled) {}
  void operator()(const schedule::ProgressEvent& e);

 private:
  std::ostream& err_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace benchguard::cli
