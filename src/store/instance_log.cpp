#include "store/instance_log.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "store/location.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[4] = {'B', 'G', 'I', 'L'};
constexpr size_t kHeader = 4 + 4 + 8;  // magic, payload length, checksum
constexpr uint32_t kMaxPayload = 64U << 20;
// How long a replay waits for a killed writer's child to drop its copy of the log's lock.
constexpr int kOrphanLockWaitMs = 2000;

uint64_t fnv1a(const char* p, size_t n) {
  uint64_t h = 14695981039346656037ULL;
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 1099511628211ULL;
  }
  return h;
}

// Fixed-width little-endian fields (x86 and ARM Linux are little-endian; the log never
// leaves the machine that wrote it).
class Writer {
 public:
  template <typename T>
  void raw(T v) {
    char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    out_.append(b, sizeof v);
  }
  void i64(int64_t v) { raw(v); }
  void i32(int v) { raw(static_cast<int32_t>(v)); }
  void f64(double v) { raw(v); }
  void flag(bool v) { raw(static_cast<uint8_t>(v ? 1 : 0)); }
  void str(const std::string& s) {
    raw(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void opt(const std::optional<int64_t>& v) {
    flag(v.has_value());
    if (v) i64(*v);
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const char* p, size_t n) : p_(p), end_(p + n) {}
  template <typename T>
  bool raw(T& v) {
    if (static_cast<size_t>(end_ - p_) < sizeof v) return false;
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return true;
  }
  bool i64(int64_t& v) { return raw(v); }
  bool i32(int& v) {
    int32_t x = 0;
    if (!raw(x)) return false;
    v = x;
    return true;
  }
  bool f64(double& v) { return raw(v); }
  bool flag(bool& v) {
    uint8_t x = 0;
    if (!raw(x) || x > 1) return false;
    v = x == 1;
    return true;
  }
  bool str(std::string& s) {
    uint32_t n = 0;
    if (!raw(n) || static_cast<size_t>(end_ - p_) < n) return false;
    s.assign(p_, n);
    p_ += n;
    return true;
  }
  bool opt(std::optional<int64_t>& v) {
    bool has = false;
    if (!flag(has)) return false;
    if (!has) {
      v.reset();
      return true;
    }
    int64_t x = 0;
    if (!i64(x)) return false;
    v = x;
    return true;
  }
  bool done() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
};

void write_instance(Writer& w, int64_t variant_id, const InstanceRecord& in) {
  w.i64(variant_id);
  w.i32(in.index);
  w.i64(in.order);
  w.i64(in.start_ns);
  w.i64(in.end_ns);
  w.i64(in.started_at);
  w.i32(in.exit_code);
  w.i32(in.signal);
  w.flag(in.timed_out);
  w.str(in.failure);
  w.f64(in.user_s);
  w.f64(in.sys_s);
  w.i64(in.max_rss_bytes);
  w.i64(in.mem_peak_bytes);
  w.f64(in.mem_avg_bytes);
  w.i32(in.mem_samples);
  w.opt(in.instructions);
  w.opt(in.cycles);
  w.str(in.cpus);
  w.str(in.schedule);
  w.str(in.schedule_tag);
  w.flag(in.timed_outside);
  w.raw(static_cast<uint32_t>(in.iterations.size()));
  for (const auto& it : in.iterations) {
    w.i32(it.index);
    w.i64(it.start_ns);
    w.i64(it.end_ns);
    w.flag(it.burn_in);
    w.flag(it.timed_out);
    w.str(it.failure);
    w.raw(static_cast<uint32_t>(it.metrics.size()));
    for (const auto& [name, value] : it.metrics) {
      w.str(name);
      w.f64(value);
    }
  }
  // Last, so that a record written before them still reads (as 0: not recorded; no counts).
  w.i64(in.rss_floor_bytes);
  w.raw(static_cast<uint32_t>(in.counts.size()));
  for (const auto& [name, count] : in.counts) {
    w.str(name);
    w.i64(count);
  }
  w.str(in.mem_source);  // after the counts, for the same reason ("": not recorded)
  w.f64(in.prepare_s);
  w.f64(in.conclude_s);
}

bool read_instance(Reader& r, int64_t& variant_id, InstanceRecord& in) {
  uint32_t iterations = 0;
  if (!(r.i64(variant_id) && r.i32(in.index) && r.i64(in.order) && r.i64(in.start_ns) &&
        r.i64(in.end_ns) && r.i64(in.started_at) && r.i32(in.exit_code) && r.i32(in.signal) &&
        r.flag(in.timed_out) && r.str(in.failure) && r.f64(in.user_s) && r.f64(in.sys_s) &&
        r.i64(in.max_rss_bytes) && r.i64(in.mem_peak_bytes) && r.f64(in.mem_avg_bytes) &&
        r.i32(in.mem_samples) && r.opt(in.instructions) && r.opt(in.cycles) && r.str(in.cpus) &&
        r.str(in.schedule) && r.str(in.schedule_tag) && r.flag(in.timed_outside) &&
        r.raw(iterations)))
    return false;
  for (uint32_t i = 0; i < iterations; ++i) {
    IterationRecord it;
    uint32_t metrics = 0;
    if (!(r.i32(it.index) && r.i64(it.start_ns) && r.i64(it.end_ns) && r.flag(it.burn_in) &&
          r.flag(it.timed_out) && r.str(it.failure) && r.raw(metrics)))
      return false;
    for (uint32_t m = 0; m < metrics; ++m) {
      std::string name;
      double value = 0;
      if (!(r.str(name) && r.f64(value))) return false;
      it.metrics.emplace_back(std::move(name), value);
    }
    in.iterations.push_back(std::move(it));
  }
  if (!r.done() && !r.i64(in.rss_floor_bytes)) return false;
  uint32_t counts = 0;
  if (!r.done() && !r.raw(counts)) return false;
  for (uint32_t c = 0; c < counts; ++c) {
    std::string name;
    int64_t count = 0;
    if (!(r.str(name) && r.i64(count))) return false;
    in.counts.emplace_back(std::move(name), count);
  }
  if (!r.done() && !r.str(in.mem_source)) return false;
  if (!r.done() && !(r.f64(in.prepare_s) && r.f64(in.conclude_s))) return false;
  return r.done();
}

std::string errno_text() {
  return std::strerror(errno);
}

// The writer's process id in a log name "PID-XXXXXX" (what follows "DB.pending-"); 0 for
// names without one.
pid_t writer_pid(const std::string& suffix) {
  const auto dash = suffix.find('-');
  if (dash == std::string::npos || dash == 0 || dash > 10) return 0;
  pid_t pid = 0;
  for (size_t i = 0; i < dash; ++i) {
    if (suffix[i] < '0' || suffix[i] > '9') return 0;
    pid = pid * 10 + (suffix[i] - '0');
  }
  return pid;
}

// The process is gone, or a zombie that will never write again.
bool process_gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  return close != std::string::npos && close + 2 < line.size() &&
         (line[close + 2] == 'Z' || line[close + 2] == 'X');
}

// Takes the lock of a log that no live writer holds. A writer launches benchmarks: each
// launch copies the writer's descriptors into the child until it execs (close-on-exec then
// drops them), so for a moment after the writer is killed, a child of it can still hold the
// lock. When the writer named in the log is gone, waiting a little for that child to exec
// (or exit) is safe; otherwise a held lock is a live writer's.
bool lock_orphan(int fd, const std::string& suffix) {
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
  const pid_t pid = writer_pid(suffix);
  if (pid <= 0 || pid == ::getpid() || !process_gone(pid)) return false;
  for (int waited_ms = 0; waited_ms < kOrphanLockWaitMs; ++waited_ms) {
    ::usleep(1000);
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
  }
  return false;
}

// What follows the database's name in the name of each of its logs.
constexpr const char* kPendingInfix = ".pending-";

// "DB_PATH.pending-": what every log of the database starts with.
std::string log_prefix(const std::string& db_path) {
  return db_path + kPendingInfix;
}

}  // namespace

