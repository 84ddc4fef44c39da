// Starting a child process, two ways: vfork-style clone (the lean default) and fork + exec
// with a handshake, which lets perf events be attached to the child before it execs.
// Both give the child its own process group, default signal dispositions, an empty signal
// mask, only descriptors 0-2, and the requested working directory, CPUs and layout.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "measure/counters.hpp"

namespace benchguard::measure {

struct SpawnRequest {
  const std::string* program = nullptr;  // as the user wrote it, for error messages
  const char* path = nullptr;            // resolved file to exec (no PATH search)
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* cwd = nullptr;  // nullptr: inherit
  int stdin_fd = -1;          // -1: inherit; otherwise made descriptor 0 of the child
  int stdout_fd = -1;
  int stderr_fd = -1;
  const cpu_set_t* cpus = nullptr;  // nullptr: inherit the launching thread's affinity
  bool fixed_layout = false;        // the child without address space layout randomization
  // A cgroup's cgroup.procs open for writing: the child joins that group before it execs
  // (memory_group.hpp). -1: it stays in ours.
  int cgroup_procs_fd = -1;
};

// A descriptor closed when its owner goes.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

struct Spawned {
  pid_t pid = -1;               // also the id of the child's process group
  UniqueFd pidfd;               // where the kernel gave one with the child (-1 otherwise)
  int64_t start_ns = 0;         // CLOCK_MONOTONIC just before the child was started
  int64_t started_at = 0;       // unix epoch ns, same moment
  int64_t rss_floor_bytes = 0;  // this process's ru_maxrss once the child exec'd, in bytes
  CounterSet counters;
};

// Blocks the calling thread until the child has exec'd (or failed to), as vfork does; the
// child runs on a stack kept per thread and touches nothing of ours but the request.
Result<Spawned> spawn_vfork(const SpawnRequest& req);
// `events` are opened on the child before it execs; refused ones stay unset.
Result<Spawned> spawn_forked(const SpawnRequest& req, const std::vector<CounterEvent>& events);

// A descriptor of /dev/null opened once per process (close-on-exec, never 0-2).
int devnull_fd();

}  // namespace benchguard::measure
