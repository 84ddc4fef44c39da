#include "store/writer.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <fstream>
#include <limits>
#include <mutex>
#include <sstream>

namespace benchguard::store {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n' || line.back() == '\r'))
    line.pop_back();
  return line;
}

std::string link_target(const std::string& path) {
  char buf[256];
  const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// /proc/PID/stat: the state letter and the start time (field 22). The command name (field 2)
// may hold spaces and parentheses, so fields are counted from the last ')'.
struct ProcStat {
  bool read = false;
  bool missing = false;  // no such process
  char state = '?';
  int64_t start = 0;
};

ProcStat proc_stat(int64_t pid) {
  ProcStat st;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) {
    st.missing = errno == ENOENT;
    return st;
  }
  std::string line;
  if (!std::getline(in, line)) return st;
  const auto close = line.rfind(')');
  if (close == std::string::npos) return st;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  // After ')': field 3 (state) is the first; field 22 (starttime) the twentieth.
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 3) st.state = field.empty() ? '?' : field[0];
    if (i == 22) {
      st.start = std::strtoll(field.c_str(), nullptr, 10);
      st.read = true;
    }
  }
  return st;
}

// Unix ns at which this machine booted (/proc/stat btime); 0 when unknown.
int64_t boot_time_ns() {
  std::ifstream in("/proc/stat");
  std::string key;
  while (in >> key) {
    if (key == "btime") {
      int64_t seconds = 0;
      if (in >> seconds) return seconds * 1'000'000'000;
      return 0;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

WriterIdentity make_this_writer() {
  WriterIdentity w;
  w.hostname = host_name();
  w.machine_id = first_line("/etc/machine-id");
  if (w.machine_id.empty()) w.machine_id = first_line("/var/lib/dbus/machine-id");
  w.boot_id = first_line("/proc/sys/kernel/random/boot_id");
  w.pid_ns = link_target("/proc/self/ns/pid");
  w.pid = ::getpid();
  const ProcStat st = proc_stat(w.pid);
  w.pid_start = st.read ? st.start : 0;
  return w;
}

enum class LockState { kHeld, kFree, kMissing, kUnknown };

// Whether a live process holds the log's lock. A shared lock is enough to test it, and it
// does not stand in the way of another tester.
LockState lock_state(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return errno == ENOENT ? LockState::kMissing : LockState::kUnknown;
  LockState state = LockState::kUnknown;
  if (::flock(fd, LOCK_SH | LOCK_NB) == 0)
    state = LockState::kFree;
  else if (errno == EWOULDBLOCK)
    state = LockState::kHeld;
  ::close(fd);  // drops our shared lock
  return state;
}

}  // namespace

const WriterIdentity& this_writer() {
  // Made again in a child forked after the first call: it is another process.
  static std::mutex mutex;
  static WriterIdentity self;
  const std::lock_guard<std::mutex> lock(mutex);
  if (self.pid != ::getpid()) self = make_this_writer();
  return self;
}

bool process_alive(int64_t pid, int64_t start) {
  if (pid <= 0 || pid > INT_MAX) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  const ProcStat st = proc_stat(pid);
  if (st.missing) return false;
  if (!st.read) return true;  // /proc hidden from us: cannot tell
  if (st.state == 'Z' || st.state == 'X') return false;
  return start == 0 || st.start == start;
}

WriterState writer_state(const WriterIdentity& writer, const std::string& db_path,
                         int64_t run_started_at, const std::vector<std::string>& held_logs) {
  const WriterIdentity& me = this_writer();
  if (me.boot_id.empty() || writer.boot_id.empty()) return WriterState::kUnknown;
  if (writer.boot_id != me.boot_id) {
    // This machine before a reboot: every process of that boot is gone.
    const int64_t booted = boot_time_ns();
    const bool this_machine = !me.machine_id.empty() && writer.machine_id == me.machine_id &&
                              !me.hostname.empty() && writer.hostname == me.hostname;
    if (this_machine && booted > 0 && run_started_at > 0 && run_started_at < booted)
      return WriterState::kGone;
    return WriterState::kUnknown;
  }
  const bool same_pids = !me.pid_ns.empty() && writer.pid_ns == me.pid_ns;
  if (!writer.lock.empty()) {
    const std::string log = db_path + ".pending-" + writer.lock;
    if (std::find(held_logs.begin(), held_logs.end(), log) != held_logs.end())
      return WriterState::kGone;
    switch (lock_state(log)) {
      case LockState::kHeld:
        return WriterState::kAlive;
      case LockState::kMissing:
        // The writer removes its log when it closes the store, after it finished or marked
        // its runs; a replay removes a dead writer's. Either way no writer holds the run.
        return WriterState::kGone;
      case LockState::kFree:
        if (same_pids && process_alive(writer.pid, writer.pid_start)) return WriterState::kAlive;
        return WriterState::kGone;
      case LockState::kUnknown:
        break;
    }
  }
  if (!same_pids) return WriterState::kUnknown;
  return process_alive(writer.pid, writer.pid_start) ? WriterState::kAlive : WriterState::kGone;
}

}  // namespace benchguard::store
