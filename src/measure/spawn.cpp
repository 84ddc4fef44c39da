#include "measure/spawn.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <spawn.h>
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

// Why a forked child could not exec: sent back over the handshake socket.
struct ChildFailure {
  int stage = 0;  // kStage*
  int err = 0;
};
constexpr int kStageSetup = 1;
constexpr int kStageChdir = 2;
constexpr int kStageAffinity = 3;
constexpr int kStageExec = 4;

// Runs in the forked child of a possibly multi-threaded parent: async-signal-safe calls only.
[[noreturn]] void child_main(const SpawnRequest& req, int sock) {
  const auto fail = [sock](int stage) {
    const ChildFailure f{stage, errno};
    (void)!send(sock, &f, sizeof f, MSG_NOSIGNAL);
    _exit(127);
  };
  if (setpgid(0, 0) != 0) fail(kStageSetup);
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &dfl, nullptr);  // SIGKILL etc. refuse
  if (req.stdin_fd >= 0 && dup2(req.stdin_fd, 0) < 0) fail(kStageSetup);
  if (req.stdout_fd >= 0 && dup2(req.stdout_fd, 1) < 0) fail(kStageSetup);
  if (req.stderr_fd >= 0 && dup2(req.stderr_fd, 2) < 0) fail(kStageSetup);
  if (req.cwd != nullptr && chdir(req.cwd) != 0) fail(kStageChdir);
  if (req.cpus != nullptr && sched_setaffinity(0, sizeof(cpu_set_t), req.cpus) != 0)
    fail(kStageAffinity);

  // Wait until the parent has attached its counters.
  char go = 0;
  ssize_t n = 0;
  while ((n = recv(sock, &go, 1, 0)) < 0 && errno == EINTR) {
  }
  if (n != 1) _exit(127);  // the parent gave up on us

  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  execve(req.path, req.argv, req.envp);
  fail(kStageExec);
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

namespace {

// The attributes and file actions of posix_spawn, built once per thread and kept while the
// descriptors and directory stay the same: building them costs a getrlimit per action.
class SpawnSetup {
 public:
  SpawnSetup() = default;
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() { clear(); }

  void prepare(const SpawnRequest& req) {
    const bool same = ready_ && in_ == req.stdin_fd && out_ == req.stdout_fd &&
                      err_ == req.stderr_fd && (req.cwd != nullptr) == has_cwd_ &&
                      (req.cwd == nullptr || cwd_ == req.cwd);
    if (same) return;
    clear();
    posix_spawnattr_init(&attr_);
    sigset_t all;
    sigset_t none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr_, &all);
    posix_spawnattr_setsigmask(&attr_, &none);
    posix_spawnattr_setpgroup(&attr_, 0);
    posix_spawnattr_setflags(
        &attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawn_file_actions_init(&fa_);
    if (req.stdin_fd >= 0) posix_spawn_file_actions_adddup2(&fa_, req.stdin_fd, 0);
    if (req.stdout_fd >= 0) posix_spawn_file_actions_adddup2(&fa_, req.stdout_fd, 1);
    if (req.stderr_fd >= 0) posix_spawn_file_actions_adddup2(&fa_, req.stderr_fd, 2);
    if (req.cwd != nullptr) posix_spawn_file_actions_addchdir_np(&fa_, req.cwd);
    // Descriptors benchguard holds (database, sockets) are not the benchmark's business.
    posix_spawn_file_actions_addclosefrom_np(&fa_, 3);
    in_ = req.stdin_fd;
    out_ = req.stdout_fd;
    err_ = req.stderr_fd;
    has_cwd_ = req.cwd != nullptr;
    cwd_ = has_cwd_ ? req.cwd : "";
    ready_ = true;
  }

  const posix_spawnattr_t* attr() const { return &attr_; }
  const posix_spawn_file_actions_t* actions() const { return &fa_; }

 private:
  void clear() {
    if (!ready_) return;
    posix_spawn_file_actions_destroy(&fa_);
    posix_spawnattr_destroy(&attr_);
    ready_ = false;
  }

  posix_spawnattr_t attr_{};
  posix_spawn_file_actions_t fa_{};
  int in_ = -1;
  int out_ = -1;
  int err_ = -1;
  bool has_cwd_ = false;
  std::string cwd_;
  bool ready_ = false;
};

// The calling thread's personality with ADDR_NO_RANDOMIZE while it lives: a child started
// meanwhile inherits it (the kernel keeps a personality per thread, so duet threads do not
// see each other's). Does nothing unless asked.
class FixedLayout {
 public:
  explicit FixedLayout(bool on) {
    if (!on) return;
    const int current = personality(0xffffffff);
    if (current == -1) {
      err_ = errno;
      return;
    }
    saved_ = current;
    if ((current & ADDR_NO_RANDOMIZE) == 0 &&
        personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1)
      err_ = errno;
  }
  ~FixedLayout() {
    if (saved_ >= 0 && (saved_ & ADDR_NO_RANDOMIZE) == 0)
      personality(static_cast<unsigned long>(saved_));
  }
  FixedLayout(const FixedLayout&) = delete;
  FixedLayout& operator=(const FixedLayout&) = delete;
  // An Error when the personality could not be set (a seccomp filter, say).
  Status status(const SpawnRequest& req) const {
    if (err_ == 0) return ok_status();
    return Error{
        "cannot run '" + *req.program +
        "' with a fixed layout (address randomization off): personality: " + std::strerror(err_)};
  }

 private:
  int saved_ = -1;
  int err_ = 0;
};

}  // namespace

Result<Spawned> spawn_posix(const SpawnRequest& req) {
  thread_local SpawnSetup setup;
  setup.prepare(req);
  const FixedLayout layout(req.fixed_layout);
  BG_TRY(layout.status(req));

  // posix_spawn has no affinity attribute, but the child inherits the spawning thread's mask.
  cpu_set_t saved;
  int rc = 0;
  if (req.cpus != nullptr) {
    if (sched_getaffinity(0, sizeof saved, &saved) != 0 ||
        sched_setaffinity(0, sizeof(cpu_set_t), req.cpus) != 0)
      rc = errno;
  }
  Spawned s;
  if (rc == 0) {
    s.started_at = realtime_ns();
    s.start_ns = monotonic_ns();
    rc = posix_spawn(&s.pid, req.path, setup.actions(), setup.attr(), req.argv, req.envp);
    s.rss_floor_bytes = rss_floor();
    if (req.cpus != nullptr) sched_setaffinity(0, sizeof saved, &saved);
  } else {
    rc = -rc;  // marks an affinity failure
  }
  if (rc < 0)
    return Error{"cannot pin '" + *req.program + "' to the requested CPUs: " + std::strerror(-rc)};
  if (rc != 0) return spawn_error(req, rc);
  return s;
}

Result<Spawned> spawn_forked(const SpawnRequest& req, const std::vector<CounterEvent>& events) {
  const FixedLayout layout(req.fixed_layout);
  BG_TRY(layout.status(req));
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
  switch (f.stage) {
    case kStageChdir:
      if (f.err == ENOENT || f.err == ENOTDIR) return spawn_error(req, f.err);
      return Error{"cannot run '" + *req.program + "': cannot change to '" + req.cwd +
                   "': " + std::strerror(f.err)};
    case kStageAffinity:
      return Error{"cannot pin '" + *req.program +
                   "' to the requested CPUs: " + std::strerror(f.err)};
    case kStageExec:
      return spawn_error(req, f.err);
    default:
      return Error{"cannot run '" + *req.program + "': " + std::strerror(f.err)};
  }
}

}  // namespace benchguard::measure
