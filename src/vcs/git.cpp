#include "vcs/git.hpp"

#include "measure/capture.hpp"

namespace benchguard::vcs {

std::string rev_parse(const std::string& dir, const std::string& rev) {
  // "--end-of-options" keeps a revision that starts with '-' from being read as a flag.
  auto r = measure::capture_output({"git", "-C", dir.empty() ? "." : dir, "rev-parse", "--verify",
                                    "--quiet", "--end-of-options", rev + "^{commit}"},
                                   "", {{"GIT_OPTIONAL_LOCKS", "0"}});
  if (!r.ok() || r->exit_code != 0) return "";
  std::string out = r->out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

bool is_shallow(const std::string& dir) {
  auto r = measure::capture_output(
      {"git", "-C", dir.empty() ? "." : dir, "rev-parse", "--is-shallow-repository"}, "",
      {{"GIT_OPTIONAL_LOCKS", "0"}});
  return r.ok() && r->exit_code == 0 && r->out.starts_with("true");
}

}  // namespace benchguard::vcs
