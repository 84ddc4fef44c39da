// benchguard collect JOB: the tasks' runs joined into one run and stored in --db.
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "cluster/collect.hpp"
#include "cluster/status.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

Action add_collect(CLI::App& app, Context& ctx) {
  auto job_dir = std::make_shared<std::string>();
  auto wait = std::make_shared<bool>(false);
  auto timeout = std::make_shared<std::string>();
  auto* c = app.add_subcommand("collect", "Store a submitted job's measurements as one run");
  c->add_option("job", *job_dir, "Job folder (as submit printed it)")->required();
  c->add_flag("--wait", *wait, "First wait until no task is pending or running");
  c->add_option("--max-wait", *timeout, "With --wait: give up after this long, e.g. 30m")
      ->needs("--wait");
  add_renamed(c, "--timeout", "--max-wait",
              "how long --wait waits; --timeout is the time limit of each instance of a run");
  return [&ctx, job_dir, wait, timeout]() -> Result<int> {
    BG_ASSIGN(const cluster::Job job, cluster::load_job(*job_dir));
    if (*wait) {
      double limit = 0;
      if (!timeout->empty()) {
        BG_ASSIGN(limit, parse_duration(*timeout));
      }
      BG_ASSIGN(const Suite suite, cluster::job_suite(job));
      BG_TRY(cluster::wait_for_job(job, suite, limit));
    }
    BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
    BG_ASSIGN(const auto got, cluster::collect(job, *store));
    if (!got.already) ctx.cache_series(*store, {got.run_id});
    if (got.already)
      ctx.err << fmt::format("benchguard: run {} ({} instances) is already in {}; nothing stored\n",
                             job.uuid.substr(0, 8), got.units, ctx.db_name());
    else
      ctx.err << fmt::format("benchguard: stored run {} ({} instances from {} tasks) in {}\n",
                             job.uuid.substr(0, 8), got.units, got.tasks, ctx.db_name());
    ctx.out << job.uuid << "\n";
    return 0;
  };
}

}  // namespace benchguard::cli
