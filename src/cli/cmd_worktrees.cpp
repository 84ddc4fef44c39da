// benchguard worktrees list | clear [--repo DIR]: the cache of worktrees that ab, bisect,
// confirm and gate --confirm build commits in (vcs/worktree_cache.hpp, docs/bisect.md).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "core/units.hpp"
#include "report/write.hpp"
#include "vcs/run_git.hpp"
#include "vcs/worktree_cache.hpp"

namespace benchguard::cli {

namespace {

std::string limit_text(const vcs::CacheLimit& limit) {
  const std::string count = limit.worktrees > 0 ? fmt::format("{} worktree(s)", limit.worktrees)
                                                : std::string("any number of worktrees");
  const std::string size =
      limit.bytes > 0 ? format_bytes(static_cast<double>(limit.bytes)) : std::string("any size");
  return fmt::format("{} (BENCHGUARD_WORKTREES), {} (BENCHGUARD_WORKTREES_SIZE)", count, size);
}

// The cache's folder, or an Error when `repo` is not in a git repository.
Result<std::string> cache_of(const std::string& repo) {
  auto state = vcs::state_dir(repo);
  if (!state.ok())
    return Error{fmt::format("{} is not in a git repository (give --repo DIR)",
                             repo.empty() ? "the current directory" : "'" + repo + "'")};
  return state;
}

Result<int> list(Context& ctx, const std::string& repo) {
  BG_ASSIGN(const vcs::CacheLimit limit, vcs::cache_limit());
  BG_ASSIGN(const std::string state, cache_of(repo));
  BG_ASSIGN(const auto cached, vcs::list_cache(repo));
  report::Document d;
  d.schema = "worktrees";
  nlohmann::json items = nlohmann::json::array();
  report::Table t;
  t.columns = {report::Column::left("commit", "commit"),
               report::Column::number("size", "bytes"),
               report::Column::left("last use (UTC)", "last_use"),
               report::Column::left("in use", "in_use"),
               report::Column::left("build", "build"),
               report::Column::left("worktree", "path")};
  uint64_t total = 0;
  std::size_t in_use = 0;
  for (const auto& w : cached) {
    total += w.bytes;
    in_use += w.in_use ? 1 : 0;
    const double bytes = static_cast<double>(w.bytes);
    items.push_back({{"commit", w.commit},
                     {"path", w.path},
                     {"bytes", w.bytes},
                     {"last_use", format_iso8601(w.last_use)},
                     {"in_use", w.in_use},
                     {"build", w.build.empty() ? nlohmann::json() : nlohmann::json(w.build)}});
    t.add_row({report::Cell::both(w.commit.substr(0, 12), w.commit),
               report::Cell::bytes(bytes, format_bytes(bytes)),
               report::Cell::both(format_time(w.last_use), format_iso8601(w.last_use)),
               report::Cell::both(w.in_use ? "yes" : "no", w.in_use ? "true" : "false"),
               w.build.empty() ? report::Cell::none("-") : report::Cell(w.build), w.path});
  }
  d.json = {
      {"cache", state},
      {"limit",
       {{"worktrees", limit.worktrees > 0 ? nlohmann::json(limit.worktrees) : nlohmann::json()},
        {"bytes", limit.bytes > 0 ? nlohmann::json(limit.bytes) : nlohmann::json()}}},
      {"total_bytes", total},
      {"worktrees", std::move(items)}};
  d.table(std::move(t), true);
  if (cached.empty()) d.blocks.back().text = d.blocks.back().markdown = false;
  d.line({report::own(fmt::format("{} worktree(s), {}{}, in ", cached.size(),
                                  format_bytes(static_cast<double>(total)),
                                  in_use > 0 ? fmt::format(", {} in use", in_use) : "")),
          report::data(state)});
  d.line({report::own("limit: " + limit_text(limit))});
  report::write(d, ctx.globals.format, ctx.out);
  return 0;
}

Result<int> clear(Context& ctx, const std::string& repo) {
  BG_TRY(ctx.offers("worktrees clear", report::kTextOnly));
  BG_ASSIGN(const std::string state, cache_of(repo));
  BG_ASSIGN(const vcs::Removed removed, vcs::clear_cache(repo));
  ctx.out << fmt::format("removed {} worktree(s) ({}) from {}", removed.commits.size(),
                         format_bytes(static_cast<double>(removed.bytes)), state);
  if (removed.in_use > 0) ctx.out << fmt::format("; {} in use by a command kept", removed.in_use);
  ctx.out << "\n";
  return 0;
}

}  // namespace

Action add_worktrees(CLI::App& app, Context& ctx) {
  auto repo = std::make_shared<std::string>();
  auto* c = app.add_subcommand(
      "worktrees",
      "The worktrees ab, bisect, confirm and gate --confirm keep per commit: list or clear them");
  c->require_subcommand(1);
  const auto add_repo_to = [&repo](CLI::App* sub) {
    sub->add_option("--repo", *repo,
                    "A directory of the git repository whose cache it is (default: here)");
  };
  auto* ls = c->add_subcommand(
      "list", "Each cached worktree: its commit, size, last use, whether in use, its build");
  add_repo_to(ls);
  auto* cl = c->add_subcommand(
      "clear", "Remove every cached worktree no command is using, and its build's stamps");
  add_repo_to(cl);
  return [&ctx, repo, ls]() -> Result<int> {
    if (ls->parsed()) return list(ctx, *repo);
    return clear(ctx, *repo);
  };
}

}  // namespace benchguard::cli
