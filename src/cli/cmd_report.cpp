// benchguard report --html DIR: the dashboard as a static site (docs/dashboard.md);
// report --issue ID: a change as Markdown for an issue (docs/history.md).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "analysis/gate.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/dashboard_flags.hpp"
#include "cli/history_flags.hpp"
#include "cli/progress.hpp"
#include "core/names.hpp"
#include "refs/confirm.hpp"
#include "report/history.hpp"
#include "report/html/site.hpp"
#include "vcs/worktree.hpp"

namespace benchguard::cli {

namespace {

Result<int> report_issue(Context& ctx, const std::string& id) {
  BG_TRY(check_name("change id", id));
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  BG_ASSIGN(const store::ChangeRecord change, find_change(ctx.db_name(), *store, id));
  const auto* it = &change;
  BG_ASSIGN(const auto acks, store->load_acks());
  report::IssueFacts facts;
  facts.change = analysis::with_acks({*it}, acks).front();
  BG_ASSIGN(const auto runs, store->list_runs());
  for (const auto& r : runs)
    if (const std::string* c = find_value(r.labels, "confirm"); c != nullptr && *c == id)
      facts.confirmations.push_back(r);
  // A change measured again is what that measurement said.
  BG_ASSIGN(const auto compare, compare_options(AnalysisFlags{}, VerdictFlags{}));
  BG_ASSIGN(const auto confirmed, refs::stored_confirmation(*store, *it, compare));
  if (confirmed) {
    facts.change.change.status = confirmed->verdict;
    facts.measured = refs::to_confirmation(*confirmed);
  }
  // The culprit is known when the range is one commit (asked of the repository here, when
  // there is one), or when a bisect of the range named it.
  if (const auto range = vcs::commits_between(".", it->last_good, it->first_bad); range.ok()) {
    facts.commits_in_range = range->size();
    if (range->size() == 1) {
      facts.culprit = it->first_bad;
    } else {
      BG_ASSIGN(const auto found, refs::stored_culprit(*store, *it, *range, compare));
      if (found) {
        facts.culprit = found->commit;
        facts.culprit_measured = found->measured;
      }
    }
  }
  report::render_issue(facts, ctx.out);
  return 0;
}

}  // namespace

Action add_report(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand(
      "report", "The dashboard as a static site that works offline (file://) and on any host");
  auto dir = std::make_shared<std::string>();
  auto issue = std::make_shared<std::string>();
  auto f = std::make_shared<DashboardFlags>();
  auto force = std::make_shared<bool>(false);
  auto* html = c->add_option("--html", *dir,
                             "Directory to write the site into: new, empty, or holding a site "
                             "written before (created when missing)");
  c->add_flag("--force", *force, "Write the site into a folder that holds other files")
      ->needs(html);
  c->add_option("--issue", *issue,
                "Instead: a change (its id from detect or gate) as Markdown to paste into an "
                "issue: size, commits, status, runs, how to reproduce")
      ->excludes(html);
  f->add_to(c, true);
  return [&ctx, dir, issue, f, force]() -> Result<int> {
    if (!issue->empty()) return report_issue(ctx, *issue);
    if (dir->empty()) return Error{"report needs --html DIR (or --issue ID)"};
    if (!*force) BG_TRY(report::html::check_site_folder(*dir));
    BG_ASSIGN(auto options, f->options());
    options.open_reader = [&ctx] { return ctx.open_store_read_only(); };
    // Only ends when the site is written, before the line that says so.
    auto progress = std::make_unique<Progress>(ctx, "report");
    options.on_step = [&progress](const std::string& what) { progress->step(what); };
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    progress->step("reading the previous build of " + *dir);
    const auto previous = report::html::read_previous_site(*dir);
    BG_ASSIGN(auto site, report::html::build_site(*store, options, now_ns(), &previous));
    for (const auto& w : site.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    if (site.unchanged) {
      // Every file checked against what the last build wrote: nothing to write.
      if (!ctx.globals.quiet)
        ctx.err << fmt::format(
            "benchguard: nothing the site shows has changed since its last build; {} left as "
            "it was (open {}/index.html)\n",
            escape_text(*dir), escape_text(*dir));
      return 0;
    }
    progress->step(fmt::format("writing {} file(s) to {}", site.files.size(), *dir));
    BG_ASSIGN(const auto written, report::html::write_site(site, *dir));
    progress.reset();
    if (!ctx.globals.quiet) {
      std::string changes;
      if (written.unchanged > 0) changes += fmt::format(", {} unchanged", written.unchanged);
      if (written.removed > 0) changes += fmt::format(", {} removed", written.removed);
      if (site.reused > 0)
        changes += fmt::format(", {} pages kept from the last build", site.reused);
      if (site.followed)
        changes += fmt::format(", the history of {} benchmark{} read again", site.remade.size(),
                               site.remade.size() == 1 ? "" : "s");
      ctx.err << fmt::format("benchguard: {} files written to {}{} (open {}/index.html)\n",
                             written.written, escape_text(*dir), changes, escape_text(*dir));
    }
    return 0;
  };
}

}  // namespace benchguard::cli
