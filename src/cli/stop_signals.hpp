// While a StopOnSignals lives, SIGINT and SIGTERM (Ctrl-C, scancel, a time limit) ask the
// runner to stop after the instance in flight (schedule::request_stop); the handlers that were
// there before come back when it ends, on every way out of the command.
#pragma once

#include <signal.h>

#include "schedule/runner.hpp"

namespace benchguard::cli {

class StopOnSignals {
 public:
  StopOnSignals() {
    struct sigaction stop {};
    stop.sa_handler = [](int) { schedule::request_stop(); };
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = SA_RESTART;  // as signal() sets it: waits go on after the handler
    sigaction(SIGINT, &stop, &old_int_);
    sigaction(SIGTERM, &stop, &old_term_);
  }
  ~StopOnSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace benchguard::cli
