// benchguard show [RUN]
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/show_table.hpp"
#include "core/json_error.hpp"
#include "core/units.hpp"
#include "report/run_summary.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

namespace {

nlohmann::json summary_json(const RunData& run, const std::vector<report::VariantSummary>& rows) {
  nlohmann::json j;
  j["run"] = {{"id", run.id},
              {"uuid", run.run.uuid},
              {"started_at", format_iso8601(run.run.started_at)},
              {"status", run.run.status},
              {"suite", run.run.suite},
              {"hostname", run.run.hostname},
              {"git_commit", run.run.git_commit}};
  j["summaries"] = nlohmann::json::array();
  for (const auto& v : run.variants)
    for (auto& s : report::summary_records_json(v)) {
      s["benchmark"] = v.variant.benchmark;
      s["variant"] = v.variant.name;
      j["summaries"].push_back(std::move(s));
    }
  j["benchmarks"] = nlohmann::json::array();
  for (const auto& s : rows) {
    j["benchmarks"].push_back({{"benchmark", s.benchmark},
                               {"variant", s.variant},
                               {"metric", s.metric},
                               {"unit", s.unit},
                               {"instances", s.instances_ok},
                               {"instances_failed", s.instances_failed},
                               {"iterations", s.iterations},
                               {"burn_in", s.burn_in},
                               {"mean", s.mean},
                               {"median", s.median},
                               {"min", s.min},
                               {"max", s.max},
                               {"stdev", s.stdev},
                               {"cv", s.cv},
                               {"peak_memory_bytes", s.peak_memory}});
  }
  return j;
}

}  // namespace

void print_run(Context& ctx, const RunData& run) {
  const auto rows = report::summarize_run(run);
  const std::string& format = ctx.globals.format;
  if (format == "json") {
    ctx.out << json_text(summary_json(run, rows), 2) << "\n";
    return;
  }
  const bool machine = format == "csv";
  // A variant counted under Valgrind is shown by its instructions: then the table names the
  // metric of each row.
  const bool named =
      std::any_of(rows.begin(), rows.end(), [](const auto& s) { return s.metric != "wall_time"; });
  report::Table t;
  t.header = {"benchmark", "variant", "instances", "iterations", "mean",       "median",
              "min",       "max",     "stdev",     "cv",         "peak memory"};
  t.right = {false, false, true, true, true, true, true, true, true, true, true};
  if (named) {
    t.header.insert(t.header.begin() + 2, "metric");
    t.right.insert(t.right.begin() + 2, false);
  }
  for (const auto& s : rows) {
    auto v = [&](double x) { return machine ? fmt::format("{:.9g}", x) : format_value(x, s.unit); };
    std::string inst = std::to_string(s.instances_ok);
    if (s.instances_failed > 0 && !machine)
      inst += fmt::format(" (+{} failed)", s.instances_failed);
    const bool empty = s.iterations == 0;
    std::vector<std::string> row = {
        s.benchmark,
        s.variant,
        inst,
        std::to_string(s.iterations),
        empty ? "-" : v(s.mean),
        empty ? "-" : v(s.median),
        empty ? "-" : v(s.min),
        empty ? "-" : v(s.max),
        empty ? "-" : v(s.stdev),
        empty ? "-" : (machine ? fmt::format("{:.6g}", s.cv) : fmt::format("{:.1f}%", 100 * s.cv)),
        machine ? fmt::format("{:.0f}", s.peak_memory) : format_bytes(s.peak_memory)};
    if (named) row.insert(row.begin() + 2, s.metric);
    t.add_row(std::move(row));
  }
  if (format == "table" || format == "md") {
    const auto& r = run.run;
    std::string head = fmt::format("run {} ({}) {} on {}", r.uuid.substr(0, 8), r.status,
                                   format_time(r.started_at), r.hostname);
    if (!r.git_commit.empty())
      head += fmt::format(", git {}{}", r.git_commit.substr(0, 10), r.git_dirty ? "+dirty" : "");
    ctx.out << (format == "md" ? "**" + head + "**\n\n" : head + "\n");
  }
  report::render(t, format == "jsonl" ? "csv" : format, ctx.out);
  // Statistics a source kept without its measurements (docs/history.md, summary points).
  if (machine || format == "jsonl") return;
  const report::Table summaries = report::summary_records_table(run);
  if (summaries.rows.empty()) return;
  ctx.out << (format == "md" ? "\n**summary records** (statistics only, no measurements)\n\n"
                             : "\nsummary records (statistics only, no measurements):\n");
  report::render(summaries, format, ctx.out);
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
