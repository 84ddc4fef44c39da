// benchguard import FILE... [--input-format auto|NAME] [--label KEY=VALUE]...
#include <fmt/format.h>

#include <memory>

#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/shared_flags.hpp"
#include "core/names.hpp"
#include "ingest/ingest.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cli {

namespace {

struct ImportFlags {
  std::vector<std::string> files;
  std::string format = "auto";
  std::vector<std::string> labels;
};

void add_metrics(std::vector<MetricInfo>& all, const std::vector<MetricInfo>& more) {
  for (const auto& m : more)
    if (std::none_of(all.begin(), all.end(), [&](const auto& x) { return x.name == m.name; }))
      all.push_back(m);
}

Result<int> do_import(Context& ctx, const ImportFlags& f) {
  BG_ASSIGN(const KeyValues labels, parse_labels(f.labels));
  // Every file is read before the database is touched, and all runs are stored in one
  // transaction: one bad file and nothing is stored.
  // What each file held, counted before its runs move out (a copy of a million iterations
  // would cost as much as parsing them).
  struct FileCounts {
    std::string path, format;
    int benchmarks = 0, instances = 0, iterations = 0, summaries = 0;
    size_t first_run = 0, runs = 0;
  };
  std::vector<FileCounts> files;
  std::vector<RunData> runs;
  std::vector<MetricInfo> metrics;
  // Only ends when every run is stored, before the lines that say what was.
  auto progress = std::make_unique<Progress>(ctx, "import");
  for (const auto& file : f.files) {
    progress->step(
        fmt::format("reading {} (file {} of {})", file, files.size() + 1, f.files.size()));
    BG_ASSIGN(ingest::Imported imp, ingest::import_file(file, f.format));
    for (const auto& w : imp.warnings)
      ctx.err << fmt::format("benchguard: warning: {}: {}\n", escape_text(file), escape_text(w));
    files.push_back({imp.path, imp.format, imp.benchmarks(), imp.instances(), imp.iterations(),
                     imp.summaries(), runs.size(), imp.runs().size()});
    for (RunData* run : imp.runs()) {
      run->run.uuid = schedule::new_uuid();
      run->run.command_line = "benchguard " + ctx.command_line;
      run->run.labels.insert(run->run.labels.end(), labels.begin(), labels.end());
      runs.push_back(std::move(*run));
    }
    add_metrics(metrics, imp.metrics);
  }
  progress->step(fmt::format("storing {} run(s)", runs.size()));
  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  BG_ASSIGN(const auto ids, store->add_runs(runs, metrics));
  progress->step("saving the series cache");
  ctx.cache_series(*store, ids);
  progress.reset();
  for (const FileCounts& c : files) {
    if (ctx.globals.quiet) continue;
    std::string what =
        fmt::format("{}: {}, {} benchmark(s), {} instance(s), {} iteration(s)", escape_text(c.path),
                    c.format, c.benchmarks, c.instances, c.iterations);
    if (c.summaries > 0) what += fmt::format(", {} summary record(s)", c.summaries);
    const size_t first = c.first_run;
    if (c.runs == 1)
      what += fmt::format(" -> run {} ({})", ids[first], runs[first].run.uuid.substr(0, 8));
    else
      what += fmt::format(" -> {} runs, {} to {}", c.runs, ids[first], ids[first + c.runs - 1]);
    ctx.out << what << "\n";
  }
  ctx.err << fmt::format("benchguard: stored {} imported run(s) in {}\n", ids.size(),
                         ctx.db_name());
  return 0;
}

}  // namespace

Action add_import(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<ImportFlags>();
  auto* c = app.add_subcommand("import", "Store results of other harnesses, one run per file");
  c->add_option("files", f->files, "Result files (formats: see --input-format)")->required();
  add_input_format(c, f->format);
  add_renamed(c, "--format", "--input-format",
              "the format of the files read; --format is the output format, given before the "
              "command");
  add_labels(c, f->labels);
  return [&ctx, f]() { return do_import(ctx, *f); };
}

}  // namespace benchguard::cli
