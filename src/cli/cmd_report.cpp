// benchguard report --html DIR: the dashboard as a static site (docs/dashboard.md).
#include <fmt/format.h>

#include <chrono>

#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/dashboard_flags.hpp"
#include "core/names.hpp"
#include "report/html/site.hpp"

namespace benchguard::cli {

Action add_report(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand(
      "report", "The dashboard as a static site that works offline (file://) and on any host");
  auto dir = std::make_shared<std::string>();
  auto f = std::make_shared<DashboardFlags>();
  c->add_option("--html", *dir, "Directory to write the site into (created when missing)")
      ->required();
  f->add_to(c, true);
  return [&ctx, dir, f]() -> Result<int> {
    BG_ASSIGN(auto options, f->options());
    options.open_reader = [&ctx] { return ctx.open_store_read_only(); };
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(auto site, report::html::build_site(*store, options, now_ns()));
    for (const auto& w : site.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    BG_TRY(report::html::write_site(site, *dir));
    if (!ctx.globals.quiet)
      ctx.err << fmt::format("benchguard: {} files written to {} (open {}/index.html)\n",
                             site.files.size(), escape_text(*dir), escape_text(*dir));
    return 0;
  };
}

}  // namespace benchguard::cli
