#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace benchguard {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

// The process's umask, read without changing it (umask(2) would race other threads' files).
mode_t current_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.starts_with("Umask:"))
        return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return static_cast<mode_t>(022);
  }();
  return mask;
}

// A stream buffer writing to a file descriptor; failed() once any write failed.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }
  bool failed() const { return failed_; }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        failed_ = true;
        error_ = n < 0 ? errno : EIO;
        break;
      }
      p += n;
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return !failed_;
  }

  int fd_;
  bool failed_ = false;
  int error_ = 0;
  std::array<char, 1 << 16> buf_{};
};

// The components of a relative path; empty with `ok` false when one is "..", or it is
// absolute.
std::vector<std::string> components(const std::string& relative, bool& ok) {
  std::vector<std::string> out;
  ok = relative.empty() || relative.front() != '/';
  size_t pos = 0;
  while (ok && pos < relative.size()) {
    size_t slash = relative.find('/', pos);
    if (slash == std::string::npos) slash = relative.size();
    std::string part = relative.substr(pos, slash - pos);
    if (part == "..") ok = false;
    if (!part.empty() && part != ".") out.push_back(std::move(part));
    pos = slash + 1;
  }
  return out;
}

}  // namespace

Status write_file_atomically(const std::string& path,
                             const std::function<void(std::ostream&)>& write, bool executable) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return Error{"cannot write " + path + ": " + errno_text()};
  const auto fail = [&](const std::string& why) -> Status {
    ::close(fd);
    ::unlink(temp.c_str());
    return Error{"cannot write " + path + ": " + why};
  };
  if (::fchmod(fd, (executable ? 0777 : 0666) & ~current_umask()) != 0) return fail(errno_text());
  FdBuf buf(fd);
  {
    std::ostream out(&buf);
    write(out);
    out.flush();
    if (!out || buf.failed()) return fail(std::strerror(buf.failed() ? buf.error() : EIO));
  }
  if (::close(fd) != 0) {
    const std::string why = errno_text();
    ::unlink(temp.c_str());
    return Error{"cannot write " + path + ": " + why};
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(temp.c_str());
    return Error{"cannot write " + path + ": " + why};
  }
  return ok_status();
}

Status write_file_atomically(const std::string& path, std::string_view content, bool executable) {
  return write_file_atomically(
      path,
      [&](std::ostream& out) {
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
      },
      executable);
}

Status check_real_folders(const std::string& root, const std::string& relative) {
  bool ok = true;
  const std::vector<std::string> parts = components(relative, ok);
  if (!ok) return Error{root + "/" + relative + " leaves " + root};
  std::string at = root;
  for (const auto& part : parts) {
    at += "/" + part;
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0) {
      if (errno == ENOENT) return ok_status();
      return Error{"cannot read " + at + ": " + errno_text()};
    }
    if (S_ISLNK(st.st_mode))
      return Error{at + " is a link: benchguard writes into real folders only"};
    if (!S_ISDIR(st.st_mode)) return Error{at + " is not a folder"};
  }
  return ok_status();
}

bool remove_file_beneath(const std::string& root, const std::string& relative) {
  bool ok = true;
  const std::vector<std::string> parts = components(relative, ok);
  if (!ok || parts.empty()) return false;
  int dir = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return false;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const int next =
        ::openat(dir, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(dir);
    if (next < 0) return false;
    dir = next;
  }
  struct stat st {};
  bool removed = false;
  if (::fstatat(dir, parts.back().c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
    removed = ::unlinkat(dir, parts.back().c_str(), 0) == 0;
  ::close(dir);
  return removed;
}

}  // namespace benchguard
