#include "cluster/collect.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "cluster/status.hpp"

namespace benchguard::cluster {

namespace {

using UnitKey = std::tuple<std::string, std::string, int>;

std::string join_distinct(const std::vector<std::string>& words) {
  std::vector<std::string> w = words;
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  std::string out;
  for (const auto& s : w) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

Result<Joined> join_task_runs(const Job& job, const Suite& suite) {
  RunData joined;
  std::set<UnitKey> seen;
  std::vector<std::string> hosts, slurm_jobs;
  std::map<std::pair<std::string, std::string>, size_t> variant_at;
  int tasks = 0;
  for (const auto& attempt : job.attempts) {
    slurm_jobs.push_back(attempt.slurm_job);
    for (int t = 0; t < attempt.tasks; ++t) {
      BG_ASSIGN(auto run, read_task_run(task_db(job, attempt.number, t), job.uuid));
      if (!run) continue;
      RunData& data = *run;
      if (tasks++ == 0) {
        joined.run = data.run;
        joined.run.artifacts.erase(
            std::remove_if(joined.run.artifacts.begin(), joined.run.artifacts.end(),
                           [](const auto& kv) { return kv.first == "slurm_task"; }),
            joined.run.artifacts.end());
      } else {
        joined.run.started_at = std::min(joined.run.started_at, data.run.started_at);
        joined.run.finished_at = std::max(joined.run.finished_at, data.run.finished_at);
      }
      hosts.push_back(data.run.hostname);
      for (auto& v : data.variants) {
        const std::pair key{v.variant.benchmark, v.variant.name};
        auto at = variant_at.find(key);
        if (at == variant_at.end()) {
          at = variant_at.emplace(key, joined.variants.size()).first;
          VariantData fresh;
          fresh.variant = v.variant;
          joined.variants.push_back(std::move(fresh));
        }
        VariantData& into = joined.variants[at->second];
        for (const auto& m : v.metrics)
          if (std::none_of(into.metrics.begin(), into.metrics.end(),
                           [&](const MetricInfo& x) { return x.name == m.name; }))
            into.metrics.push_back(m);
        for (auto& i : v.instances)
          if (seen.insert({v.variant.benchmark, v.variant.name, i.index}).second)
            into.instances.push_back(std::move(i));
      }
    }
  }
  std::vector<Unit> missing;
  for (const auto& u : job.units) {
    const auto& b = suite.benchmarks.at(static_cast<size_t>(u.benchmark));
    if (!seen.contains({b.name, b.variants.at(static_cast<size_t>(u.variant)).name, u.instance}))
      missing.push_back(u);
  }
  if (!missing.empty())
    return Error{std::to_string(missing.size()) + " of " + std::to_string(job.units.size()) +
                 " units are not stored yet (first: " + unit_name(suite, missing.front()) +
                 "); see `benchguard status " + job.dir +
                 "`, and run them again with `benchguard submit --resubmit " + job.dir + "`"};

  // Variants in the suite's order, instances by index; the run's order by start time.
  std::vector<VariantData> ordered;
  for (const auto& b : suite.benchmarks)
    for (const auto& v : b.variants)
      if (auto at = variant_at.find({b.name, v.name}); at != variant_at.end())
        ordered.push_back(std::move(joined.variants[at->second]));
  joined.variants = std::move(ordered);
  std::vector<InstanceRecord*> all;
  for (auto& v : joined.variants) {
    std::sort(v.instances.begin(), v.instances.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    for (auto& i : v.instances) all.push_back(&i);
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const auto* a, const auto* b) { return a->started_at < b->started_at; });
  for (size_t k = 0; k < all.size(); ++k) all[k]->order = static_cast<int64_t>(k);

  // Every unit is here, whatever became of the tasks that stored them (a killed task's run
  // reads `interrupted`, its missing units came from a resubmission).
  joined.run.status = "complete";
  joined.run.hostname = join_distinct(hosts);
  joined.run.command_line = "benchguard collect " + job.dir;
  joined.run.artifacts.emplace_back("slurm_jobs", join_distinct(slurm_jobs));
  joined.run.artifacts.emplace_back("slurm_tasks", std::to_string(tasks));
  return Joined{std::move(joined), tasks};
}

Result<Collected> collect(const Job& job, store::Store& target) {
  Collected out;
  BG_ASSIGN(const auto runs, target.list_runs());
  for (const auto& r : runs)
    if (r.uuid == job.uuid) {
      out.already = true;
      out.run_id = r.id;
      out.units = r.instances;
      return out;
    }
  BG_ASSIGN(const Suite suite, job_suite(job));
  BG_ASSIGN(const Joined j, join_task_runs(job, suite));
  const RunData& joined = j.run;
  std::vector<MetricInfo> metrics;
  for (const auto& v : joined.variants)
    for (const auto& m : v.metrics)
      if (std::none_of(metrics.begin(), metrics.end(),
                       [&](const MetricInfo& x) { return x.name == m.name; }))
        metrics.push_back(m);
  BG_ASSIGN(const auto ids, target.add_runs({joined}, metrics));
  out.run_id = ids.empty() ? 0 : ids.front();
  for (const auto& v : joined.variants) out.units += static_cast<int>(v.instances.size());
  out.tasks = j.tasks;
  return out;
}

Result<std::optional<Collected>> collect_if_complete(const Job& job) {
  if (job.db.empty()) return std::optional<Collected>{};
  BG_ASSIGN(const Suite suite, job_suite(job));
  BG_ASSIGN(const JobStatus status, job_status(job, suite, {}));
  if (!status.missing.empty()) return std::optional<Collected>{};
  store::OpenOptions open;
  open.create = true;
  BG_ASSIGN(auto target, store::open_store(job.db, open));
  auto stored = collect(job, *target);
  if (stored.ok()) return std::optional<Collected>{stored.value()};
  // Another task stored it first: the run is there now.
  BG_ASSIGN(auto again, store::open_store(job.db, open));
  BG_ASSIGN(const auto runs, again->list_runs());
  for (const auto& r : runs)
    if (r.uuid == job.uuid) return std::optional<Collected>{Collected{true, r.id, r.instances, 0}};
  return stored.error();
}

}  // namespace benchguard::cluster
