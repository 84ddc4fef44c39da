// benchguard status JOB: each task's state and stored units, and the units still missing.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "cluster/status.hpp"
#include "core/json_error.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

namespace {

Result<int> do_status(Context& ctx, const std::string& dir, int show_missing) {
  BG_ASSIGN(const cluster::Job job, cluster::load_job(dir));
  BG_ASSIGN(const Suite suite, cluster::job_suite(job));
  BG_ASSIGN(const auto status, cluster::job_status(job, suite, cluster::ask_slurm(job)));
  const int stored = status.units - static_cast<int>(status.missing.size());
  if (ctx.globals.format == "json") {
    nlohmann::json j;
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
    ctx.out << json_text(j, 2) << "\n";
    return 0;
  }
  report::Table t;
  t.header = {"attempt", "task", "slurm job", "state", "units", "stored", "host", "note"};
  t.right = {true, true, false, false, true, true, false, false};
  for (const auto& r : status.tasks)
    t.add_row({std::to_string(r.attempt), std::to_string(r.task),
               r.slurm_job.empty() ? "-" : r.slurm_job + "_" + std::to_string(r.task),
               cluster::to_string(r.state), std::to_string(r.assigned), std::to_string(r.stored),
               r.host, r.note});
  report::render(t, ctx.globals.format == "jsonl" ? "csv" : ctx.globals.format, ctx.out);
  if (ctx.globals.format != "table") return 0;
  ctx.out << fmt::format("{} of {} units stored", stored, status.units);
  if (status.missing.empty()) {
    ctx.out << fmt::format("; collect them with `benchguard collect {}`\n", job.dir);
    return 0;
  }
  ctx.out << fmt::format("; missing:");
  for (int k = 0; k < static_cast<int>(status.missing.size()) && k < show_missing; ++k)
    ctx.out << " " << report::terminal_text(cluster::unit_name(suite, status.missing[k]));
  if (static_cast<int>(status.missing.size()) > show_missing) ctx.out << " ...";
  ctx.out << "\n";
  if (!status.active())
    ctx.out << fmt::format("resubmit them with `benchguard submit --resubmit {}`\n", job.dir);
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