std::string encode_logged_instance(int64_t variant_id, const InstanceRecord& instance) {
  // One buffer, the header's length and checksum filled in once the body is written.
  Writer record;
  record.out().reserve(512);  // an instance without iterations takes about 330 bytes
  record.out().append(kMagic, sizeof kMagic);
  record.raw(uint32_t{0});
  record.raw(uint64_t{0});
  write_instance(record, variant_id, instance);
  std::string& bytes = record.out();
  const auto length = static_cast<uint32_t>(bytes.size() - kHeader);
  const uint64_t sum = fnv1a(bytes.data() + kHeader, length);
  std::memcpy(bytes.data() + sizeof kMagic, &length, sizeof length);
  std::memcpy(bytes.data() + sizeof kMagic + sizeof length, &sum, sizeof sum);
  return std::move(bytes);
}

std::vector<LoggedInstance> decode_logged_instances(const std::string& bytes, bool* complete) {
  std::vector<LoggedInstance> out;
  size_t pos = 0;
  while (bytes.size() - pos >= kHeader && std::memcmp(bytes.data() + pos, kMagic, 4) == 0) {
    uint32_t length = 0;
    uint64_t sum = 0;
    std::memcpy(&length, bytes.data() + pos + 4, sizeof length);
    std::memcpy(&sum, bytes.data() + pos + 8, sizeof sum);
    if (length > kMaxPayload || bytes.size() - pos - kHeader < length) break;
    const char* body = bytes.data() + pos + kHeader;
    if (fnv1a(body, length) != sum) break;
    Reader r(body, length);
    LoggedInstance li;
    if (!read_instance(r, li.first, li.second)) break;
    out.push_back(std::move(li));
    pos += kHeader + length;
  }
  if (complete != nullptr) *complete = pos == bytes.size();
  return out;
}

