// The two clocks of a measurement: monotonic for durations, realtime for when it happened.
#pragma once

#include <time.h>

#include <cstdint>

namespace benchguard::measure {

inline int64_t clock_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline int64_t monotonic_ns() {
  return clock_ns(CLOCK_MONOTONIC);
}
inline int64_t realtime_ns() {
  return clock_ns(CLOCK_REALTIME);
}

}  // namespace benchguard::measure
