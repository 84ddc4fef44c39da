#include "measure/counters.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "measure/process.hpp"
#include "measure/system.hpp"

namespace benchguard::measure {
namespace {

int open_event(const CounterEvent& ev, pid_t pid, bool on_exec) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = ev.type;
  attr.config = ev.config;
  attr.disabled = 1;
  attr.enable_on_exec = on_exec ? 1 : 0;
  attr.inherit = 1;
  // perf_event_paranoid 2 (the usual default) allows user-space counting only.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, pid, -1, -1,
                                  static_cast<unsigned long>(PERF_FLAG_FD_CLOEXEC)));
}

}  // namespace

std::vector<CounterEvent> hardware_counter_events() {
  return {{PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
          {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
          {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
          {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES}};
}

std::string describe_counter_refusal(int err, std::optional<int> paranoid) {
  switch (err) {
    case 0:
      return "";
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return "this machine exposes no hardware performance counters (a VM without a virtual "
             "PMU, or a container that hides it)";
    case EACCES:
    case EPERM:
      if (paranoid && *paranoid > 2)
        return "kernel.perf_event_paranoid is " + std::to_string(*paranoid) +
               " (2 or lower allows it: sysctl kernel.perf_event_paranoid=2)";
      return "perf_event_open is not permitted here (a container without CAP_PERFMON, or a "
             "seccomp filter)";
    default:
      return std::string("perf_event_open: ") + std::strerror(err);
  }
}

std::string counters_refusal() {
  // Many VMs expose no PMU (ENOENT/EOPNOTSUPP); probing once keeps launches on the vfork path.
  static const std::string why = [] {
    const int fd = open_event(hardware_counter_events()[0], 0, false);
    if (fd >= 0) {
      close(fd);
      return std::string();
    }
    const int err = errno;
    std::optional<int> paranoid;
    if (const auto line = SystemRoot().first_line("/proc/sys/kernel/perf_event_paranoid")) {
      int level = 0;
      const auto [end, ec] = std::from_chars(line->data(), line->data() + line->size(), level);
      if (ec == std::errc() && end == line->data() + line->size()) paranoid = level;
    }
    std::string text = describe_counter_refusal(err, paranoid);
    return text.empty() ? std::string("perf_event_open failed") : text;
  }();
  return why;
}

bool counters_available() {
  return counters_refusal().empty();
}

CounterSet::CounterSet(CounterSet&& other) noexcept : fds_(std::move(other.fds_)) {
  other.fds_.clear();
}

CounterSet& CounterSet::operator=(CounterSet&& other) noexcept {
  if (this != &other) {
    close_all();
    fds_ = std::move(other.fds_);
    other.fds_.clear();
  }
  return *this;
}

CounterSet::~CounterSet() {
  close_all();
}

void CounterSet::close_all() {
  for (int fd : fds_)
    if (fd >= 0) close(fd);
  fds_.clear();
}

CounterSet CounterSet::open_on_exec(pid_t pid, const std::vector<CounterEvent>& events) {
  CounterSet set;
  set.fds_.reserve(events.size());
  for (const auto& ev : events) set.fds_.push_back(open_event(ev, pid, true));
  return set;
}

std::vector<std::optional<int64_t>> CounterSet::read() const {
  std::vector<std::optional<int64_t>> out;
  out.reserve(fds_.size());
  for (int fd : fds_) {
    uint64_t v[3] = {0, 0, 0};  // value, time enabled, time running
    if (fd < 0 || ::read(fd, v, sizeof v) != static_cast<ssize_t>(sizeof v) || v[2] == 0) {
      out.emplace_back();
      continue;
    }
    double value = static_cast<double>(v[0]);
    if (v[2] < v[1]) value *= static_cast<double>(v[1]) / static_cast<double>(v[2]);
    out.emplace_back(static_cast<int64_t>(value));
  }
  return out;
}

}  // namespace benchguard::measure
