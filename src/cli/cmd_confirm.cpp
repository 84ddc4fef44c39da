// benchguard confirm ID SUITE.yml: a suspected change measured again, its two commits built in
// worktrees and run interleaved (refs/confirm.hpp, docs/history.md).
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/confirm_flags.hpp"
#include "cli/history_flags.hpp"
#include "cli/progress.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/json_error.hpp"
#include "core/names.hpp"
#include "refs/confirm.hpp"
#include "report/history.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

void ConfirmFlags::add_to(CLI::App* c) {
  add_build(c, build);
  add_repo(c, repo);
  add_run_flags(c, run);
  c->add_flag("--fixed", fixed,
              "Measure exactly the instances (--instances, or what the change needs) instead of "
              "stopping once decided (docs/sequential.md)");
  verdict.add_to(c);
  analysis.add_to_measuring(c);
}

Result<analysis::Confirmer> make_confirmer(Context& ctx, const ConfirmFlags& f,
                                           store::Store& store) {
  if (f.run.suite.empty()) return Error{"confirming needs the suite file (--suite FILE)"};
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f.run));
  refs::ConfirmOptions o;
  BG_ASSIGN(o.refs.run, run_options(ctx, f.run, suite));
  o.refs.build = f.build;
  o.refs.repo = f.repo;
  o.instances = f.run.instances;
  o.sequential = !f.fixed;
  BG_ASSIGN(o.compare, compare_options(f.analysis, f.verdict));
  return analysis::Confirmer(
      [&ctx, &store, suite, o](const store::ChangeRecord& c) -> Result<analysis::Confirmation> {
        BG_ASSIGN(auto stored, refs::stored_confirmation(store, c, o.compare));
        if (stored) return refs::to_confirmation(*stored);
        ctx.err << fmt::format("benchguard: measuring {}..{} again to confirm {} ({})\n",
                               c.last_good.substr(0, 10), c.first_bad.substr(0, 10), c.id,
                               escape_text(c.benchmark));
        const StopOnSignals stop;
        Progress progress(ctx, "confirm");
        refs::ConfirmOptions told = o;
        told.refs.on_step = [&progress](const std::string& what) { progress.step(what); };
        const auto outcome = refs::confirm_change(suite, store, c, told, std::ref(progress));
        if (!outcome.ok()) return outcome.error();
        return refs::to_confirmation(*outcome);
      });
}

namespace {

Result<int> do_confirm(Context& ctx, const std::string& id, const ConfirmFlags& f) {
  BG_TRY(check_name("change id", id));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/false));
  BG_ASSIGN(store::ChangeRecord change, find_change(ctx.db_name(), *store, id));
  BG_ASSIGN(const analysis::Confirmer confirm, make_confirmer(ctx, f, *store));
  BG_ASSIGN(const analysis::Confirmation outcome, confirm(change));
  // The verdict stays with the stored change: a confirmed one stays open after newer commits.
  if (outcome.verdict == "confirmed" || outcome.verdict == "refuted")
    BG_TRY(analysis::set_change_status(*store, change.id, outcome.verdict));
  change.status = outcome.verdict;
  report::write(report::confirmation_document(change, outcome), ctx.globals.format, ctx.out);
  return 0;
}

}  // namespace

Action add_confirm(CLI::App& app, Context& ctx) {
  auto id = std::make_shared<std::string>();
  auto f = std::make_shared<ConfirmFlags>();
  auto* c = app.add_subcommand(
      "confirm",
      "Measure a suspected change again: its last good and first bad commits, each built in "
      "its worktree, run interleaved here, compared; confirmed, refuted or inconclusive");
  c->add_option("change", *id, "The change's id (from `detect` or `gate`)")->required();
  c->add_option("suite", f->run.suite, "Suite YAML file (read from the working tree)")->required();
  f->add_to(c);
  return [&ctx, id, f]() { return do_confirm(ctx, *id, *f); };
}

}  // namespace benchguard::cli
