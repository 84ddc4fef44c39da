// benchguard db status | check | migrate | merge OTHER... | prune --benchmark NAME [--before DATE]
// [--dry-run]
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/series_cache.hpp"
#include "cli/app.hpp"
#include "core/names.hpp"
#include "core/units.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct DbFlags {
  std::vector<std::string> others;
  std::string benchmark;
  std::string before;
  bool dry_run = false;
};

Result<int> status(Context& ctx) {
  // Read-only, and the file as it is: no temporary copy of an older schema.
  BG_ASSIGN(auto s, store::open_store(ctx.globals.db,
                                      {.create = false, .migrate = false, .read_only = true}));
  BG_ASSIGN(const auto st, s->schema_status());
  ctx.out << fmt::format("{}: schema version {} (latest {})\n", ctx.db_name(), st.current,
                         st.latest);
  for (const auto& [v, name] : st.applied)
    ctx.out << fmt::format("  applied  {:04d} {}\n", v, name);
  for (const auto& [v, name] : st.pending)
    ctx.out << fmt::format("  pending  {:04d} {}\n", v, name);
  return 0;
}

// Exit 0 when clean, 1 when problems were found, 2 (an Error) when the file cannot be read.
Result<int> check(Context& ctx) {
  BG_ASSIGN(store::CheckReport r, store::check_store(ctx.globals.db));
  const std::size_t derived =
      analysis::check_series_cache(r, [&ctx] { return ctx.open_store_read_only(); });
  constexpr size_t kShown = 1000;
  report::Document d;
  d.schema = "db-check";
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : r.problems) problems.push_back({{"source", p.source}, {"problem", p.text}});
  d.json = {{"database", ctx.db_name()},
            {"ok", r.problems.empty()},
            {"schema_version", r.schema_version},
            {"runs", r.runs},
            {"variants", r.variants},
            {"instances", r.instances},
            {"checksums_verified", r.checksums_verified},
            {"checksums_absent", r.checksums_absent},
            {"series_cache_entries", r.series_cache_entries},
            {"problems", problems},
            {"notes", r.notes}};
  report::Table t;
  t.columns = {report::Column::left("source", "source"),
               report::Column::left("problem", "problem")};
  for (const auto& p : r.problems) t.add_row({p.source, p.text});
  d.table(std::move(t), true);
  d.blocks.back().text = d.blocks.back().markdown = false;
  // A problem line quotes what the database holds, damaged bytes included: escaped, each
  // stays one line.
  for (size_t i = 0; i < r.problems.size() && i < kShown; ++i)
    d.line({report::data(r.problems[i].text)});
  if (r.problems.size() > kShown)
    d.line({report::own(fmt::format("... and {} more", r.problems.size() - kShown))});
  if (!ctx.globals.quiet)
    for (const auto& note : r.notes) d.line({report::own("note: "), report::data(note)});
  const std::string counted =
      fmt::format("{} run(s), {} variant(s), {} instance(s); {} checksum(s) verified", r.runs,
                  r.variants, r.instances, r.checksums_verified) +
      (derived > 0 ? fmt::format("; {} series cache entr{} derived again", derived,
                                 derived == 1 ? "y" : "ies")
                   : "");
  if (r.problems.empty())
    d.line(
        {report::data(ctx.db_name()),
         report::own(": ok: integrity, foreign keys, invariants and checksums (" + counted + ")")});
  else
    d.line({report::data(ctx.db_name()),
            report::own(fmt::format(": {} problem(s) found ({})", r.problems.size(), counted))});
  report::write(d, ctx.globals.format, ctx.out);
  return r.problems.empty() ? 0 : 1;
}

Result<int> migrate(Context& ctx) {
  BG_ASSIGN(auto s, ctx.open_store(/*create=*/true));
  BG_ASSIGN(const auto st, s->schema_status());
  ctx.out << fmt::format("{}: schema version {} (up to date)\n", ctx.db_name(), st.current);
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
  ctx.cache_all_series(*s);
  return 0;
}

// Every history run's entry derived and saved again, replacing what was there.
Result<int> cache(Context& ctx) {
  BG_ASSIGN(auto s, ctx.open_store());
  BG_ASSIGN(const std::size_t saved, analysis::cache_store_series(*s, /*again=*/true));
  ctx.out << fmt::format("{}: series cache of {} run(s) derived and saved\n", ctx.db_name(), saved);
  return 0;
}

Result<int> prune(Context& ctx, const DbFlags& f) {
  store::PruneFilter filter;
  filter.benchmark = f.benchmark;
  if (!f.before.empty()) {
    BG_ASSIGN(filter.before, parse_date(f.before));
  }
  filter.dry_run = f.dry_run;
  BG_ASSIGN(auto s, ctx.open_store());
  BG_ASSIGN(const auto c, s->prune(filter));
  if (!f.dry_run) ctx.cache_all_series(*s);
  ctx.out << fmt::format(
      "{} {}: {} variant(s), {} instance(s), {} iteration(s); {} run(s) removed\n",
      f.dry_run ? "would prune" : "pruned", f.benchmark, c.variants, c.instances, c.iterations,
      c.runs_emptied);
  if (f.dry_run) {
    for (const auto& run : c.runs)
      ctx.out << fmt::format("  run {}: {}\n", run.uuid,
                             run.removed ? "removed" : "keeps its other benchmarks");
    ctx.out << "nothing deleted (--dry-run)\n";
  }
  return 0;
}

}  // namespace

Action add_db(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<DbFlags>();
  auto* db =
      app.add_subcommand("db", "Schema versions, checking, merging databases, pruning old data");
  db->require_subcommand(1);
  auto* st = db->add_subcommand("status", "Schema version and migrations of the database");
  auto* ck = db->add_subcommand(
      "check", "Integrity, foreign keys, invariants and checksums (exit 1 on problems)");
  auto* mi = db->add_subcommand("migrate", "Apply pending migrations");
  auto* me = db->add_subcommand("merge", "Append the runs of other databases (idempotent)");
  me->add_option("others", f->others, "Databases to merge from")->required();
  auto* ca = db->add_subcommand(
      "cache", "Derive the series cache of every finished run again (what `db check` compares)");
  auto* pr = db->add_subcommand("prune", "Delete a benchmark's data, optionally only older data");
  pr->add_option("--benchmark", f->benchmark, "Benchmark name")->required();
  pr->add_option("--before", f->before, "Only runs started before this date (UTC)");
  pr->add_flag("--dry-run", f->dry_run, "List what would be deleted and delete nothing");
  return [&ctx, f, st, ck, mi, me, ca, pr]() -> Result<int> {
    if (ck->parsed()) return check(ctx);
    // The others say what they did, for people.
    BG_TRY(ctx.offers("db " + std::string(st->parsed()   ? "status"
                                          : mi->parsed() ? "migrate"
                                          : me->parsed() ? "merge"
                                          : ca->parsed() ? "cache"
                                                         : "prune"),
                      report::kTextOnly));
    if (st->parsed()) return status(ctx);
    if (mi->parsed()) return migrate(ctx);
    if (me->parsed()) return merge(ctx, *f);
    if (ca->parsed()) return cache(ctx);
    if (pr->parsed()) return prune(ctx, *f);
    return Error{"db needs a subcommand: status, check, migrate, merge, cache or prune"};
  };
}

}  // namespace benchguard::cli
