#include "vcs/worktree_cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/units.hpp"
#include "vcs/run_git.hpp"

namespace benchguard::vcs {
namespace {

namespace fs = std::filesystem;

// What names a worktree of the cache: a full SHA-1 or SHA-256 commit hash, as git writes it.
bool full_hash(const std::string& s) {
  return (s.size() == 40 || s.size() == 64) && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

fs::path used_file(const fs::path& state, const std::string& commit) {
  return state / "used" / commit;
}

const char* const kBuildFiles[] = {".ok", ".failed", ".log"};

// Opens `p` (creating it when `create`) and flocks it `how`. An evictor may unlink the file
// between the open and the lock: the lock is then on a file no one else will open, so it is
// taken again on the file the path names now. -1 with errno set when it cannot be had.
int open_locked(const fs::path& p, int how, bool create) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = open(p.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
    if (fd < 0) return -1;
    int r = 0;
    do {
      r = flock(fd, how);
    } while (r != 0 && errno == EINTR);
    if (r != 0) {
      const int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
    struct stat opened {
    }, named{};
    if (fstat(fd, &opened) == 0 && stat(p.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
        opened.st_dev == named.st_dev)
      return fd;
    close(fd);
    if (!create) {
      errno = ENOENT;
      return -1;
    }
  }
  errno = EAGAIN;
  return -1;
}

// True when a command holds the lease on `commit`'s worktree.
bool held(const fs::path& state, const std::string& commit) {
  const int fd = open(used_file(state, commit).c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  const bool busy = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);
  return busy;
}

// Modification time in unix ns, 0 when `p` cannot be read.
int64_t mtime_ns(const fs::path& p) {
  struct stat st {};
  if (stat(p.c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// What `p` and everything under it takes on disk; links are not followed.
uint64_t disk_bytes(const fs::path& p) {
  const auto size = [](const fs::path& q) -> uint64_t {
    struct stat st {};
    return lstat(q.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_blocks) * 512 : 0;
  };
  uint64_t total = size(p);
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(p, ec))) return total;
  for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec))
    total += size(it->path());
  return total;
}

struct Entry {
  std::string commit;
  fs::path path;
  int64_t last_use = 0;
};

// The worktrees of the cache, the least recently used first.
std::vector<Entry> entries(const fs::path& state) {
  std::vector<Entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(state / "worktrees", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string commit = it->path().filename().string();
    std::error_code st;
    if (!full_hash(commit) || !fs::is_directory(it->symlink_status(st))) continue;
    // A worktree made before leases were taken has no use recorded but its own time.
    int64_t last_use = mtime_ns(used_file(state, commit));
    if (last_use == 0) last_use = mtime_ns(it->path());
    out.push_back({commit, it->path(), last_use});
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
    return a.last_use != b.last_use ? a.last_use < b.last_use : a.commit < b.commit;
  });
  return out;
}

uint64_t entry_bytes(const fs::path& state, const Entry& e) {
  uint64_t total = disk_bytes(e.path);
  for (const char* ext : kBuildFiles) total += disk_bytes(state / "builds" / (e.commit + ext));
  return total;
}

void remove_builds(const fs::path& state, const std::string& commit) {
  std::error_code ec;
  for (const char* ext : kBuildFiles) fs::remove(state / "builds" / (commit + ext), ec);
}

// Removes the worktree of `commit` with its build's stamps and log, unless a command holds
// it: false then.
Result<bool> remove_entry(const std::string& dir, const fs::path& state,
                          const std::string& commit) {
  const fs::path used = used_file(state, commit);
  std::error_code ec;
  fs::create_directories(used.parent_path(), ec);
  const int fd = open_locked(used, LOCK_EX | LOCK_NB, true);
  if (fd < 0) {
    if (errno == EWOULDBLOCK) return false;
    return Error{fmt::format("cannot lock {} to remove the worktree of {}: {}", used.string(),
                             commit.substr(0, 12), std::strerror(errno))};
  }
  const fs::path path = state / "worktrees" / commit;
  // git forgets the worktree as it removes it; one it cannot remove (gone from its list, or
  // locked) is deleted here and forgotten by the prune that follows.
  const auto removed =
      git(dir, {"worktree", "remove", "--force", path.string()}, "remove " + path.string());
  if (!removed.ok() || fs::exists(path, ec)) fs::remove_all(path, ec);
  remove_builds(state, commit);
  fs::remove(used, ec);
  close(fd);
  return true;
}

}  // namespace

Result<CacheLimit> cache_limit() {
  CacheLimit limit;
  if (const char* n = std::getenv("BENCHGUARD_WORKTREES"); n != nullptr && *n != '\0') {
    const std::string text = n;
    std::size_t count = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (ec != std::errc() || end != text.data() + text.size())
      return Error{fmt::format(
          "BENCHGUARD_WORKTREES must be a count of worktrees (0: any number), not '{}'", text)};
    limit.worktrees = count;
  }
  if (const char* s = std::getenv("BENCHGUARD_WORKTREES_SIZE"); s != nullptr && *s != '\0') {
    const auto bytes = parse_bytes(s);
    if (!bytes.ok() || *bytes >= 1.8e19)
      return Error{fmt::format(
          "BENCHGUARD_WORKTREES_SIZE must be a size such as 20G or 512M (0: any size), not '{}'",
          s)};
    limit.bytes = static_cast<uint64_t>(*bytes);
  }
  return limit;
}

WorktreeLease::~WorktreeLease() {
  if (fd_ >= 0) close(fd_);  // and the lock with it
}

Result<std::shared_ptr<WorktreeLease>> take_lease(const std::string& state,
                                                  const std::string& commit) {
  if (!full_hash(commit)) return Error{fmt::format("'{}' is not a full commit hash", commit)};
  const fs::path used = used_file(state, commit);
  std::error_code ec;
  fs::create_directories(used.parent_path(), ec);
  const int fd = open_locked(used, LOCK_SH, true);
  if (fd < 0)
    return Error{fmt::format("cannot take the lease on the worktree of {} ({}): {}",
                             commit.substr(0, 12), used.string(), std::strerror(errno))};
  futimens(fd, nullptr);  // the last use: now
  return std::make_shared<WorktreeLease>(fd);
}

Result<std::vector<CachedWorktree>> list_cache(const std::string& dir) {
  BG_ASSIGN(const fs::path state, state_dir(dir));
  std::vector<CachedWorktree> out;
  for (const Entry& e : entries(state)) {
    CachedWorktree w;
    w.commit = e.commit;
    w.path = e.path.string();
    w.bytes = entry_bytes(state, e);
    w.last_use = e.last_use;
    w.in_use = held(state, e.commit);
    std::error_code ec;
    if (fs::exists(state / "builds" / (e.commit + ".ok"), ec))
      w.build = "ok";
    else if (fs::exists(state / "builds" / (e.commit + ".failed"), ec))
      w.build = "failed";
    out.push_back(std::move(w));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Result<Removed> evict(const std::string& dir, const CacheLimit& limit) {
  Removed out;
  if (limit.worktrees == 0 && limit.bytes == 0) return out;
  BG_ASSIGN(const fs::path state, state_dir(dir));
  const std::vector<Entry> all = entries(state);
  std::vector<uint64_t> bytes(all.size(), 0);
  uint64_t total = 0;
  if (limit.bytes > 0)
    for (std::size_t i = 0; i < all.size(); ++i) total += bytes[i] = entry_bytes(state, all[i]);
  std::size_t count = all.size();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool over = (limit.worktrees > 0 && count > limit.worktrees) ||
                      (limit.bytes > 0 && total > limit.bytes);
    if (!over) break;
    const uint64_t size = limit.bytes > 0 ? bytes[i] : entry_bytes(state, all[i]);
    BG_ASSIGN(const bool gone, remove_entry(dir, state, all[i].commit));
    if (!gone) {
      ++out.in_use;
      continue;
    }
    --count;
    total -= std::min(total, size);
    out.bytes += size;
    out.commits.push_back(all[i].commit);
  }
  if (!out.commits.empty()) (void)git(dir, {"worktree", "prune"}, "prune worktrees");
  return out;
}

Result<Removed> clear_cache(const std::string& dir) {
  BG_ASSIGN(const fs::path state, state_dir(dir));
  Removed out;
  for (const Entry& e : entries(state)) {
    const uint64_t size = entry_bytes(state, e);
    BG_ASSIGN(const bool gone, remove_entry(dir, state, e.commit));
    if (!gone) {
      ++out.in_use;
      continue;
    }
    out.bytes += size;
    out.commits.push_back(e.commit);
  }
  // What is left of worktrees removed by hand: their builds' stamps and logs, and use records
  // that no command holds.
  std::error_code ec;
  for (fs::directory_iterator it(state / "builds", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string commit = name.substr(0, name.find('.'));
    std::error_code st;
    if (full_hash(commit) && !fs::exists(state / "worktrees" / commit, st) &&
        !held(state, commit)) {
      out.bytes += disk_bytes(it->path());
      fs::remove(it->path(), st);
    }
  }
  for (fs::directory_iterator it(state / "used", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string commit = it->path().filename().string();
    std::error_code st;
    if (fs::exists(state / "worktrees" / commit, st)) continue;
    const int fd = open_locked(it->path(), LOCK_EX | LOCK_NB, false);
    if (fd < 0) continue;
    fs::remove(it->path(), st);
    close(fd);
  }
  (void)git(dir, {"worktree", "prune"}, "prune worktrees");
  return out;
}

}  // namespace benchguard::vcs
