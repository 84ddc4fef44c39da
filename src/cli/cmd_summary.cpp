// benchguard summary [RUN]: per benchmark and variant, what a careful engineer looks at
// before trusting a number.
#include "analysis/summary.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "core/json_error.hpp"
#include "report/summary.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

Result<int> do_summary(Context& ctx, const std::string& ref, const AnalysisFlags& f) {
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  BG_ASSIGN(const RunData run,
            ctx.resolve_run(*store, ref, {.columns = true, .instance_table = true}));
  BG_ASSIGN(const auto opts, f.summary_options());
  const analysis::RunSummary summary =
      analysis::summarize_run(run, f.metrics, ctx.globals.verbose > 0, opts);
  report::write(report::summary_document(run, summary), ctx.globals.format, ctx.out);
  return 0;
}

}  // namespace

Action add_summary(CLI::App& app, Context& ctx) {
  auto ref = std::make_shared<std::string>("latest");
  auto f = std::make_shared<AnalysisFlags>();
  auto* c = app.add_subcommand(
      "summary", "Per benchmark: intervals, variability, steady state, outliers, warnings");
  c->add_option("run", *ref, kRunRefHelp);
  f->add_to(c);
  return [&ctx, ref, f]() { return do_summary(ctx, *ref, *f); };
}

}  // namespace benchguard::cli
