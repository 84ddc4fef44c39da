// The exact peak memory of an instance's process tree, from the kernel: a memory cgroup the
// child joins before it execs (it writes "0" to the group's cgroup.procs, which the kernel
// reads as "the writer"), read once the instance is reaped. Every process the instance starts
// is charged to the group, and the kernel keeps the group's high-water mark: cgroup v2
// `memory.peak`, cgroup v1 `memory.max_usage_in_bytes`. Groups are made only where benchguard
// may make them (a writable memory hierarchy, found from /proc/self/cgroup and
// /proc/self/mountinfo), probed once per process; elsewhere instances fall back silently to
// the sampled tree and ru_maxrss (memory_sampler.hpp). BENCHGUARD_MEMORY_SOURCE picks one
// (auto, cgroup, cgroup2, cgroup1, sampled; rusage is read as sampled), docs/measurement.md.
//
// A group is kept for many instances: its peak is reset before each (v1: "0" written to
// memory.max_usage_in_bytes; v2: a write to memory.peak, Linux 6.12 and later, else a new
// group per instance), and the instance's peak is the group's peak less what the group held
// right after the reset (pages charged earlier and still charged: page cache, the per-CPU
// charge batches of 64 pages). A group that still holds a process after the instance (one
// that left the process group) is retired and a fresh one made.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace benchguard::measure {

// Where an instance's peak_memory came from, as stored (InstanceRecord::mem_source).
enum class MemorySource { kSampled, kCgroup1, kCgroup2 };
const char* memory_source_name(MemorySource source);  // "sampled", "cgroup1", "cgroup2"

// What BENCHGUARD_MEMORY_SOURCE (or a test) asks for.
enum class MemorySourceRequest { kAuto, kCgroup, kCgroup1, kCgroup2, kSampled };
// "" and "auto": kAuto; "rusage" is kSampled (the launch's own measures). Else an Error.
Result<MemorySourceRequest> parse_memory_source(std::string_view text);
// BENCHGUARD_MEMORY_SOURCE of this process (kAuto when unset or not understood).
MemorySourceRequest memory_source_from_environment();

// Where this process may make memory groups: found from the texts of /proc/self/cgroup and
// /proc/self/mountinfo (pure, for tests). Empty strings where there is no such hierarchy.
struct CgroupPlaces {
  std::string v1_dir;  // our own memory cgroup's folder on a cgroup v1 memory hierarchy
  std::string v2_dir;  // our own cgroup's folder on the cgroup v2 hierarchy
};
CgroupPlaces find_cgroup_places(std::string_view proc_cgroup, std::string_view mountinfo);

// The folder under which memory groups are made and its kind, or nullopt: probed once per
// process and request (a group is made and removed), falling back silently.
struct GroupParent {
  MemorySource kind = MemorySource::kSampled;
  std::string dir;
};
std::optional<GroupParent> memory_group_parent(MemorySourceRequest request);

class MemoryGroup;

// A memory group held by one instance from its launch until it is reaped; given back to a
// pool shared by the process's threads when it goes.
class MemoryLease {
 public:
  // A group under the request's parent with its peak reset, or nullopt (no parent, or the
  // group could not be made or reset: the instance falls back).
  static std::optional<MemoryLease> acquire(MemorySourceRequest request);
  MemoryLease(MemoryLease&&) noexcept;
  MemoryLease& operator=(MemoryLease&&) noexcept;
  MemoryLease(const MemoryLease&) = delete;
  MemoryLease& operator=(const MemoryLease&) = delete;
  ~MemoryLease();

  MemorySource kind() const;
  // The group's cgroup.procs, open for writing (close-on-exec): the child writes "0" to it.
  int procs_fd() const;
  // The instance's peak in bytes, once every process of it has ended; nullopt if unreadable.
  std::optional<int64_t> peak_bytes() const;

 private:
  explicit MemoryLease(std::unique_ptr<MemoryGroup> group);
  std::unique_ptr<MemoryGroup> group_;
};

}  // namespace benchguard::measure
