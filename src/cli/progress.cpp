#include "cli/progress.hpp"

#include <fmt/format.h>

namespace benchguard::cli {

void ProgressBar::operator()(const schedule::ProgressEvent& e) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (e.finished) {
    err_ << "\r\033[K" << std::flush;
    return;
  }
  // Redrawing costs a write; at most 20 a second keeps it off the measurement's back.
  if (now - last_draw_ < std::chrono::milliseconds(50) && e.done != 0) return;
  last_draw_ = now;
  constexpr int kWidth = 24;
  const int filled = e.total > 0 ? e.done * kWidth / e.total : 0;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string eta = "";
  if (e.done > 0 && e.total > e.done)
    eta = fmt::format(" ETA {:.0f}s", elapsed / e.done * (e.total - e.done));
  const std::string what = e.instance < 0 ? "warmup" : fmt::format("instance {}", e.instance + 1);
  err_ << fmt::format("\r\033[K[{}{}] {}/{} {} {} {}{}", std::string(filled, '#'),
                      std::string(kWidth - filled, '.'), e.done, e.total,
                      e.benchmark ? e.benchmark->name : "", e.variant ? e.variant->name : "", what,
                      eta)
       << std::flush;
}

}  // namespace benchguard::cli
