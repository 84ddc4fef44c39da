#include "refs/refs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "vcs/worktree.hpp"

namespace benchguard::refs {
namespace {

namespace fs = std::filesystem;

// `path` moved from the repository at `top` into `worktree`; unchanged when outside it.
std::string moved(const std::string& path, const std::string& top, const std::string& worktree) {
  if (path.empty() || path.front() != '/') return path;
  const fs::path rel = fs::path(path).lexically_relative(top);
  if (rel.empty() || *rel.begin() == "..") return path;
  return (fs::path(worktree) / rel).lexically_normal().string();
}

// `v` run at `side`: where the repository's directory is in the side's worktree (a cwd or
// program inside the repository moved there), with the side's ref, commit and worktree set.
VariantSpec at_side(VariantSpec v, const Repository& repo, const RefSide& side) {
  v.cwd = moved(v.cwd, repo.top, side.worktree);
  if (!v.command.empty()) v.command.front() = moved(v.command.front(), repo.top, side.worktree);
  v.env.emplace_back("BENCHGUARD_REF", side.ref);
  v.env.emplace_back("BENCHGUARD_COMMIT", side.commit);
  v.env.emplace_back("BENCHGUARD_WORKTREE", side.worktree);
  return v;
}

}  // namespace

Result<Repository> repository_of(const Suite& suite, const RefsOptions& options) {
  std::error_code ec;
  const fs::path suite_dir =
      suite.path.empty() ? fs::current_path() : fs::absolute(suite.path, ec).parent_path();
  const std::string dir = options.repo.empty() ? suite_dir.string() : options.repo;
  BG_ASSIGN(const std::string top, vcs::toplevel(dir));
  Repository repo;
  repo.top = fs::weakly_canonical(top, ec).string();
  if (!suite.path.empty()) {
    const fs::path canonical = fs::weakly_canonical(fs::absolute(suite.path, ec), ec);
    const fs::path rel = canonical.lexically_relative(repo.top);
    if (rel.empty() || *rel.begin() == "..")
      return Error{
          fmt::format("{}: the suite file is not in the repository at {}", suite.path, repo.top)};
    repo.suite = rel.string();
  }
  return repo;
}

Result<RefSide> prepare_side(const Repository& repo, const RefsOptions& options,
                             const std::string& name, const std::string& ref) {
  RefSide side;
  side.name = name;
  side.ref = ref;
  BG_ASSIGN(side.commit, vcs::resolve_commit(repo.top, ref));
  if (options.on_step)
    options.on_step(fmt::format("{} = {} ({}): checking out{}", name, ref,
                                side.commit.substr(0, 12),
                                options.build.empty() ? "" : " and building"));
  BG_ASSIGN(vcs::Worktree tree, vcs::checkout(repo.top, side.commit));
  side.worktree = std::move(tree.path);
  side.lease = std::move(tree.lease);
  if (!options.build.empty()) {
    BG_ASSIGN(const auto built, vcs::build(repo.top, side.commit, side.worktree, options.build));
    if (!built.ok)
      return Error{fmt::format(
          "the build of {} ({}) failed{}; its output is in {}", ref, side.commit.substr(0, 12),
          built.cached ? " before (the same command)" : fmt::format(" (exit {})", built.exit_code),
          built.log)};
  }
  return side;
}

Result<Suite> suite_at(const Suite& suite, const Repository& repo,
                       const std::vector<RefSide>& sides, const RefsOptions& options,
                       const std::vector<std::string>& benchmarks) {
  for (const auto& name : benchmarks)
    if (std::none_of(suite.benchmarks.begin(), suite.benchmarks.end(),
                     [&](const BenchmarkSpec& b) { return b.name == name; })) {
      std::string known;
      for (const auto& b : suite.benchmarks) known += (known.empty() ? "" : ", ") + b.name;
      return Error{fmt::format("no benchmark '{}' in {} (it has: {})", name, suite.path, known)};
    }
  Suite out = suite;
  out.benchmarks.clear();
  for (const auto& b : suite.benchmarks) {
    if (!benchmarks.empty() &&
        std::find(benchmarks.begin(), benchmarks.end(), b.name) == benchmarks.end())
      continue;
    const VariantSpec* chosen = b.variants.empty() ? nullptr : &b.variants.front();
    if (!options.variant.empty()) {
      chosen = nullptr;
      for (const auto& v : b.variants)
        if (v.name == options.variant) chosen = &v;
    }
    if (chosen == nullptr)
      return Error::at(suite.path, b.line,
                       fmt::format("benchmark '{}' has no variant '{}'", b.name, options.variant));
    BenchmarkSpec at = b;
    at.variants.clear();
    for (const auto& side : sides) {
      VariantSpec v = at_side(*chosen, repo, side);
      v.name = side.name;
      at.variants.push_back(std::move(v));
    }
    out.benchmarks.push_back(std::move(at));
  }
  return out;
}

Suite suite_in_worktree(const Suite& suite, const Repository& repo, const RefSide& side) {
  Suite out = suite;
  for (auto& b : out.benchmarks)
    for (auto& v : b.variants) v = at_side(std::move(v), repo, side);
  return out;
}

KeyValues side_artifacts(const std::vector<RefSide>& sides, const RefsOptions& options) {
  KeyValues out;
  for (const auto& s : sides) {
    out.emplace_back("ref." + s.name, s.ref);
    out.emplace_back("ref." + s.name + ".commit", s.commit);
    out.emplace_back("ref." + s.name + ".worktree", s.worktree);
  }
  if (!options.build.empty()) out.emplace_back("ref.build", options.build);
  return out;
}

Result<AbOutcome> run_ab(const Suite& suite, store::Store& store, const std::string& ref_a,
                         const std::string& ref_b, bool null, const RefsOptions& options,
                         const schedule::ProgressFn& progress) {
  BG_ASSIGN(const Repository repo, repository_of(suite, options));
  AbOutcome out;
  BG_ASSIGN(out.a, prepare_side(repo, options, "A", ref_a));
  BG_ASSIGN(out.b, prepare_side(repo, options, "B", ref_b));
  const auto run = [&](const std::vector<RefSide>& sides,
                       const std::string& kind) -> Result<schedule::RunOutcome> {
    BG_ASSIGN(const Suite at, suite_at(suite, repo, sides, options));
    BG_TRY(schedule::preflight(at));
    schedule::RunOptions opts = options.run;
    opts.labels.emplace_back("ab", kind);
    if (options.on_step)
      options.on_step(kind == "ab" ? "measuring A and B" : "measuring A against itself (--null)");
    const KeyValues artifacts = side_artifacts(sides, options);
    opts.artifacts.insert(opts.artifacts.end(), artifacts.begin(), artifacts.end());
    if (options.until_decided && kind == "ab") {
      BG_ASSIGN(auto seq, sequential::run_until_decided(at, store, opts, *options.until_decided,
                                                        options.on_look, progress));
      out.sequential = std::move(seq.benchmarks);
      return std::move(seq.run);
    }
    return schedule::run_suite(at, store, opts, progress);
  };
  BG_ASSIGN(out.run, run({out.a, out.b}, "ab"));
  if (null && out.run.status == "complete") {
    RefSide again = out.a;
    again.name = null_variant_again(out.a.name);
    BG_ASSIGN(out.null_run, run({out.a, again}, "null"));
  }
  return out;
}

}  // namespace benchguard::refs
