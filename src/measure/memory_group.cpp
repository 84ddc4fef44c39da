#include "measure/memory_group.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace benchguard::measure {

const char* memory_source_name(MemorySource source) {
  switch (source) {
    case MemorySource::kCgroup1:
      return "cgroup1";
    case MemorySource::kCgroup2:
      return "cgroup2";
    case MemorySource::kSampled:
      break;
  }
  return "sampled";
}

Result<MemorySourceRequest> parse_memory_source(std::string_view text) {
  if (text.empty() || text == "auto") return MemorySourceRequest::kAuto;
  if (text == "cgroup") return MemorySourceRequest::kCgroup;
  if (text == "cgroup1") return MemorySourceRequest::kCgroup1;
  if (text == "cgroup2") return MemorySourceRequest::kCgroup2;
  if (text == "sampled" || text == "rusage") return MemorySourceRequest::kSampled;
  return Error{"BENCHGUARD_MEMORY_SOURCE: '" + std::string(text) +
               "' is none of auto, cgroup, cgroup2, cgroup1, sampled, rusage"};
}

MemorySourceRequest memory_source_from_environment() {
  const char* text = std::getenv("BENCHGUARD_MEMORY_SOURCE");
  if (text == nullptr) return MemorySourceRequest::kAuto;
  const auto parsed = parse_memory_source(text);
  return parsed.ok() ? *parsed : MemorySourceRequest::kAuto;
}

namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

bool has_word(std::string_view list, std::string_view word, char sep) {
  for (const auto w : split(list, sep))
    if (w == word) return true;
  return false;
}

// `path` (as /proc/self/cgroup gives it) under a mount of the hierarchy whose root is `root`.
std::string under_mount(std::string_view mount_point, std::string_view root,
                        std::string_view path) {
  if (root != "/" && path.substr(0, root.size()) == root) path.remove_prefix(root.size());
  std::string dir(mount_point);
  if (!path.empty() && path != "/") dir += path;
  return dir;
}

std::string read_small(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string out;
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return out;
}

bool exists(const std::string& path) {
  return access(path.c_str(), F_OK) == 0;
}

// A number read from an open cgroup file from its start; nullopt if unreadable.
std::optional<int64_t> read_number(int fd) {
  char buf[64];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return std::nullopt;
  buf[n] = '\0';
  char* end = nullptr;
  const long long v = std::strtoll(buf, &end, 10);
  if (end == buf) return std::nullopt;
  return static_cast<int64_t>(v);
}