// ---------------------------------------------------------------- LogFile

LogFile::LogFile(LogFile&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

LogFile& LogFile::operator=(LogFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

LogFile::~LogFile() {
  if (fd_ >= 0) ::close(fd_);
}

int LogFile::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void LogFile::remove() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

// ---------------------------------------------------------------- InstanceLog

Result<InstanceLog> InstanceLog::create(const std::string& db_path) {
  // Made under a name no replay looks at, locked, then renamed: a log is never visible
  // unlocked, so no other process can take it for a dead writer's.
  std::string temp = db_path + ".new-pending-" + std::to_string(::getpid()) + "-XXXXXX";
  const int fd = mkostemp(temp.data(), O_CLOEXEC | O_APPEND);
  if (fd < 0) return Error{"cannot create an instance log beside " + db_path + ": " + errno_text()};
  LogFile file(fd, temp);
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string why = errno_text();
    file.remove();
    return Error{"cannot lock " + temp + ": " + why};
  }
  // Whoever may open the database may replay the log.
  struct stat db {};
  if (::stat(db_path.c_str(), &db) == 0) (void)fchmod(fd, db.st_mode & 0666);
  // DB.pending-PID-XXXXXX: the writer's process id lets a replay tell a dead writer's log
  // whose lock a child still holds from a live writer's (see orphan_logs).
  std::string path = log_prefix(db_path) + temp.substr(temp.rfind(".new-pending-") + 13);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    file.remove();
    return Error{"cannot create " + path + ": " + why};
  }
  return InstanceLog(LogFile(file.release(), std::move(path)));
}

Status InstanceLog::append(int64_t variant_id, const InstanceRecord& instance) {
  const std::string record = encode_logged_instance(variant_id, instance);
  // One write: O_APPEND puts the whole record at the end, and a kill leaves either all of it
  // or a torn tail that reading skips.
  size_t done = 0;
  while (done < record.size()) {
    const ssize_t n = ::write(file_.fd(), record.data() + done, record.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == ENOSPC || errno == EFBIG || errno == EDQUOT)) {
      const std::string why = errno_text();
      const auto pending = path().rfind(kPendingInfix);
      const std::string db = pending == std::string::npos ? path() : path().substr(0, pending);
      return Error{
          fmt::format("{}: disk full: cannot append to its instance log {} ({}); free "
                      "space on its file system (or raise the file size limit) and try "
                      "again",
                      db, path(), why)};
    }
    if (n < 0) return Error{"cannot write " + path() + ": " + errno_text()};
    done += static_cast<size_t>(n);
  }
  return ok_status();
}

Status InstanceLog::clear() {
  if (::ftruncate(file_.fd(), 0) != 0) return Error{"cannot empty " + path() + ": " + errno_text()};
  return ok_status();
}

// ---------------------------------------------------------------- orphans

Result<std::vector<LoggedInstance>> OrphanLog::read() const {
  std::string bytes;
  char buf[65536];
  off_t offset = 0;
  while (true) {
    const ssize_t n = ::pread(file_.fd(), buf, sizeof buf, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{"cannot read " + path() + ": " + errno_text()};
    if (n == 0) break;
    bytes.append(buf, static_cast<size_t>(n));
    offset += n;
  }
  return decode_logged_instances(bytes);
}

std::vector<std::string> instance_logs(const std::string& db_path) {
  const std::string dir = folder_of(db_path);
  std::vector<std::string> out =
      names_beginning_with(dir, fs::path(db_path).filename().string() + kPendingInfix);
  const std::string in = dir + '/';
  for (auto& name : out) name.insert(0, in);
  return out;
}

Result<std::vector<OrphanLog>> orphan_logs(const std::string& db_path) {
  std::vector<OrphanLog> out;
  const std::string prefix = fs::path(db_path).filename().string() + kPendingInfix;
  for (const std::string& path : instance_logs(db_path)) {
    const std::string name = fs::path(path).filename().string();
    // Read-only is enough to lock and read it; removing goes by name.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // gone meanwhile
    if (!lock_orphan(fd, name.substr(prefix.size()))) {
      ::close(fd);  // a live writer's
      continue;
    }
    // Another process may have replayed and removed it between our open and our lock.
    struct stat by_fd {};
    struct stat by_name {};
    if (fstat(fd, &by_fd) != 0 || ::stat(path.c_str(), &by_name) != 0 ||
        by_fd.st_ino != by_name.st_ino) {
      ::close(fd);
      continue;
    }
    out.push_back(OrphanLog(LogFile(fd, path)));
  }
  return out;
}

}  // namespace benchguard::store
