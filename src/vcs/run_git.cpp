#include "vcs/run_git.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "measure/capture.hpp"

namespace benchguard::vcs {

const KeyValues kGitEnv = {{"GIT_OPTIONAL_LOCKS", "0"}, {"LC_ALL", "C"}};

Result<std::string> git(const std::string& dir, std::vector<std::string> args,
                        const std::string& what) {
  const std::string where = dir.empty() ? "." : dir;
  args.insert(args.begin(), {"git", "-C", where});
  auto r = measure::capture_output(args, "", kGitEnv);
  if (!r.ok()) return Error{fmt::format("cannot run git to {}: {}", what, r.error().message)};
  if (r->exit_code != 0) return Error{fmt::format("git cannot {} in {}", what, where)};
  std::string out = std::move(r->out);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

Result<std::string> state_dir(const std::string& dir) {
  BG_ASSIGN(const std::string common,
            git(dir, {"rev-parse", "--path-format=absolute", "--git-common-dir"},
                "find the repository's git directory"));
  return (std::filesystem::path(common) / "benchguard").string();
}

}  // namespace benchguard::vcs
