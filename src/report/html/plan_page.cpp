// The plan page of a run: per benchmark, the minimal detectable slowdown of every instances x
// iterations configuration, as `plan` simulates it from the run's measurements, and the
// configuration it chooses.
#include <fmt/format.h>

#include <map>

#include "analysis/plan.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

json plan_json(const analysis::BenchmarkPlan& p, const analysis::PlanOptions& o) {
  std::map<std::pair<std::size_t, std::size_t>, const stats::ConfigResult*> at;
  for (const auto& c : p.grid)
    if (c.config.selection == o.selection) at[{c.config.instances, c.config.iterations}] = &c;
  json mds = json::array(), fpr = json::array();
  for (std::size_t n : o.mds.instances) {
    json mrow = json::array(), frow = json::array();
    for (std::size_t m : o.mds.iterations) {
      const auto it = at.find({n, m});
      if (it == at.end() || !it->second->feasible) {
        mrow.push_back(nullptr);
        frow.push_back(nullptr);
        continue;
      }
      const auto& d = (*it->second)[o.decision];
      mrow.push_back(json_number(d.mds));
      frow.push_back(json_number(d.false_positive_rate));
    }
    mds.push_back(mrow);
    fpr.push_back(frow);
  }
  const auto& r = p.recommendation;
  json rec = {{"found", r.found},
              {"meetsTarget", r.meets_target},
              {"instances", r.config.instances},
              {"iterations", r.config.iterations},
              {"mds", json_number(r.mds)},
              {"fpr", json_number(r.false_positive_rate)},
              {"seconds", json_number(r.seconds)},
              {"note", r.note}};
  return {{"benchmark", p.benchmark},
          {"metric", p.metric.name},
          {"unit", p.metric.unit},
          {"mean", json_number(p.mean)},
          {"cv", json_number(p.cv)},
          {"burnIn", p.burn_in},
          {"instancesMeasured", p.cleaning.instances},
          {"viable", p.viable},
          {"notViable", p.not_viable},
          {"warnings", p.warnings},
          {"mds", mds},
          {"fpr", fpr},
          {"recommendation", rec}};
}

}  // namespace

Result<std::string> render_plan_page(store::Store& store, const std::string& ref,
                                     const SiteOptions& options) {
  BG_ASSIGN(const RunData run, store.load_run(ref, {.columns = true}));
  analysis::PlanOptions o;
  o.metric = primary_metric(options);
  o.target = 1 + options.plan_target;
  o.mds.seed = options.summary.seed;
  std::vector<const VariantData*> variants;
  for (const auto& v : run.variants) variants.push_back(&v);
  const auto plans = analysis::plan_benchmarks(variants, o);
  json list = json::array();
  for (const auto& p : plans) list.push_back(plan_json(p, o));
  const json data = {{"run", run.id},
                     {"uuid", run.run.uuid},
                     {"commit", run.run.git_commit},
                     {"target", options.plan_target},
                     {"alpha", o.alpha},
                     {"power", o.power},
                     {"selection", std::string(stats::to_string(o.selection))},
                     {"instances", o.mds.instances},
                     {"iterations", o.mds.iterations},
                     {"benchmarks", list}};
  return render_page({"plan", fmt::format("Plan from run {}", run.id), data, false, true});
}

}  // namespace benchguard::report::html
