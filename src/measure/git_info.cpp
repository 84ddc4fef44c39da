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
  return info;
}

}  // namespace benchguard::measure
