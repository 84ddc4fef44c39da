// benchguard export [RUN...] [--all] [--format csv|json|jsonl] [-o FILE]
#include "cli/app.hpp"
#include "core/atomic_file.hpp"
#include "report/export.hpp"

namespace benchguard::cli {

namespace {

struct ExportFlags {
  std::vector<std::string> runs;
  bool all = false;
  std::string output;
};

Result<int> do_export(Context& ctx, const ExportFlags& f) {
  const report::Format format = ctx.globals.format;  // table, the default, writes CSV
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  std::vector<RunData> runs;
  std::vector<std::string> refs = f.runs;
  if (f.all) {
    BG_ASSIGN(auto list, store->list_runs());
    refs.clear();
    for (const auto& r : list) refs.push_back(r.uuid);
  } else if (refs.empty()) {
    refs.push_back("latest");
  }
  for (const auto& ref : refs) {
    BG_ASSIGN(RunData run, ctx.resolve_run(*store, ref));
    runs.push_back(std::move(run));
  }
  if (f.output.empty() || f.output == "-") {
    report::export_runs(runs, format, ctx.out);
    return 0;
  }
  // Written beside the target and renamed, so a failed export never leaves half a file and a
  // link planted at the target or its temporary name is never written through.
  BG_TRY(write_file_atomically(
      f.output, [&](std::ostream& file) { report::export_runs(runs, format, file); }));
  return 0;
}

}  // namespace

Action add_export(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<ExportFlags>();
  auto* c = app.add_subcommand(
      "export", "Write runs as csv (duet unified schema), json, or jsonl (Hail instances)");
  c->add_option("runs", f->runs, std::string("Runs to export (default: latest). ") + kRunRefHelp);
  c->add_flag("--all", f->all, "Export every run");
  c->add_option("-o,--output", f->output, "File to write (default: standard output)");
  return [&ctx, f]() { return do_export(ctx, *f); };
}

}  // namespace benchguard::cli
