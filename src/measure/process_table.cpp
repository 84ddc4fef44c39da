#include "measure/process_table.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace benchguard::measure {
namespace {

struct StatFields {
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
  int64_t rss_pages = 0;
};

// Reads /proc/PID/stat: "pid (comm) state ppid pgrp ... rss" (rss is field 24). comm may
// hold spaces and parentheses, so fields are counted from the last ')'.
bool read_stat(pid_t pid, StatFields& out) {
  char path[32];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');
  if (p == nullptr || p[1] != ' ') return false;
  p += 2;
  out.state = *p;
  char* end = nullptr;
  // Field 3 is the state; walk fields 4 (ppid), 5 (pgrp) and skip to 24 (rss).
  const char* q = p + 1;
  for (int field = 4; field <= 24; ++field) {
    const long long v = std::strtoll(q, &end, 10);
    if (end == q) return false;
    if (field == 4) out.ppid = static_cast<pid_t>(v);
    if (field == 5) out.pgrp = static_cast<pid_t>(v);
    if (field == 24) out.rss_pages = v;
    q = end;
  }
  return true;
}

int64_t page_size() {
  static const int64_t size = sysconf(_SC_PAGESIZE);
  return size;
}

int root_index(pid_t pid, const std::vector<pid_t>& roots) {
  for (size_t i = 0; i < roots.size(); ++i)
    if (roots[i] == pid) return static_cast<int>(i);
  return -1;
}

}  // namespace

bool ProcessTable::refresh(pid_t pid, Proc& p) {
  StatFields f;
  if (!read_stat(pid, f)) return false;
  p.state = f.state;
  p.ppid = f.ppid;
  p.pgrp = f.pgrp;
  p.rss_pages = f.rss_pages;
  p.read = listing_;
  return true;
}

int ProcessTable::owner_of(pid_t pid, const std::vector<pid_t>& roots, int depth) {
  const int direct = root_index(pid, roots);
  if (direct >= 0) return direct;
  auto it = procs_.find(pid);
  if (it == procs_.end() || depth > 64) return -1;
  Proc& p = it->second;
  if (p.resolved == listing_) return p.owner;
  p.resolved = listing_;
  p.owner = root_index(p.pgrp, roots);
  if (p.owner < 0 && p.ppid > 1) p.owner = owner_of(p.ppid, roots, depth + 1);
  return p.owner;
}

std::vector<int64_t> ProcessTable::sample(const std::vector<pid_t>& roots) {
  ++listing_;
  DIR* dir = opendir("/proc");
  if (dir != nullptr) {
    while (const dirent* e = readdir(dir)) {
      if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
      const auto pid = static_cast<pid_t>(std::atoi(e->d_name));
      auto [it, added] = procs_.try_emplace(pid);
      // Parent and group of a process rarely change; they are read once, when it appears.
      if (added || it->second.ino != e->d_ino) {
        if (!refresh(pid, it->second)) {
          procs_.erase(it);
          continue;
        }
        it->second.ino = e->d_ino;
      }
      it->second.seen = listing_;
    }
    closedir(dir);
  }
  for (auto it = procs_.begin(); it != procs_.end();)
    it = it->second.seen == listing_ ? std::next(it) : procs_.erase(it);

  std::vector<int64_t> rss(roots.size(), 0);
  for (auto& [pid, p] : procs_) {
    const int owner = owner_of(pid, roots, 0);
    if (owner < 0) continue;
    // Members change size all the time: read them at every sample.
    if (p.read != listing_ && !refresh(pid, p)) continue;
    rss[owner] += p.rss_pages * page_size();
  }
  for (size_t i = 0; i < roots.size(); ++i) {
    auto it = procs_.find(roots[i]);
    if (it == procs_.end() || it->second.state == 'Z' || it->second.state == 'X') rss[i] = -1;
  }
  return rss;
}

}  // namespace benchguard::measure