bool write_text(int fd, std::string_view text) {
  return write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

std::string group_name(int64_t n) {
  return "benchguard-" + std::to_string(getpid()) + "-" + std::to_string(n);
}

// Groups an earlier benchguard left behind when it was killed: removed (empty ones only).
void remove_stale_groups(const std::string& parent) {
  DIR* d = opendir(parent.c_str());
  if (d == nullptr) return;
  while (const dirent* e = readdir(d)) {
    const std::string_view name = e->d_name;
    if (name.substr(0, 11) != "benchguard-") continue;
    const auto fields = split(name.substr(11), '-');
    if (fields.size() != 2) continue;
    const long pid = std::strtol(std::string(fields[0]).c_str(), nullptr, 10);
    if (pid <= 0 || pid == getpid() || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
      continue;
    rmdir((parent + "/" + std::string(name)).c_str());
  }
  closedir(d);
}

}  // namespace

CgroupPlaces find_cgroup_places(std::string_view proc_cgroup, std::string_view mountinfo) {
  std::string v1_path, v2_path;
  bool have_v1 = false, have_v2 = false;
  for (const auto line : split(proc_cgroup, '\n')) {
    // hierarchy-ID:controller-list:cgroup-path
    const auto a = line.find(':');
    if (a == std::string_view::npos) continue;
    const auto b = line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const auto id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
    const auto path = line.substr(b + 1);
    if (id == "0" && controllers.empty()) {
      v2_path = path;
      have_v2 = true;
    } else if (has_word(controllers, "memory", ',')) {
      v1_path = path;
      have_v1 = true;
    }
  }
  CgroupPlaces out;
  for (const auto line : split(mountinfo, '\n')) {
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    const auto fields = split(line, ' ');
    std::size_t dash = 0;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (dash < 5 || dash + 3 > fields.size()) continue;
    const auto root = fields[3], mount_point = fields[4], fstype = fields[dash + 1];
    const auto super_options = dash + 3 < fields.size() ? fields[dash + 3] : std::string_view{};
    if (fstype == "cgroup2" && have_v2 && out.v2_dir.empty())
      out.v2_dir = under_mount(mount_point, root, v2_path);
    if (fstype == "cgroup" && have_v1 && out.v1_dir.empty() &&
        has_word(super_options, "memory", ','))
      out.v1_dir = under_mount(mount_point, root, v1_path);
  }
  return out;
}

class MemoryGroup {
 public:
  // Made under `parent`; nullptr when it cannot be made or used.
  static std::unique_ptr<MemoryGroup> make(const GroupParent& parent) {
    static std::atomic<int64_t> serial{0};
    auto g = std::unique_ptr<MemoryGroup>(new MemoryGroup());
    g->kind_ = parent.kind;
    g->dir_ = parent.dir + "/" + group_name(serial++);
    if (mkdir(g->dir_.c_str(), 0755) != 0) return nullptr;
    g->made_ = true;
    const bool v2 = parent.kind == MemorySource::kCgroup2;
    g->procs_ = open((g->dir_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    g->members_ = open((g->dir_ + "/cgroup.procs").c_str(), O_RDONLY | O_CLOEXEC);
    const std::string peak = g->dir_ + (v2 ? "/memory.peak" : "/memory.max_usage_in_bytes");
    g->peak_ = open(peak.c_str(), O_RDWR | O_CLOEXEC);
    // Linux before 6.12 cannot reset memory.peak: such a group serves one instance.
    if (g->peak_ < 0 && v2) {
      g->peak_ = open(peak.c_str(), O_RDONLY | O_CLOEXEC);
      g->single_use_ = true;
    }
    if (g->procs_ < 0 || g->members_ < 0 || g->peak_ < 0) return nullptr;
    return g;
  }

  MemoryGroup(const MemoryGroup&) = delete;
  MemoryGroup& operator=(const MemoryGroup&) = delete;
  ~MemoryGroup() {
    for (const int fd : {procs_, members_, peak_})
      if (fd >= 0) close(fd);
    remove();
  }

  // Removes the group's folder; false while a process is left in it.
  bool remove() {
    if (made_ && rmdir(dir_.c_str()) == 0) made_ = false;
    return !made_;
  }

  MemorySource kind() const { return kind_; }
  int procs_fd() const { return procs_; }

  // Resets the peak to what the group holds now and keeps that as the baseline.
  bool reset() {
    if (used_ && single_use_) return false;
    used_ = true;
    if (!single_use_ && !write_text(peak_, kind_ == MemorySource::kCgroup2 ? "reset\n" : "0"))
      return false;
    const auto now = read_number(peak_);
    if (!now) return false;
    baseline_ = single_use_ ? 0 : *now;
    return true;
  }

  std::optional<int64_t> peak_bytes() const {
    const auto peak = read_number(peak_);
    if (!peak) return std::nullopt;
    return std::max<int64_t>(*peak - baseline_, 0);
  }

  // True when no process is left in the group and it may serve another instance.
  bool reusable() const {
    if (single_use_) return false;
    char c = 0;
    return pread(members_, &c, 1, 0) == 0;
  }

 private:
  MemoryGroup() = default;
  MemorySource kind_ = MemorySource::kSampled;
  std::string dir_;
  bool made_ = false;
  bool single_use_ = false;
  bool used_ = false;
  int procs_ = -1, members_ = -1, peak_ = -1;
  int64_t baseline_ = 0;
};

namespace {

// Groups not in use, made by this process; removed when it exits.
class Pool {
 public:
  std::unique_ptr<MemoryGroup> take(const GroupParent& parent) {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = free_.begin(); it != free_.end(); ++it)
        if ((*it)->kind() == parent.kind) {
          auto g = std::move(*it);
          free_.erase(it);
          return g;
        }
    }
    return MemoryGroup::make(parent);
  }
  void give_back(std::unique_ptr<MemoryGroup> g) {
    const std::lock_guard lock(mutex_);
    // Groups a stray process kept are removed once it has gone.
    std::erase_if(retired_, [](const auto& r) { return r->remove(); });
    if (g->reusable())
      free_.push_back(std::move(g));
    else if (!g->remove())
      retired_.push_back(std::move(g));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<MemoryGroup>> free_, retired_;
};

Pool& pool() {
  static Pool p;
  return p;
}

std::optional<GroupParent> probe(MemorySourceRequest request) {
  if (request == MemorySourceRequest::kSampled) return std::nullopt;
  const CgroupPlaces places =
      find_cgroup_places(read_small("/proc/self/cgroup"), read_small("/proc/self/mountinfo"));
  std::vector<GroupParent> candidates;
  const bool want2 = request != MemorySourceRequest::kCgroup1;
  const bool want1 = request != MemorySourceRequest::kCgroup2;
  if (want2 && !places.v2_dir.empty()) {
    // Children of our own group where it hands the memory controller down, else siblings
    // where our group has it (moving a process there needs the parent writable).
    if (has_word(read_small(places.v2_dir + "/cgroup.subtree_control"), "memory", ' '))
      candidates.push_back({MemorySource::kCgroup2, places.v2_dir});
    const auto slash = places.v2_dir.rfind('/');
    std::string controllers = read_small(places.v2_dir + "/cgroup.controllers");
    if (!controllers.empty() && controllers.back() == '\n') controllers.pop_back();
    if (has_word(controllers, "memory", ' ') && slash != std::string::npos && slash > 0)
      candidates.push_back({MemorySource::kCgroup2, places.v2_dir.substr(0, slash)});
  }
  if (want1 && !places.v1_dir.empty() && exists(places.v1_dir + "/memory.max_usage_in_bytes"))
    candidates.push_back({MemorySource::kCgroup1, places.v1_dir});
  for (const auto& c : candidates) {
    if (access(c.dir.c_str(), W_OK) != 0) continue;
    remove_stale_groups(c.dir);
    auto g = MemoryGroup::make(c);
    if (g == nullptr || !g->reset()) continue;
    pool().give_back(std::move(g));
    return c;
  }
  return std::nullopt;
}

}  // namespace

std::optional<GroupParent> memory_group_parent(MemorySourceRequest request) {
  static std::once_flag once[5];
  static std::optional<GroupParent> parents[5];
  const auto k = static_cast<std::size_t>(request);
  std::call_once(once[k], [&] { parents[k] = probe(request); });
  return parents[k];
}

MemoryLease::MemoryLease(std::unique_ptr<MemoryGroup> group) : group_(std::move(group)) {}
MemoryLease::MemoryLease(MemoryLease&&) noexcept = default;
MemoryLease& MemoryLease::operator=(MemoryLease&&) noexcept = default;
MemoryLease::~MemoryLease() {
  if (group_ != nullptr) pool().give_back(std::move(group_));
}

std::optional<MemoryLease> MemoryLease::acquire(MemorySourceRequest request) {
  const auto parent = memory_group_parent(request);
  if (!parent) return std::nullopt;
  auto g = pool().take(*parent);
  if (g != nullptr && !g->reset()) {
    g.reset();  // a single-use group spent, or one that cannot be reset: a new one
    g = MemoryGroup::make(*parent);
    if (g != nullptr && !g->reset()) g.reset();
  }
  if (g == nullptr) return std::nullopt;
  return MemoryLease(std::move(g));
}

MemorySource MemoryLease::kind() const {
  return group_->kind();
}
int MemoryLease::procs_fd() const {
  return group_->procs_fd();
}
std::optional<int64_t> MemoryLease::peak_bytes() const {
  return group_->peak_bytes();
}

}  // namespace benchguard::measure
