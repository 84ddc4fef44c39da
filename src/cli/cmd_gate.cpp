// benchguard gate: the CI gate over history or against a branch or commit (docs/history.md).
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analysis/gate.hpp"
#include "cli/app.hpp"
#include "cli/confirm_flags.hpp"
#include "cli/history_flags.hpp"
#include "cli/shared_flags.hpp"
#include "core/suite.hpp"
#include "report/history.hpp"
#include "report/write.hpp"
#include "vcs/git.hpp"
#include "vcs/log.hpp"

namespace benchguard::cli {

Action add_gate(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("gate",
                               "CI gate: exit 1 when the newest run brings an unacknowledged "
                               "confirmed regression, 0 otherwise, 2 on bad input");
  auto f = std::make_shared<SelectFlags>();
  auto d = std::make_shared<DetectFlags>();
  auto against = std::make_shared<std::string>("history");
  f->add_to(c, false);
  d->add_to(c);
  c->add_option("--against", *against,
                "history (change points of each series), a branch or a commit (the newest "
                "run against its newest run)");
  auto require = std::make_shared<std::vector<std::string>>();
  c->add_option("--require", *require,
                "Channels (metrics) that must pass, e.g. instructions,wall_time: each must be "
                "measured for every benchmark at the newest run, and only their regressions "
                "fail the gate (the others are reported)")
      ->delimiter(',');
  auto confirm = std::make_shared<bool>(false);
  auto cf = std::make_shared<ConfirmFlags>();
  c->add_flag("--confirm", *confirm,
              "Measure each regression suspected at the newest commit again (its commit and the "
              "one before, built in worktrees, run interleaved here) and fail only when that "
              "confirms it");
  c->add_option("--suite", cf->run.suite,
                "The suite file: its gate: {require: [...]} where --require is not given, and "
                "with --confirm what is measured");
  add_build(c, cf->build);
  add_instances(c, cf->run.instances);
  add_renamed(c, "--confirm-instances", "--instances",
              "the instances a side of each confirming run, as confirm names them");
  auto min_history = std::make_shared<std::size_t>(0);
  c->add_option("--min-history", *min_history,
                "Exit 2 when a series at the newest commit has fewer than N points before it "
                "(the head check needs 5), naming the `run --commits` that would measure them")
      ->check(whole_number("--min-history", 0));
  return [&ctx, f, d, against, require, confirm, cf, min_history]() -> Result<int> {
    analysis::GateOptions o;
    o.against = *against;
    o.require = *require;
    o.min_history = *min_history;
    o.suite_file = cf->run.suite;
    o.build = cf->build;
    o.checkout_head = vcs::rev_parse(f->repo, "HEAD");
    // The suite's `gate: {require: [...]}` where the command line names no channel.
    if (o.require.empty() && !cf->run.suite.empty()) {
      BG_ASSIGN(const Suite suite, load_suite(cf->run.suite));
      o.require = suite.gate_require;
    }
    if (o.min_history > 0 && o.against != "history")
      return Error{"--min-history counts the points of history: use it with --against history"};
    if (o.against != "history") {
      o.against_commit = vcs::rev_parse(f->repo, o.against);
      if (!o.against_commit.empty()) {
        // Newest first, the commit itself first: where its own run is missing, an ancestor's.
        if (auto log = vcs::first_parent_history(f->repo, o.against_commit); log.ok()) {
          for (auto it = log->rbegin(); it != log->rend() && o.against_ancestors.size() < 200; ++it)
            o.against_ancestors.push_back(it->hash);
        }
      }
    }
    BG_ASSIGN(o.history, f->options());
    o.history.also = o.require;
    o.detect = d->options();
    o.where = ctx.db_name();
    o.open_reader = [&ctx] { return ctx.open_store_read_only(); };
    BG_ASSIGN(auto store, ctx.open_store());
    if (*confirm) {
      if (o.against != "history")
        return Error{"--confirm measures what history suspects: use it with --against history"};
      cf->repo = f->repo;
      BG_ASSIGN(o.confirm, make_confirmer(ctx, *cf, *store));
    }
    BG_ASSIGN(auto gate, analysis::run_gate(*store, o, now_ns()));
    report::write(report::gate_document(gate), ctx.globals.format, ctx.out);
    // GitHub Actions shows this file on the run's summary page.
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
      std::ostringstream md;
      report::render_gate_markdown(gate, md);
      std::ofstream file(summary, std::ios::app);
      file << md.str();
      if (!file) return Error{fmt::format("cannot append to $GITHUB_STEP_SUMMARY ({})", summary)};
    }
    return gate.failed() ? 1 : 0;
  };
}

}  // namespace benchguard::cli
