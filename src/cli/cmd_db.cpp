// benchguard db status | migrate | merge OTHER... | prune --benchmark NAME [--before DATE]
#include <fmt/format.h>

#include "cli/app.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

namespace {

struct DbFlags {
  std::vector<std::string> others;
  std::string benchmark;
  std::string before;
};

Result<int> status(Context& ctx) {
  store::OpenOptions o;
  o.create = false;
  o.migrate = false;
  BG_ASSIGN(auto s, store::open_store(ctx.globals.db, o));
  BG_ASSIGN(const auto st, s->schema_status());
  ctx.out << fmt::format("{}: schema version {} (latest {})\n", ctx.globals.db, st.current,
                         st.latest);
  for (const auto& [v, name] : st.applied)
    ctx.out << fmt::format("  applied  {:04d} {}\n", v, name);
  for (const auto& [v, name] : st.pending)
    ctx.out << fmt::format("  pending  {:04d} {}\n", v, name);
  return 0;
}

Result<int> migrate(Context& ctx) {
  BG_ASSIGN(auto s, ctx.open_store(/*create=*/true));
  BG_ASSIGN(const auto st, s->schema_status());
  ctx.out << fmt::format("{}: schema version {} (up to date)\n", ctx.globals.db, st.current);
  return 0;
}

Result<int> merge(Context& ctx, const DbFlags& f) {
  if (f.others.empty()) return Error{"db merge needs at least one database to merge from"};
  BG_ASSIGN(auto s, ctx.open_store(/*create=*/true));
  for (const auto& other : f.others) {
    BG_ASSIGN(const auto c, s->merge_from(other));
    ctx.out << fmt::format("{}: {} run(s) added ({} instances), {} already present\n", other,
                           c.runs_added, c.instances_added, c.runs_skipped);
  }
  return 0;
}

Result<int> prune(Context& ctx, const DbFlags& f) {
  store::PruneFilter filter;
  filter.benchmark = f.benchmark;
  if (!f.before.empty()) {
    BG_ASSIGN(filter.before, parse_date(f.before));
  }
  BG_ASSIGN(auto s, ctx.open_store());
  BG_ASSIGN(const auto c, s->prune(filter));
  ctx.out << fmt::format(
      "pruned {}: {} variant(s), {} instance(s), {} iteration(s); {} run(s) removed\n", f.benchmark,
      c.variants, c.instances, c.iterations, c.runs_emptied);
  return 0;
}

}  // namespace

Action add_db(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<DbFlags>();
  auto* db = app.add_subcommand("db", "Schema versions, merging databases, pruning old data");
  db->require_subcommand(1);
  auto* st = db->add_subcommand("status", "Schema version and migrations of the database");
  auto* mi = db->add_subcommand("migrate", "Apply pending migrations");
  auto* me = db->add_subcommand("merge", "Append the runs of other databases (idempotent)");
  me->add_option("others", f->others, "Databases to merge from")->required();
  auto* pr = db->add_subcommand("prune", "Delete a benchmark's data, optionally only older data");
  pr->add_option("--benchmark", f->benchmark, "Benchmark name")->required();
  pr->add_option("--before", f->before, "Only runs started before this date (UTC)");
  return [&ctx, f, st, mi, me, pr]() -> Result<int> {
    if (st->parsed()) return status(ctx);
    if (mi->parsed()) return migrate(ctx);
    if (me->parsed()) return merge(ctx, *f);
    if (pr->parsed()) return prune(ctx, *f);
    return Error{"db needs a subcommand: status, migrate, merge or prune"};
  };
}

}  // namespace benchguard::cli
