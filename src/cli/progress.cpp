#include "cli/progress.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/names.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

ProgressMode progress_mode(const Context& ctx) {
  if (ctx.globals.quiet) return ProgressMode::kOff;
  return ctx.interactive() ? ProgressMode::kBar : ProgressMode::kLines;
}

std::chrono::milliseconds progress_interval() {
  constexpr std::chrono::milliseconds kDefault{30000};
  const char* text = std::getenv("BENCHGUARD_PROGRESS_INTERVAL");
  if (text == nullptr || *text == '\0') return kDefault;
  const auto seconds = parse_duration(text);
  if (!seconds.ok() || !(*seconds > 0) || *seconds > 1e6) return kDefault;
  return std::chrono::milliseconds(std::max<int64_t>(1, std::llround(*seconds * 1000)));
}

std::string clock_text(double seconds) {
  const auto s = static_cast<int64_t>(std::max(0.0, std::floor(seconds)));
  if (s < 3600) return fmt::format("{}:{:02}", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

std::string progress_line(const ProgressState& s) {
  std::string what;
  if (!s.step.empty()) what = escape_text(s.step);
  if (s.running) {
    std::string at;
    if (s.benchmarks > 0) at = fmt::format("benchmark {}/{} ", s.benchmark + 1, s.benchmarks);
    at += escape_text(s.benchmark_name);
    if (!s.variant.empty()) at += ", variant " + escape_text(s.variant);
    if (s.instance < 0)
      at += ", warmup";
    else if (s.instances > 0)
      at += fmt::format(", instance {}/{}", s.instance + 1, s.instances);
    else
      at += fmt::format(", instance {}", s.instance + 1);
    at += fmt::format(" ({}/{} instances done)", s.done, s.total);
    what += (what.empty() ? "" : ": ") + at;
  }
  if (what.empty()) what = "working";
  std::string line =
      fmt::format("benchguard: {}: {}; {} elapsed", s.command, what, clock_text(s.elapsed_s));
  if (s.left_s >= 0) line += ", about " + clock_text(std::ceil(s.left_s)) + " left";
  return line;
}

Progress::Progress(std::ostream& err, ProgressMode mode, ProgressOptions options)
    : err_(err), mode_(mode), options_(std::move(options)), start_(now()) {
  state_.command = options_.command;
  if (mode_ != ProgressMode::kLines || !options_.heartbeat) return;
  // The thread leaves SIGINT and SIGTERM to the others: they stop the run (stop_signals.hpp).
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  thread_ = std::thread([this] { heartbeat(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

Progress::Progress(const Context& ctx, std::string command)
    : Progress(ctx.err, progress_mode(ctx), {std::move(command), progress_interval(), true, {}}) {}

Progress::~Progress() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    if (mode_ == ProgressMode::kBar && drawn_) err_ << "\r\033[K" << std::flush;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Progress::TimePoint Progress::now() const {
  return options_.now ? options_.now() : std::chrono::steady_clock::now();
}

void Progress::operator()(const schedule::ProgressEvent& e) {
  if (mode_ == ProgressMode::kOff) return;
  const TimePoint t = now();
  const std::lock_guard lock(mutex_);
  if (mode_ == ProgressMode::kBar) {
    draw_bar(e, t);
    return;
  }
  ProgressState& s = state_;
  if (e.finished) {
    s.running = false;
    counting_ = false;
    announced_.clear();
    return;
  }
  // A new run (ab --null's second, a run after a step): its own benchmarks and rate.
  if (!s.running || e.done < s.done) {
    announced_.clear();
    counting_ = false;
  }
  if (!counting_) {
    counted_from_ = t;
    counted_done_ = e.done;
    counting_ = true;
  }
  s.running = true;
  s.done = e.done;
  s.total = e.total;
  s.benchmark = e.benchmark_index;
  s.benchmarks = e.benchmarks;
  s.benchmark_name = e.benchmark != nullptr ? e.benchmark->name : "";
  s.variant = e.variant != nullptr ? e.variant->name : "";
  s.instance = e.instance;
  s.instances = e.instances;
  const bool first = announced_.insert(e.benchmark_index).second;
  if (first && long_work(t)) write_line(t);
}

void Progress::step(const std::string& what) {
  if (mode_ == ProgressMode::kOff) return;
  const TimePoint t = now();
  const std::lock_guard lock(mutex_);
  state_.step = what;
  state_.running = false;
  counting_ = false;
  announced_.clear();
  if (mode_ == ProgressMode::kBar) {
    err_ << "\r\033[K" << escape_text(what) << std::flush;
    drawn_ = true;
    return;
  }
  if (long_work(t)) write_line(t);
}

void Progress::tick() {
  if (mode_ != ProgressMode::kLines) return;
  const TimePoint t = now();
  const std::lock_guard lock(mutex_);
  if (!long_work(t) || (any_line_ && t - last_line_ < options_.interval)) return;
  write_line(t);
}

void Progress::write_line(TimePoint t) {
  ProgressState s = state_;
  s.elapsed_s = std::chrono::duration<double>(t - start_).count();
  s.left_s = -1;
  if (s.running && counting_ && s.done > counted_done_ && s.total >= s.done)
    s.left_s = std::chrono::duration<double>(t - counted_from_).count() / (s.done - counted_done_) *
               (s.total - s.done);
  err_ << progress_line(s) << "\n" << std::flush;
  last_line_ = t;
  any_line_ = true;
}

void Progress::heartbeat() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const TimePoint due = (any_line_ ? last_line_ : start_) + options_.interval;
    wake_.wait_until(lock, due, [this] { return stopping_; });
    if (stopping_) break;
    const TimePoint t = now();
    if (long_work(t) && (!any_line_ || t - last_line_ >= options_.interval)) write_line(t);
  }
}

void Progress::draw_bar(const schedule::ProgressEvent& e, TimePoint t) {
  if (e.finished) {
    err_ << "\r\033[K" << std::flush;
    drawn_ = false;
    return;
  }
  // Redrawing costs a write; at most 20 a second keeps it off the measurement's back.
  if (t - last_draw_ < std::chrono::milliseconds(50) && e.done != 0) return;
  last_draw_ = t;
  constexpr int kWidth = 24;
  const int filled = e.total > 0 ? e.done * kWidth / e.total : 0;
  const double elapsed = std::chrono::duration<double>(t - start_).count();
  std::string eta = "";
  if (e.done > 0 && e.total > e.done)
    eta = fmt::format(" ETA {:.0f}s", elapsed / e.done * (e.total - e.done));
  const std::string what = e.instance < 0 ? "warmup" : fmt::format("instance {}", e.instance + 1);
  err_ << fmt::format("\r\033[K[{}{}] {}/{} {} {} {}{}", std::string(filled, '#'),
                      std::string(kWidth - filled, '.'), e.done, e.total,
                      e.benchmark ? e.benchmark->name : "", e.variant ? e.variant->name : "", what,
                      eta)
       << std::flush;
  drawn_ = true;
}

}  // namespace benchguard::cli
