// benchguard show [RUN]
#include "cli/app.hpp"
#include "cli/show_table.hpp"
#include "report/run_summary.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

void print_run(Context& ctx, const RunData& run) {
  report::write(report::run_document(run), ctx.globals.format, ctx.out);
}

Action add_show(CLI::App& app, Context& ctx) {
  auto ref = std::make_shared<std::string>("latest");
  auto* c = app.add_subcommand("show", "Per benchmark and variant of a run: counts, time, memory");
  c->add_option("run", *ref, kRunRefHelp);
  return [&ctx, ref]() -> Result<int> {
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(const RunData run, ctx.resolve_run(*store, *ref));
    print_run(ctx, run);
    return 0;
  };
}

}  // namespace benchguard::cli
