#include <charconv>
#include <string_view>

#include "measure/capture.hpp"
#include "measure/host.hpp"

namespace benchguard::measure {

GitInfo git_info(const std::string& dir) {
  // One `git status` answers all three questions. No optional locks: benchguard must not
  // rewrite the index of a repository a developer is working in.
  auto st = capture_output({"git", "-C", dir.empty() ? "." : dir, "status", "--porcelain=v2",
                            "--branch", "--untracked-files=no"},
                           "", {{"GIT_OPTIONAL_LOCKS", "0"}, {"LC_ALL", "C"}});
  GitInfo info;
  if (!st.ok() || st->exit_code != 0) return info;  // git missing, or not a repository
  std::string_view out = st->out;
  while (!out.empty()) {
    const size_t nl = out.find('\n');
    const std::string_view line = out.substr(0, nl);
    out.remove_prefix(nl == std::string_view::npos ? out.size() : nl + 1);
    if (line.empty()) continue;
    if (line[0] != '#') {
      info.dirty = true;  // a changed tracked file (untracked files do not count)
    } else if (line.substr(0, 13) == "# branch.oid ") {
      const std::string_view oid = line.substr(13);
      if (oid != "(initial)") info.commit = std::string(oid);
    } else if (line.substr(0, 14) == "# branch.head ") {
      const std::string_view head = line.substr(14);
      if (head != "(detached)") info.branch = std::string(head);
    }
  }
  if (info.commit.empty()) return info;
  // The committer time orders runs of a series when no repository is given (docs/history.md).
  auto log = capture_output(
      {"git", "-C", dir.empty() ? "." : dir, "log", "-1", "--format=%ct", info.commit, "--"}, "",
      {{"GIT_OPTIONAL_LOCKS", "0"}, {"LC_ALL", "C"}});
  if (log.ok() && log->exit_code == 0) {
    std::string_view t = log->out;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
    int64_t secs = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), secs);
    if (ec == std::errc() && end == t.data() + t.size() && secs > 0) info.commit_time = secs;
  }
  return info;
}

}  // namespace benchguard::measure
