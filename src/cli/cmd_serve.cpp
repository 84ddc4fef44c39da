// benchguard serve [--port N] [--bind ADDR]: the dashboard served live from the database,
// read-only, on loopback unless --bind names another address (docs/dashboard.md).
#include "cli/app.hpp"
#include "cli/dashboard_flags.hpp"
#include "cli/shared_flags.hpp"
#include "report/html/serve.hpp"

namespace benchguard::cli {

Action add_serve(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand(
      "serve", "Serve the dashboard from the database, read-only (127.0.0.1 unless --bind)");
  auto o = std::make_shared<report::html::ServeOptions>();
  auto f = std::make_shared<DashboardFlags>();
  c->add_option("--port", o->port, "Port (0: any free one, printed on start)")
      ->check(whole_number("--port", 0, 65535));
  c->add_option("--bind", o->bind, "Address to listen on; another than 127.0.0.1 must be named");
  f->add_to(c, false);
  return [&ctx, o, f]() -> Result<int> {
    BG_ASSIGN(o->site, f->options());
    BG_TRY(report::html::serve([&ctx]() { return ctx.open_store_read_only(); }, *o, ctx.err));
    return 0;
  };
}

}  // namespace benchguard::cli
