// benchguard collect JOB: the tasks' runs joined into one run and stored in --db.
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cluster/collect.hpp"

namespace benchguard::cli {

Action add_collect(CLI::App& app, Context& ctx) {
  auto job_dir = std::make_shared<std::string>();
  auto* c = app.add_subcommand("collect", "Store a submitted job's measurements as one run");
  c->add_option("job", *job_dir, "Job folder (as submit printed it)")->required();
  return [&ctx, job_dir]() -> Result<int> {
    BG_ASSIGN(const cluster::Job job, cluster::load_job(*job_dir));
    BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
    BG_ASSIGN(const auto got, cluster::collect(job, *store));
    if (got.already)
      ctx.err << fmt::format("benchguard: run {} ({} instances) is already in {}; nothing stored\n",
                             job.uuid.substr(0, 8), got.units, ctx.globals.db);
    else
      ctx.err << fmt::format("benchguard: stored run {} ({} instances from {} tasks) in {}\n",
                             job.uuid.substr(0, 8), got.units, got.tasks, ctx.globals.db);
    ctx.out << job.uuid << "\n";
    return 0;
  };
}

}  // namespace benchguard::cli
