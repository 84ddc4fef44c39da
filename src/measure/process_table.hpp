// Resident memory of process trees, read from /proc. This kernel may lack
// /proc/PID/task/TID/children, and that file misses orphans anyway, so a tree is found by
// scanning /proc: the root, the members of its process group, and every process whose
// parent chain leads to one of those.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace benchguard::measure {

// Remembers what it learnt between samples, so one sample costs a /proc directory listing
// plus one read per new process and per member of a watched tree, not one per process.
class ProcessTable {
 public:
  // For each root, the summed RSS in bytes of its tree; -1 when the root has exited
  // (a zombie or gone), so that time after the end is not averaged in.
  std::vector<int64_t> sample(const std::vector<pid_t>& roots);

 private:
  struct Proc {
    ino_t ino = 0;  // of /proc/PID: a reused pid gets a new inode, so stale facts are noticed
    pid_t ppid = 0;
    pid_t pgrp = 0;
    int64_t rss_pages = 0;
    char state = '?';
    uint64_t seen = 0;      // last listing that showed it
    uint64_t read = 0;      // last listing at which its stat was read
    uint64_t resolved = 0;  // listing at which `owner` was computed
    int owner = -1;         // index into roots, -1: none
  };
  int owner_of(pid_t pid, const std::vector<pid_t>& roots, int depth);
  bool refresh(pid_t pid, Proc& p);

  std::unordered_map<pid_t, Proc> procs_;
  uint64_t listing_ = 0;
};

}  // namespace benchguard::measure
