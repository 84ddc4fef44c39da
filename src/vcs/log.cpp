#include "vcs/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>

#include "measure/capture.hpp"

namespace benchguard::vcs {
namespace {

const KeyValues kGitEnv = {{"GIT_OPTIONAL_LOCKS", "0"}, {"LC_ALL", "C"}};

// "HASH SECONDS" -> Commit; false when the line is not that.
bool parse_line(std::string_view line, Commit& out) {
  const auto space = line.find(' ');
  if (space == std::string_view::npos || space == 0) return false;
  out.hash = std::string(line.substr(0, space));
  const std::string_view secs = line.substr(space + 1);
  int64_t s = 0;
  const auto [end, ec] = std::from_chars(secs.data(), secs.data() + secs.size(), s);
  if (ec != std::errc() || end != secs.data() + secs.size()) return false;
  out.time_ns = s * 1'000'000'000;
  return true;
}

}  // namespace

Result<std::vector<Commit>> first_parent_history(const std::string& dir, const std::string& rev) {
  const std::string repo = dir.empty() ? "." : dir;
  const std::string what = rev.empty() ? "HEAD" : rev;
  // "--end-of-options" keeps a revision that starts with '-' from being read as a flag.
  auto r = measure::capture_output({"git", "-C", repo, "log", "--first-parent", "--format=%H %ct",
                                    "--end-of-options", what + "^{commit}", "--"},
                                   "", kGitEnv);
  if (!r.ok())
    return Error{fmt::format("cannot run git for the history of {}: {}", repo, r.error().message)};
  if (r->exit_code != 0)
    return Error{
        fmt::format("git cannot list the history of '{}' in {}: not a repository, or no "
                    "such branch or commit",
                    what, repo)};
  std::vector<Commit> commits;
  std::string_view out = r->out;
  while (!out.empty()) {
    const size_t nl = out.find('\n');
    const std::string_view line = out.substr(0, nl);
    out.remove_prefix(nl == std::string_view::npos ? out.size() : nl + 1);
    if (line.empty()) continue;
    Commit c;
    if (!parse_line(line, c))
      return Error{fmt::format("unexpected output of git log in {}: '{}'", repo, line)};
    commits.push_back(std::move(c));
  }
  std::reverse(commits.begin(), commits.end());  // git lists the newest first
  return commits;
}

}  // namespace benchguard::vcs
