// benchguard summary [RUN]: per benchmark and variant, what a careful engineer looks at
// before trusting a number.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/duet.hpp"
#include "analysis/summary.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "core/json_error.hpp"
#include "core/units.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

namespace {

std::string steady_text(const analysis::VariantSummary& s) {
  if (!s.sample.steady) return "-";
  const auto& sum = s.sample.steady->summary;
  std::string out;
  for (size_t c = 0; c < stats::kSteadyClassCount; ++c) {
    if (sum.counts[c] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", sum.counts[c],
                       stats::to_string(static_cast<stats::SteadyClass>(c)));
  }
  return out;
}

nlohmann::json to_json(const analysis::VariantSummary& s) {
  auto num = [](double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
  };
  nlohmann::json j = {
      {"benchmark", s.sample.benchmark},
      {"variant", s.sample.variant},
      {"metric", s.sample.metric.name},
      {"unit", s.sample.metric.unit},
      {"instances", s.sample.data.instances()},
      {"instances_failed", s.sample.instances_failed},
      {"iterations", s.iterations},
      {"mean", num(s.mean)},
      {"mean_ci", {num(s.mean_ci.ci.lower), num(s.mean_ci.ci.upper)}},
      {"median", num(s.median)},
      {"median_ci", {num(s.median_ci.ci.lower), num(s.median_ci.ci.upper)}},
      {"median_ci_method", analysis::to_string(s.median_ci_method)},
      {"median_ci_coverage", num(s.median_ci_coverage)},
      {"resampling",
       {{"mean_ci", stats::to_string(s.mean_ci.method)},
        {"median_ci", s.median_ci_method == analysis::MedianCiMethod::kBootstrap
                          ? nlohmann::json(stats::to_string(s.median_ci.method))
                          : nlohmann::json(nullptr)}}},
      {"stdev", num(s.stdev)},
      {"min", num(s.min)},
      {"max", num(s.max)},
      {"cv", num(s.cv)},
      {"cv_within", num(s.cv_within)},
      {"cv_between", num(s.cv_between)},
      {"cv_per_instance", {{"mean", num(s.cv_instance_mean)}, {"sd", num(s.cv_instance_sd)}}},
      {"burn_in",
       {{"configured_iterations", s.sample.configured_burn_in},
        {"detected_per_instance", s.sample.detected_burn_in}}},
      {"outliers", {{"ratio_rule", s.outliers_ratio}, {"robust_z_rule", s.outliers_z}}},
      {"warnings", s.warnings},
      {"notes", s.notes}};
  if (s.sample.steady) {
    const auto& sum = s.sample.steady->summary;
    nlohmann::json classes = nlohmann::json::object();
    for (size_t c = 0; c < stats::kSteadyClassCount; ++c)
      classes[std::string(stats::to_string(static_cast<stats::SteadyClass>(c)))] = sum.counts[c];
    j["steady_state"] = {
        {"classes", classes},
        {"no_steady_state_share", sum.no_steady_state_share},
        {"recommended_burn_in", sum.recommended_burn_in ? nlohmann::json(*sum.recommended_burn_in)
                                                        : nlohmann::json(nullptr)}};
  }
  return j;
}

// Per benchmark run as concurrent A/B pairs: what the CPU sets and the start order did.
std::vector<analysis::DuetBalance> duet_balances(const RunData& run,
                                                 const analysis::SummaryOptions& opts) {
  std::vector<analysis::DuetBalance> out;
  for (std::size_t i = 0; i < run.variants.size(); ++i)
    for (std::size_t j = i + 1; j < run.variants.size(); ++j) {
      const auto& a = run.variants[i];
      const auto& b = run.variants[j];
      if (a.variant.benchmark != b.variant.benchmark || !analysis::has_duet_pairs(a, b)) continue;
      out.push_back(analysis::duet_balance(a, b, "wall_time", opts.burn_in, opts.confidence));
    }
  return out;
}

std::string effect_text(const stats::SideEffect& e) {
  if (!std::isfinite(e.factor)) return "-";
  auto pct = [](double f) { return fmt::format("{:+.1f}%", 100 * (f - 1)); };
  return fmt::format("{} [{} .. {}]", pct(e.factor), pct(e.ci.lower), pct(e.ci.upper));
}

std::string balance_text(const analysis::DuetBalance& b) {
  std::string cpu;
  if (!b.cpus_second.empty())
    cpu = fmt::format("side on CPUs {} vs {}: {}", b.cpus_second, b.cpus_first, effect_text(b.cpu));
  else
    cpu = b.cpus_first.empty() ? "CPU sets not recorded"
                               : fmt::format(
                                     "B always on CPUs {}: CPU effect not estimable "
                                     "(an older run)",
                                     b.cpus_first);
  std::string text = fmt::format("{}: {} runs; {}; started second vs first: {}", b.benchmark,
                                 b.runs, cpu, effect_text(b.start));
  auto clear = [](const stats::SideEffect& e) { return e.ci.lower > 1.0 || e.ci.upper < 1.0; };
  if (clear(b.cpu) || clear(b.start))
    text += " (the machine favours a side: the balanced schedule cancels it, the noise stays)";
  return text;
}

nlohmann::json to_json(const analysis::DuetBalance& b) {
  auto effect = [](const stats::SideEffect& e) {
    auto num = [](double x) {
      return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
    };
    return nlohmann::json{{"factor", num(e.factor)},
                          {"ci", {num(e.ci.lower), num(e.ci.upper)}},
                          {"runs_b_has", e.runs_b_has},
                          {"runs_a_has", e.runs_a_has}};
  };
  return {{"benchmark", b.benchmark},    {"runs", b.runs},
          {"cpus_first", b.cpus_first},  {"cpus_second", b.cpus_second},
          {"cpu_effect", effect(b.cpu)}, {"start_order_effect", effect(b.start)}};
}

Result<int> do_summary(Context& ctx, const std::string& ref, const AnalysisFlags& f) {
  BG_ASSIGN(auto store, ctx.open_store_read_only());
  BG_ASSIGN(const RunData run, store->load_run(ref, {.columns = true}));
  BG_ASSIGN(const auto opts, f.summary_options());
  std::vector<analysis::VariantSummary> rows;
  for (const auto& v : run.variants) {
    const bool all = f.metrics.size() == 1 && f.metrics.front() == "all";
    const auto metrics = f.metrics.empty() || all ? analysis::metrics_of(v) : f.metrics;
    for (const auto& m : metrics) {
      if (f.metrics.empty() && m != "wall_time" && !ctx.globals.verbose) continue;
      rows.push_back(analysis::summarize_variant(v, m, opts));
    }
  }
  const auto balances = duet_balances(run, opts);
  if (ctx.globals.format == "json") {
    nlohmann::json j = {{"run", run.run.uuid},
                        {"summaries", nlohmann::json::array()},
                        {"duet_balance", nlohmann::json::array()}};
    for (const auto& s : rows) j["summaries"].push_back(to_json(s));
    for (const auto& b : balances) j["duet_balance"].push_back(to_json(b));
    ctx.out << json_text(j, 2) << "\n";
    return 0;
  }
  const bool machine = ctx.globals.format == "csv";
  report::Table t;
  t.header = {"benchmark",   "variant",      "metric",  "inst",    "iter",
              "mean",        "95% CI",       "median",  "cv",      "cv within",
              "cv/instance", "steady state", "burn-in", "outliers"};
  t.right = {false, false, false, true, true,  true, true,
             true,  true,  true,  true, false, true, true};
  for (const auto& s : rows) {
    const auto& u = s.sample.metric.unit;
    auto v = [&](double x) {
      if (!std::isfinite(x)) return std::string("-");
      return machine ? fmt::format("{:.9g}", x) : format_value(x, u);
    };
    auto pct = [&](double x) {
      if (!std::isfinite(x)) return std::string("-");
      return machine ? fmt::format("{:.6g}", x) : fmt::format("{:.1f}%", 100 * x);
    };
    const std::string ci = machine ? v(s.mean_ci.ci.lower) + " " + v(s.mean_ci.ci.upper)
                                   : v(s.mean_ci.ci.lower) + " .. " + v(s.mean_ci.ci.upper);
    t.add_row({s.sample.benchmark, s.sample.variant, s.sample.metric.name,
               std::to_string(s.sample.data.instances()), std::to_string(s.iterations), v(s.mean),
               ci, v(s.median), pct(s.cv), pct(s.cv_within),
               pct(s.cv_instance_mean) + (machine ? "" : " ± " + pct(s.cv_instance_sd)),
               steady_text(s), std::to_string(s.sample.detected_burn_in),
               std::to_string(std::max(s.outliers_ratio, s.outliers_z))});
  }
  report::render(t, ctx.globals.format == "jsonl" ? "csv" : ctx.globals.format, ctx.out);
  const auto summary_only = std::count_if(run.variants.begin(), run.variants.end(), [](auto& v) {
    return v.instances.empty() && !v.summaries.empty();
  });
  if (!machine && summary_only > 0)
    ctx.out << fmt::format(
        "\n{} benchmark variant(s) hold summary records only (statistics without measurements, "
        "nothing to summarise): `benchguard show {}` lists them\n",
        summary_only, run.id);
  if (!machine && !balances.empty()) {
    const bool md = ctx.globals.format == "md";
    ctx.out << (md ? "\n**Duet balance**\n\n" : "\nduet balance")
            << (md ? ""
                   : " (the schedule balances CPU sets and start order over the pairs, so "
                     "these cancel in compare):\n");
    for (const auto& b : balances) ctx.out << (md ? "- " : "  ") << balance_text(b) << "\n";
  }
  if (!machine) {
    const bool md = ctx.globals.format == "md";
    const auto text = [&](const std::string& t) {
      return md ? report::markdown_text(t) : report::terminal_text(t);
    };
    // The rows' warnings, then their notes (how a figure was computed: nothing to act on).
    const auto section = [&](const char* title, auto member) {
      bool first = true;
      for (const auto& s : rows)
        for (const auto& line : s.*member) {
          if (first)
            ctx.out << (md ? fmt::format("\n**{}**\n\n", title) : fmt::format("\n{}:\n", title));
          first = false;
          ctx.out << fmt::format("{} {} {}: {}\n", md ? "-" : " ", text(s.sample.benchmark),
                                 text(s.sample.variant), text(line));
        }
    };
    section(md ? "Warnings" : "warnings", &analysis::VariantSummary::warnings);
    section(md ? "Notes" : "notes", &analysis::VariantSummary::notes);
  }
  return 0;
}

}  // namespace

Action add_summary(CLI::App& app, Context& ctx) {
  auto ref = std::make_shared<std::string>("latest");
  auto f = std::make_shared<AnalysisFlags>();
  auto* c = app.add_subcommand(
      "summary", "Per benchmark: intervals, variability, steady state, outliers, warnings");
  c->add_option("run", *ref, "Run id, uuid (prefix) or 'latest'");
  f->add_to(c);
  return [&ctx, ref, f]() { return do_summary(ctx, *ref, *f); };
}

}  // namespace benchguard::cli
