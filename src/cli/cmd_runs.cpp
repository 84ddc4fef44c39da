// benchguard runs: the stored runs, newest first.
#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "report/runs.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

Action add_runs(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("runs", "List stored runs, newest first");
  auto limit = std::make_shared<int>(20);
  c->add_option("-n,--limit", *limit, "How many (0: all)")->check(whole_number("--limit", 0));
  return [&ctx, limit]() -> Result<int> {
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(auto runs, store->list_runs());
    if (*limit > 0 && static_cast<int>(runs.size()) > *limit) runs.resize(*limit);
    report::write(report::runs_document(runs, ctx.db_name()), ctx.globals.format, ctx.out);
    return 0;
  };
}

}  // namespace benchguard::cli
