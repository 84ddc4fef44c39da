// Waiting for a child to exit without reaping it, so its pid (also its process group id)
// stays reserved until benchguard has dealt with the rest of the group.
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace benchguard::measure {

// True once `pid` has exited; false when CLOCK_MONOTONIC passes `deadline_ns` first.
// deadline_ns < 0 waits without limit. `pidfd` (from pidfd_open, or -1 on kernels without
// it) lets a deadline wait sleep in poll instead of polling waitid.
bool wait_exit(pid_t pid, int pidfd, int64_t deadline_ns);

// Sends `sig` to the process group led by `pid`, and to `pid` in case it left the group.
void signal_group(pid_t pid, int sig);

}  // namespace benchguard::measure
