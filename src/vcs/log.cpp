#include "vcs/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "measure/capture.hpp"
#include "vcs/git.hpp"
#include "vcs/worktree.hpp"

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

Result<std::vector<std::string>> first_parent_range(const std::string& dir,
                                                    const std::string& range) {
  const std::string repo = dir.empty() ? "." : dir;
  auto r = measure::capture_output({"git", "-C", repo, "rev-list", "--first-parent", "--reverse",
                                    "--end-of-options", range, "--"},
                                   "", kGitEnv);
  if (!r.ok()) return Error{fmt::format("cannot run git to list {}: {}", range, r.error().message)};
  if (r->exit_code != 0)
    return Error{fmt::format(
        "'{}' is no range of commits in the repository at {} (write A..B, a revision, or a "
        "file of hashes){}",
        range, repo,
        is_shallow(repo) ? "; it is a shallow clone: fetch every commit (git fetch --unshallow)"
                         : "")};
  std::vector<std::string> commits;
  std::istringstream lines(r->out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) commits.push_back(line);
  if (commits.empty())
    return Error{fmt::format("the range {} holds no commit in the repository at {}", range, repo)};
  return commits;
}

Result<std::vector<std::string>> commits_in_file(const std::string& dir, const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{fmt::format("cannot read the file of commits {}", path)};
  std::vector<std::string> commits;
  std::set<std::string> seen;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    auto hash = resolve_commit(dir, word);
    if (!hash.ok()) return Error::at(path, number, hash.error().message);
    if (seen.insert(*hash).second) commits.push_back(std::move(*hash));
  }
  if (commits.empty()) return Error{fmt::format("{}: lists no commit", path)};
  return commits;
}

std::vector<std::string> thin_commits(std::vector<std::string> commits, std::size_t every,
                                      std::size_t last) {
  if (every > 1) {
    std::vector<std::string> kept;
    // Counted back from the newest, which is always kept.
    for (std::size_t back = 0; back < commits.size(); back += every)
      kept.push_back(std::move(commits[commits.size() - 1 - back]));
    std::reverse(kept.begin(), kept.end());
    commits = std::move(kept);
  }
  if (last > 0 && commits.size() > last)
    commits.erase(commits.begin(), commits.end() - static_cast<std::ptrdiff_t>(last));
  return commits;
}

std::string branch_named(const std::string& dir, const std::string& rev) {
  // Not after --end-of-options, which rev-parse before git 2.43 prints as a revision: a name
  // like an option names no branch.
  if (rev.empty() || rev.front() == '-') return "";
  auto r = measure::capture_output(
      {"git", "-C", dir.empty() ? "." : dir, "rev-parse", "--symbolic-full-name", rev}, "",
      kGitEnv);
  if (!r.ok() || r->exit_code != 0) return "";
  std::string_view name = r->out;
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.remove_suffix(1);
  constexpr std::string_view kHeads = "refs/heads/";
  if (!name.starts_with(kHeads) || name.find('\n') != std::string_view::npos) return "";
  return std::string(name.substr(kHeads.size()));
}

}  // namespace benchguard::vcs
