#include "measure/spawn.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "measure/clock.hpp"
#include "measure/exec_resolve.hpp"

namespace benchguard::measure {
namespace {

Error spawn_error(const SpawnRequest& req, int err) {
  return exec_error(*req.program, err, req.cwd != nullptr ? req.cwd : "");
}

// Why a child could not exec: sent back over the handshake socket (fork) or written into
// the memory it shares with us (vfork).
struct ChildFailure {
  int stage = 0;  // kStage*
  int err = 0;
};
constexpr int kStageSetup = 1;
constexpr int kStageChdir = 2;
constexpr int kStageAffinity = 3;
constexpr int kStageExec = 4;
constexpr int kStageLayout = 5;
constexpr int kStageCgroup = 6;

// The signal mask as the kernel takes it: 64 bits, every signal (glibc's own two included,
// which sigprocmask would leave unblocked).
using KernelSigset = uint64_t;
constexpr KernelSigset kAllSignals = ~KernelSigset{0};

// The kernel's struct sigaction, enough to set a disposition back to SIG_DFL.
struct KernelSigaction {
  void (*handler)(int) = SIG_DFL;
  unsigned long flags = 0;
  void (*restorer)() = nullptr;
  KernelSigset mask = 0;
};

__attribute__((no_sanitize("address", "undefined"), always_inline)) inline long raw(
    long number, long a = 0, long b = 0, long c = 0, long d = 0) {
  return syscall(number, a, b, c, d);
}

__attribute__((always_inline)) inline long as_long(const void* p) {
  return reinterpret_cast<long>(p);
}

// The child's set-up before exec, the same for both ways of starting it: system calls only
// (a vfork child shares our memory, a forked one may come from a multi-threaded parent; no
// library state, no sanitizer interceptors). 0, or the stage that failed with errno set.
__attribute__((no_sanitize("address", "undefined"))) int set_up_child(const SpawnRequest& req) {
  if (raw(SYS_setpgid, 0, 0) != 0) return kStageSetup;
  // First, so that whatever the set-up allocates in the kernel is charged to the group too.
  static constexpr char kSelf[] = "0";  // cgroup.procs reads 0 as the writer
  if (req.cgroup_procs_fd >= 0 && raw(SYS_write, req.cgroup_procs_fd, as_long(kSelf), 1) != 1)
    return kStageCgroup;
  // Every disposition back to the default, ignored ones included (SIG_IGN survives exec; a
  // handler of ours must not run here). SIGKILL and SIGSTOP cannot be changed.
  const KernelSigaction dfl;
  for (long sig = 1; sig <= 64; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP)
      raw(SYS_rt_sigaction, sig, as_long(&dfl), 0, sizeof(KernelSigset));
  if (req.stdin_fd >= 0 && raw(SYS_dup2, req.stdin_fd, 0) < 0) return kStageSetup;
  if (req.stdout_fd >= 0 && raw(SYS_dup2, req.stdout_fd, 1) < 0) return kStageSetup;
  if (req.stderr_fd >= 0 && raw(SYS_dup2, req.stderr_fd, 2) < 0) return kStageSetup;
  if (req.cwd != nullptr && raw(SYS_chdir, as_long(req.cwd)) != 0) return kStageChdir;
  if (req.cpus != nullptr &&
      raw(SYS_sched_setaffinity, 0, sizeof(cpu_set_t), as_long(req.cpus)) != 0)
    return kStageAffinity;
  if (req.fixed_layout) {
    const long current = raw(SYS_personality, 0xffffffff);
    if (current == -1 || raw(SYS_personality, current | ADDR_NO_RANDOMIZE) == -1)
      return kStageLayout;
  }
  return 0;
}

// An empty signal mask, only descriptors 0-2, then exec; returns only when exec failed.
__attribute__((no_sanitize("address", "undefined"))) int exec_child(const SpawnRequest& req) {
  const KernelSigset none = 0;
  raw(SYS_rt_sigprocmask, SIG_SETMASK, as_long(&none), 0, sizeof(KernelSigset));
  raw(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC);
  raw(SYS_execve, as_long(req.path), as_long(req.argv), as_long(req.envp));
  return kStageExec;
}

// Runs in the forked child: sets itself up, waits until the parent has attached its counters,
// then execs; a failure goes back over the handshake socket.
[[noreturn]] void child_main(const SpawnRequest& req, int sock) {
  int stage = set_up_child(req);
  if (stage == 0) {
    char go = 0;
    ssize_t n = 0;
    while ((n = recv(sock, &go, 1, 0)) < 0 && errno == EINTR) {
    }
    if (n != 1) _exit(127);  // the parent gave up on us
    stage = exec_child(req);
  }
  const ChildFailure f{stage, errno};
  (void)!send(sock, &f, sizeof f, MSG_NOSIGNAL);
  _exit(127);
}

// What the kernel folds into the child's ru_maxrss: the RSS of the address space it execs
// from, which is ours (vfork) or a copy of ours (fork). Bounded by our own peak, read once the
// child has exec'd: our RSS may grow (other threads allocate) between a reading before the
// spawn and the moment the child leaves our address space, and ru_maxrss never falls.
// RUSAGE_THREAD gives the same ru_maxrss (the peak of the address space the threads share,
// and of what it replaced at exec) without summing every thread's CPU times, which
// RUSAGE_SELF does: 3% of the CPU time a run of /bin/true instances spends in benchguard.
int64_t rss_floor() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return static_cast<int64_t>(ru.ru_maxrss) * 1024;
}

// What the child makes of a failure before exec, as an Error naming the program.
Error failure_error(const SpawnRequest& req, const ChildFailure& f) {
  switch (f.stage) {
    case kStageChdir:
      if (f.err == ENOENT || f.err == ENOTDIR) return spawn_error(req, f.err);
      return Error{"cannot run '" + *req.program + "': cannot change to '" + req.cwd +
                   "': " + std::strerror(f.err)};
    case kStageAffinity:
      return Error{"cannot pin '" + *req.program +
                   "' to the requested CPUs: " + std::strerror(f.err)};
    case kStageLayout:
      return Error{"cannot run '" + *req.program +
                   "' with a fixed layout (address randomization off): personality: " +
                   std::strerror(f.err)};
    case kStageCgroup:
      return Error{"cannot run '" + *req.program + "' in a memory cgroup of its own: " +
                   std::strerror(f.err) + " (BENCHGUARD_MEMORY_SOURCE=sampled measures without)"};
    case kStageExec:
      return spawn_error(req, f.err);
    default:
      return Error{"cannot run '" + *req.program + "': " + std::strerror(f.err)};
  }
}

// A stack for children started from this thread, made once (with a guard page below it).
class ChildStack {
 public:
  ChildStack() {
    void* p = mmap(nullptr, kGuard + kSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (p == MAP_FAILED) return;
    base_ = static_cast<char*>(p);
    mprotect(base_, kGuard, PROT_NONE);
  }
  ChildStack(const ChildStack&) = delete;
  ChildStack& operator=(const ChildStack&) = delete;
  ~ChildStack() {
    if (base_ != nullptr) munmap(base_, kGuard + kSize);
  }
  // The top (stacks grow down on every Linux target of this project); nullptr if none.
  void* top() const { return base_ == nullptr ? nullptr : base_ + kGuard + kSize; }

 private:
  static constexpr std::size_t kGuard = 4096;
  static constexpr std::size_t kSize = std::size_t{64} * 1024;
  char* base_ = nullptr;
};

struct VforkArgs {
  const SpawnRequest* req = nullptr;
  ChildFailure failure;  // written by the child when it cannot exec
};

// Runs in the child, on its own stack but in this process's memory, while the parent thread
// waits: only the failure report is written outside the child's stack.
__attribute__((no_sanitize("address", "undefined"))) int vfork_child(void* p) {
  auto* args = static_cast<VforkArgs*>(p);
  int stage = set_up_child(*args->req);
  if (stage == 0) stage = exec_child(*args->req);
  args->failure = ChildFailure{stage, errno};
  raw(SYS_exit, 127);
  return 127;
}

}  // namespace

int devnull_fd() {
  static const int fd = [] {
    const int raw = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (raw < 0 || raw > 2) return raw;
    // dup2 onto itself would keep close-on-exec set; keep clear of 0-2.
    const int moved = fcntl(raw, F_DUPFD_CLOEXEC, 3);
    close(raw);
    return moved;
  }();
  return fd;
}

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) close(fd_);
  fd_ = fd;
}

