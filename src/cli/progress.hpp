// Progress on standard error while long work runs (docs/output.md, "Progress"): on a terminal
// one bar redrawn in place; without one, or with CI set, plain lines a log keeps; with -q
// nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <ostream>
#include <set>
#include <string>
#include <thread>

#include "cli/app.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cli {

enum class ProgressMode { kOff, kBar, kLines };

// -q: off; CI set (and not "false" or "0") or standard error not a terminal: lines; else the bar.
ProgressMode progress_mode(const Context& ctx);

// BENCHGUARD_PROGRESS_INTERVAL (30s, 500ms, 2m or seconds), else 30 s; a value that is not
// a duration above 0 is ignored.
std::chrono::milliseconds progress_interval();

// What one line says: the step (a commit built, a file read), the instance the runner is at,
// how long the command has worked and about how long the run has left.
struct ProgressState {
  std::string command;   // "run", "ab", ...
  std::string step;      // empty: none
  bool running = false;  // the fields below hold the runner's latest event
  int done = 0;
  int total = 0;
  int benchmark = -1;  // its index in the suite
  int benchmarks = 0;
  std::string benchmark_name;
  std::string variant;
  int instance = 0;  // negative for warmups
  int instances = 0;
  double elapsed_s = 0;
  double left_s = -1;  // negative: not known yet
};
// "benchguard: run: benchmark 2/3 parse, variant new, instance 4/10 (13/60 instances done);
// 1:05 elapsed, about 3:40 left": one line, no control characters.
std::string progress_line(const ProgressState& s);
// 65 -> "1:05", 3725 -> "1:02:05".
std::string clock_text(double seconds);

struct ProgressOptions {
  std::string command;
  // Lines: none before the work has lasted this long (short work says nothing), then one at
  // each benchmark's first instance and each step, and never this long without one.
  std::chrono::milliseconds interval{30000};
  // Lines: a thread writes the line that is due while an instance or a build runs for
  // minutes; without it tick() does (the unit tests, with a clock of their own).
  bool heartbeat = true;
  std::function<std::chrono::steady_clock::time_point()> now;  // empty: the steady clock
};

class Progress {
 public:
  Progress(std::ostream& err, ProgressMode mode, ProgressOptions options);
  // As ctx asks (progress_mode, progress_interval), for `command`.
  Progress(const Context& ctx, std::string command);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The runner's events (schedule::ProgressFn; pass std::ref of this object).
  void operator()(const schedule::ProgressEvent& e);
  // A step outside the runner, which the lines and the bar name until the next one.
  void step(const std::string& what);
  // Lines: writes the line that is due, if one is.
  void tick();
  ProgressMode mode() const { return mode_; }

 private:
  using TimePoint = std::chrono::steady_clock::time_point;
  TimePoint now() const;
  void draw_bar(const schedule::ProgressEvent& e, TimePoint t);
  void write_line(TimePoint now);
  bool long_work(TimePoint t) const { return t - start_ >= options_.interval; }
  void heartbeat();

  std::ostream& err_;
  const ProgressMode mode_;
  const ProgressOptions options_;
  const TimePoint start_;
  std::mutex mutex_;
  ProgressState state_;
  std::set<int> announced_;  // benchmarks whose first instance had its line, this run
  TimePoint counted_from_{};
  int counted_done_ = 0;
  bool counting_ = false;
  TimePoint last_line_{};
  bool any_line_ = false;
  TimePoint last_draw_{};
  bool drawn_ = false;  // the bar is on the screen
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace benchguard::cli
