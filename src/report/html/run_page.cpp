// The run page: what `summary` reports per benchmark variant and metric, each instance's
// iterations in order so that burn-in and outliers can be seen, and, for a run of two variants
// or more, its own A/B table (its first two variants, as `compare RUN`).
#include <fmt/format.h>

#include <algorithm>

#include "analysis/compare.hpp"
#include "analysis/sequential.hpp"
#include "analysis/summary.hpp"
#include "report/compare.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site.hpp"
#include "stats/outliers.hpp"
#include "store/location.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

// Plots stay readable and pages small: at most this many instances and iterations each.
constexpr std::size_t kMaxPlotInstances = 64;
constexpr std::size_t kMaxPlotIterations = 2000;

std::string steady_text(const analysis::VariantSummary& s) {
  if (!s.sample.steady) return "";
  const auto& sum = s.sample.steady->summary;
  std::string out;
  for (std::size_t c = 0; c < stats::kSteadyClassCount; ++c) {
    if (sum.counts[c] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", sum.counts[c],
                       stats::to_string(static_cast<stats::SteadyClass>(c)));
  }
  return out;
}

json summary_json(const analysis::VariantSummary& s) {
  const auto& series = s.sample.series;
  const double scale = scale_of(series.values());
  json plots = json::array();
  for (std::size_t i = 0; i < series.instances() && i < kMaxPlotInstances; ++i) {
    const auto inst = series.instance(i);
    plots.push_back(scaled(inst.first(std::min(inst.size(), kMaxPlotIterations)), scale));
  }
  // The iterations summary counts as outliers, as [instance, iteration] of the plots: the
  // rules look at each instance after its detected burn-in.
  json outliers = json::array();
  if (s.sample.data.instances() == series.instances())
    for (std::size_t i = 0; i < s.sample.data.instances() && i < kMaxPlotInstances; ++i)
      for (std::size_t j : stats::flag_outliers(s.sample.data.instance(i)).indices)
        if (s.sample.detected_burn_in + j < kMaxPlotIterations)
          outliers.push_back({i, s.sample.detected_burn_in + j});
  return {{"benchmark", s.sample.benchmark},
          {"variant", s.sample.variant},
          {"metric", s.sample.metric.name},
          {"unit", s.sample.metric.unit},
          {"instances", s.sample.data.instances()},
          {"failed", s.sample.instances_failed},
          {"iterations", s.iterations},
          {"mean", json_number(s.mean)},
          {"meanCi", {json_number(s.mean_ci.ci.lower), json_number(s.mean_ci.ci.upper)}},
          {"median", json_number(s.median)},
          {"cv", json_number(s.cv)},
          {"cvWithin", json_number(s.cv_within)},
          {"cvBetween", json_number(s.cv_between)},
          {"cvInstance", {json_number(s.cv_instance_mean), json_number(s.cv_instance_sd)}},
          {"steady", steady_text(s)},
          {"burnInConfigured", s.sample.configured_burn_in},
          {"burnInDetected", s.sample.detected_burn_in},
          {"outliers", std::max(s.outliers_ratio, s.outliers_z)},
          {"warnings", s.warnings},
          {"notes", s.notes},
          {"scale", scale},
          {"plots", plots},
          {"outlierPoints", outliers}};
}

}  // namespace

Result<std::string> render_run_page(store::Store& store, const std::string& ref,
                                    const SiteOptions& options) {
  BG_ASSIGN(const RunData run, store.load_run(ref, {.columns = true}));
  const std::vector<std::string> wanted = options.history.metrics.empty()
                                              ? std::vector<std::string>{"wall_time"}
                                              : options.history.metrics;
  json summaries = json::array();
  const bool all = wanted.size() == 1 && wanted.front() == "all";
  for (const auto& v : run.variants) {
    const auto present = analysis::metrics_of(v);
    for (const auto& m : all ? present : wanted) {
      if (std::find(present.begin(), present.end(), m) == present.end()) continue;
      summaries.push_back(summary_json(analysis::summarize_variant(v, m, options.summary)));
    }
  }
  // The run's own A/B: its first two variants, as `compare RUN` has them (the look that stopped
  // a sequential run included), over the metrics above.
  json ab = nullptr;
  if (const auto names = analysis::variant_names(run); names.size() >= 2) {
    const analysis::Side a = analysis::variant_side(run, names[0], names[0]);
    const analysis::Side b = analysis::variant_side(run, names[1], names[1]);
    analysis::CompareOptions copts = compare_options(options, wanted);
    auto sequential = analysis::read_sequential_record(run.run);
    if (sequential.ok() && *sequential) copts.sequential = &**sequential;
    const auto report = analysis::compare_sides(a, b, copts);
    if (!report.metrics.empty()) {
      ab = compare_json(report, fmt::format("{} vs {} in run {}", names[0], names[1], run.id),
                        stats::to_string(copts.verdict.statistic), copts.verdict.confidence);
      ab["variants"] = names.size();
    }
  }
  const auto& r = run.run;
  json labels = json::object();
  for (const auto& [k, v] : r.labels) labels[k] = v;
  json data = {{"id", run.id},
               {"uuid", r.uuid},
               {"started", r.started_at / 1'000'000'000},
               {"finished", r.finished_at / 1'000'000'000},
               {"status", r.status},
               {"suite", r.suite},
               {"host", r.hostname},
               {"commit", r.git_commit},
               {"branch", r.git_branch},
               {"dirty", r.git_dirty},
               {"commandLine", store::redact_command_line(r.command_line)},
               {"labels", labels},
               {"summaries", summaries},
               {"ab", ab}};
  return render_page({"run", fmt::format("Run {}", run.id), data, true, true});
}

}  // namespace benchguard::report::html
