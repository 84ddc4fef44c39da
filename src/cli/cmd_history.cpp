// benchguard history | detect: series over commits and their change points (docs/history.md).
#include <fmt/format.h>

#include "analysis/gate.hpp"
#include "analysis/history_load.hpp"
#include "cli/app.hpp"
#include "cli/history_flags.hpp"
#include "core/names.hpp"
#include "report/history.hpp"
#include "report/write.hpp"

namespace benchguard::cli {
namespace {

// Read-only connections of their own for reading the history, several runs at once.
store::StoreOpener reader(Context& ctx) {
  return [&ctx] { return ctx.open_store_read_only(); };
}

}  // namespace

Action add_history(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("history",
                               "Series over commits: per benchmark, metric and machine class, one "
                               "point per commit");
  auto f = std::make_shared<SelectFlags>();
  f->add_to(c, true);
  return [&ctx, f]() -> Result<int> {
    BG_ASSIGN(auto opts, f->options());
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(auto runs, store->list_runs({.counts = false}));
    BG_ASSIGN(auto history, analysis::load_history(reader(ctx), opts, std::move(runs)));
    BG_TRY(analysis::check_selection(history, opts, ctx.db_name()));
    for (const auto& w : history.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    report::write(report::history_document(history), ctx.globals.format, ctx.out);
    analysis::free_series(history);
    return 0;
  };
}

Action add_detect(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand(
      "detect", "Find change points in every series (incremental; results are stored)");
  auto f = std::make_shared<SelectFlags>();
  auto d = std::make_shared<DetectFlags>();
  auto all = std::make_shared<bool>(false);
  f->add_to(c, false);
  d->add_to(c);
  c->add_flag("--all", *all, "Also list acknowledged change points");
  return [&ctx, f, d, all]() -> Result<int> {
    BG_ASSIGN(auto opts, f->options());
    BG_ASSIGN(auto store, ctx.open_store());
    BG_ASSIGN(auto runs, store->list_runs({.counts = false}));
    BG_ASSIGN(auto history,
              analysis::load_history(reader(ctx), opts, std::move(runs), store.get()));
    BG_TRY(analysis::check_selection(history, opts, ctx.db_name()));
    for (const auto& w : history.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    BG_ASSIGN(auto found, analysis::detect_and_store(*store, history, d->options(), now_ns()));
    analysis::free_series(history);
    BG_ASSIGN(auto acks, store->load_acks());
    auto rows = analysis::with_acks(found.changes, acks);
    if (!*all) std::erase_if(rows, [](const auto& r) { return r.ack != nullptr; });
    report::write(report::changes_document(rows), ctx.globals.format, ctx.out);
    if (!ctx.globals.quiet)
      ctx.err << fmt::format(
          "benchguard: {} series examined ({} incrementally), {} change "
          "point(s)\n",
          found.series, found.reused, found.changes.size());
    return 0;
  };
}

}  // namespace benchguard::cli
