// Per-iteration counters (docs/measurement.md): where the kernel allows hardware counters,
// `benchguard run` names the events in BENCHGUARD_COUNTERS
// ("instructions,cycles,branch_misses,cache_misses"); the client opens them on its own thread
// (user space only, as benchguard counts whole instances), reads them just before and just
// after each iteration and reports the differences as the iteration's metrics of those names,
// so that the counts leave out the program's start-up, its set-up and the other iterations.
// Software events ("task_clock" in ns, "page_faults", "context_switches") can be named too: they
// work where hardware counters are refused (a VM without a PMU). An event the kernel refuses,
// or one that did not run during an iteration, is left out of it. Threads the iteration starts
// count once they have ended (the events are inherited); threads started before the client and
// still running are not counted. Header-only, Linux only.
#pragma once

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace benchguard {

// One reading of an event: its count and, for events the kernel multiplexes onto fewer
// hardware counters, the nanoseconds it was enabled and actually counting.
struct CounterValue {
  uint64_t value = 0;
  uint64_t enabled_ns = 0;
  uint64_t running_ns = 0;
};

// What IterationCounters reads: the kernel's perf events (PerfCounterSource) or, in tests, a
// fake under the same interface.
class CounterSource {
 public:
  virtual ~CounterSource() = default;
  // The events opened, in the order read() gives them.
  virtual const std::vector<std::string>& names() const = 0;
  // The current reading of each event; nullopt for one that could not be read.
  virtual std::vector<std::optional<CounterValue>> read() = 0;
};

// The events of a comma-separated list of names, opened on the calling thread. A name not known
// here, or refused by the kernel, is left out.
class PerfCounterSource final : public CounterSource {
 public:
  explicit PerfCounterSource(const std::string& list) {
    std::size_t from = 0;
    while (from <= list.size()) {
      std::size_t comma = list.find(',', from);
      if (comma == std::string::npos) comma = list.size();
      const std::string name = list.substr(from, comma - from);
      from = comma + 1;
      uint32_t type = 0;
      uint64_t config = 0;
      if (!event_of(name, type, config)) continue;
      const int fd = open_event(type, config);
      if (fd < 0) continue;
      fds_.push_back(fd);
      names_.push_back(name);
    }
  }
  ~PerfCounterSource() override {
    for (int fd : fds_) ::close(fd);
  }
  PerfCounterSource(const PerfCounterSource&) = delete;
  PerfCounterSource& operator=(const PerfCounterSource&) = delete;

  const std::vector<std::string>& names() const override { return names_; }

  std::vector<std::optional<CounterValue>> read() override {
    std::vector<std::optional<CounterValue>> out(fds_.size());
    for (std::size_t k = 0; k < fds_.size(); ++k) {
      uint64_t v[3] = {0, 0, 0};  // value, time enabled, time running
      if (::read(fds_[k], v, sizeof v) == static_cast<ssize_t>(sizeof v))
        out[k] = CounterValue{v[0], v[1], v[2]};
    }
    return out;
  }

  // The perf event of a name benchguard reports; false for a name it does not know.
  static bool event_of(const std::string& name, uint32_t& type, uint64_t& config) {
    struct Known {
      const char* name;
      uint32_t type;
      uint64_t config;
    };
    static const Known kKnown[] = {
        {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
        {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
        {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
        {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
        {"task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
        {"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
        {"context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    };
    for (const auto& k : kKnown)
      if (name == k.name) {
        type = k.type;
        config = k.config;
        return true;
      }
    return false;
  }

 private:
  static int open_event(uint32_t type, uint64_t config) {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.inherit = 1;
    // perf_event_paranoid 2 (the usual default) allows user-space counting only.
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1,
                                    static_cast<unsigned long>(PERF_FLAG_FD_CLOEXEC)));
  }

  std::vector<int> fds_;
  std::vector<std::string> names_;
};

class IterationCounters {
 public:
  // The events benchguard names in BENCHGUARD_COUNTERS; none when it is unset.
  IterationCounters() {
    const char* list = std::getenv("BENCHGUARD_COUNTERS");
    if (list != nullptr && *list != '\0') source_ = std::make_unique<PerfCounterSource>(list);
  }
  explicit IterationCounters(std::unique_ptr<CounterSource> source) : source_(std::move(source)) {}

  // True when at least one event is counted.
  bool active() const { return source_ != nullptr && !source_->names().empty(); }

  // Just before the iteration's work.
  void begin() {
    if (active()) before_ = source_->read();
  }

  // Just after it: appends to `metrics` each event's count since begin(), divided by `per` (the
  // calls of a batch), scaled by enabled over running time when the kernel multiplexed it.
  void end(std::vector<std::pair<std::string, double>>& metrics, uint64_t per = 1) {
    if (!active()) return;
    const auto after = source_->read();
    const auto& names = source_->names();
    const double n = static_cast<double>(per == 0 ? 1 : per);
    for (std::size_t k = 0; k < names.size() && k < after.size() && k < before_.size(); ++k) {
      if (!after[k] || !before_[k]) continue;
      const CounterValue& a = *before_[k];
      const CounterValue& b = *after[k];
      if (b.value < a.value || b.running_ns <= a.running_ns) continue;  // did not run
      double count = static_cast<double>(b.value - a.value);
      const uint64_t enabled = b.enabled_ns - a.enabled_ns;
      const uint64_t running = b.running_ns - a.running_ns;
      if (running < enabled) count *= static_cast<double>(enabled) / static_cast<double>(running);
      metrics.emplace_back(names[k], count / n);
    }
  }

 private:
  std::unique_ptr<CounterSource> source_;
  std::vector<std::optional<CounterValue>> before_;
};

}  // namespace benchguard
