// Who writes a run, and whether that writer is still there. A run is `running` while its
// writer lives; a reader shows a run whose writer is gone (killed, out of disk, its machine
// rebooted) as `interrupted`, and the next read-write open marks it so. The judgement must
// never take a live writer for a gone one:
//
// - The writer holds an exclusive flock on its instance log (DB.pending-SUFFIX,
//   instance_log.hpp) for as long as it lives; the run records SUFFIX. On the same kernel
//   (same boot id) a free lock, or a log that is no longer there, means the writer is gone.
//   A lock is seen by every process of the kernel, whatever its pid namespace (containers).
// - Its process id and start time back the lock up: where the lock is free but the very process
//   still runs (a file system whose flock does nothing), the writer counts as alive. Process
//   ids are only compared within one pid namespace.
// - A run written under another kernel (boot id) is another machine's, or this machine's
//   before a reboot. It is judged gone only when the machine id and host name are this
//   machine's and this machine booted after the run started; otherwise it is left alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace benchguard::store {

struct WriterIdentity {
  std::string hostname;
  std::string machine_id;  // /etc/machine-id; "" when unknown
  std::string boot_id;     // /proc/sys/kernel/random/boot_id; "" when unknown
  std::string pid_ns;      // the target of /proc/self/ns/pid, e.g. "pid:[4026531836]"
  int64_t pid = 0;
  int64_t pid_start = 0;  // start time, clock ticks after boot (/proc/PID/stat field 22)
  std::string lock;       // SUFFIX of the instance log DB.pending-SUFFIX; "" when none
};

// This process, as a writer (lock left empty). Not to be called while another thread of
// the process may fork.
const WriterIdentity& this_writer();

enum class WriterState {
  kAlive,
  kGone,
  kUnknown,  // another machine's, or no way to tell: treated as alive
};

// Judges the writer of a run stored in the database at `db_path`, started at `run_started_at`
// (unix ns). `held_logs`: instance logs this process has locked as a dead writer's
// (orphan_logs), whose writers are gone.
WriterState writer_state(const WriterIdentity& writer, const std::string& db_path,
                         int64_t run_started_at, const std::vector<std::string>& held_logs = {});

// True when the process `pid` exists, is not a zombie, and started at `start` (clock ticks
// after boot). Unknown answers count as alive.
bool process_alive(int64_t pid, int64_t start);

}  // namespace benchguard::store
