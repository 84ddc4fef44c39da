// benchguard status JOB: each task's state and stored units, and the units still missing.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "cluster/status.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

Result<int> do_status(Context& ctx, const std::string& dir, int show_missing) {
  BG_ASSIGN(const cluster::Job job, cluster::load_job(dir));
  BG_ASSIGN(const Suite suite, cluster::job_suite(job));
  BG_ASSIGN(const auto status, cluster::job_status(job, suite, cluster::ask_slurm(job)));
  const int stored = status.units - static_cast<int>(status.missing.size());
  report::Document d;
  d.schema = "status";
  auto& j = d.json;
  j["job"] = job.dir;
  j["run"] = job.uuid;
  j["units"] = status.units;
  j["stored"] = stored;
  j["tasks"] = nlohmann::json::array();
  for (const auto& t : status.tasks)
    j["tasks"].push_back({{"attempt", t.attempt},
                          {"task", t.task},
                          {"slurm_job", t.slurm_job},
                          {"state", cluster::to_string(t.state)},
                          {"assigned", t.assigned},
                          {"stored", t.stored},
                          {"host", t.host},
                          {"note", t.note}});
  j["missing"] = nlohmann::json::array();
  for (const auto& u : status.missing) j["missing"].push_back(cluster::unit_name(suite, u));
  using report::Cell;
  using report::Column;
  report::Table t;
  t.columns = {Column::number("attempt", "attempt"),   Column::number("task", "task"),
               Column::left("slurm job", "slurm_job"), Column::left("state", "state"),
               Column::number("units", "units"),       Column::number("stored", "stored"),
               Column::left("host", "host"),           Column::left("note", "note")};
  for (const auto& r : status.tasks)
    t.add_row(
        {Cell::count(r.attempt), Cell::count(r.task),
         r.slurm_job.empty() ? Cell::none() : Cell(r.slurm_job + "_" + std::to_string(r.task)),
         cluster::to_string(r.state), Cell::count(r.assigned), Cell::count(r.stored), r.host,
         r.note});
  d.table(std::move(t), true);
  const std::size_t after_table = d.blocks.size();
  std::vector<report::Span> line = {
      report::own(fmt::format("{} of {} units stored", stored, status.units))};
  if (status.missing.empty()) {
    line.push_back(report::own("; collect them with `"));
    line.push_back(report::data("benchguard collect " + job.dir));
    line.push_back(report::own("`"));
    d.line(std::move(line));
  } else {
    line.push_back(report::own("; missing:"));
    for (int k = 0; k < static_cast<int>(status.missing.size()) && k < show_missing; ++k)
      line.push_back(report::data(" " + cluster::unit_name(suite, status.missing[k])));
    if (static_cast<int>(status.missing.size()) > show_missing) line.push_back(report::own(" ..."));
    d.line(std::move(line));
    if (!status.active())
      d.line({report::own("resubmit them with `"),
              report::data("benchguard submit --resubmit " + job.dir), report::own("`")});
  }
  d.only(after_table, report::Format::kTable);
  report::write(d, ctx.globals.format, ctx.out);
  return 0;
}

}  // namespace

Action add_status(CLI::App& app, Context& ctx) {
  auto dir = std::make_shared<std::string>();
  auto show = std::make_shared<int>(10);
  auto* c = app.add_subcommand("status", "A submitted job's tasks and the units still missing");
  c->add_option("job", *dir, "Job folder (as submit printed it)")->required();
  c->add_option("--missing", *show, "How many missing units to name")
      ->check(whole_number("--missing", 0));
  return [&ctx, dir, show]() { return do_status(ctx, *dir, *show); };
}

}  // namespace benchguard::cli