Result<Spawned> spawn_vfork(const SpawnRequest& req) {
  thread_local const ChildStack stack;
  if (stack.top() == nullptr)
    return Error{std::string("cannot start a child: no memory for its stack: ") +
                 std::strerror(ENOMEM)};
  VforkArgs args;
  args.req = &req;

  // Nothing may run a handler of ours in the child, which shares our memory until it execs.
  KernelSigset saved = 0;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &kAllSignals, &saved, sizeof(KernelSigset));
  Spawned s;
  s.started_at = realtime_ns();
  s.start_ns = monotonic_ns();
  int pidfd = -1;
  pid_t pid = clone(vfork_child, stack.top(), CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &args,
                    &pidfd);
  if (pid < 0 && errno == EINVAL) {  // a kernel before 5.2: no pidfd from clone
    pidfd = -1;
    pid = clone(vfork_child, stack.top(), CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
  }
  const int err = errno;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved, nullptr, sizeof(KernelSigset));
  if (pid < 0) return Error{std::string("cannot start a child: clone: ") + std::strerror(err)};
  s.pid = pid;
  s.pidfd.reset(pidfd);
  if (args.failure.stage != 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return failure_error(req, args.failure);
  }
  s.rss_floor_bytes = rss_floor();
  return s;
}

Result<Spawned> spawn_forked(const SpawnRequest& req, const std::vector<CounterEvent>& events) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return Error{std::string("cannot start a child: socketpair: ") + std::strerror(errno)};
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close(sv[0]);
    close(sv[1]);
    return Error{std::string("cannot start a child: fork: ") + std::strerror(err)};
  }
  if (pid == 0) {
    close(sv[0]);
    child_main(req, sv[1]);
  }
  close(sv[1]);
  // Also set from this side, so the group exists before anyone signals it.
  setpgid(pid, pid);

  Spawned s;
  s.pid = pid;
  if (!events.empty()) s.counters = CounterSet::open_on_exec(pid, events);
  s.started_at = realtime_ns();
  s.start_ns = monotonic_ns();
  const char go = 1;
  (void)!send(sv[0], &go, 1, MSG_NOSIGNAL);  // a child that died in setup reports below

  // Exec closes the child's end: EOF means it runs; a ChildFailure means it never will.
  ChildFailure f;
  ssize_t n = 0;
  while ((n = recv(sv[0], &f, sizeof f, MSG_WAITALL)) < 0 && errno == EINTR) {
  }
  close(sv[0]);
  if (n == 0) {
    s.rss_floor_bytes = rss_floor();
    return s;
  }

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(sizeof f))
    return Error{"cannot run '" + *req.program + "': the child died before exec"};
  return failure_error(req, f);
}

}  // namespace benchguard::measure
