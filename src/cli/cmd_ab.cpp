// benchguard ab --ref A --ref B SUITE.yml: the suite at two commits, as variants A and B of one
// run, then their comparison; with --null also A against itself (docs/bisect.md).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/compare.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "cli/until_decided.hpp"
#include "core/json_error.hpp"
#include "core/units.hpp"
#include "refs/refs.hpp"
#include "report/compare.hpp"
#include "report/table.hpp"
#include "report/write.hpp"

namespace benchguard::cli {

namespace {

struct AbFlags {
  RunFlags run;
  std::vector<std::string> refs;
  std::string build;
  std::string repo;
  std::string variant;
  bool null = false;
  std::string fail_on;
  AnalysisFlags analysis;
  VerdictFlags verdict;
  UntilDecidedFlags until;
};

std::string side_text(const refs::RefSide& s) {
  return fmt::format("{} = {} ({})", s.name, s.ref, s.commit.substr(0, 12));
}

Result<int> do_ab(Context& ctx, const AbFlags& f) {
  if (f.refs.size() != 2) return Error{"ab takes two refs: --ref A --ref B"};
  if (f.run.suite.empty())
    return Error{"ab needs a suite file: benchguard ab --ref A --ref B SUITE.yml"};
  BG_ASSIGN(const Suite suite, prepare_suite(ctx, f.run));
  refs::RefsOptions options;
  BG_ASSIGN(options.run, run_options(ctx, f.run, suite));
  options.build = f.build;
  options.repo = f.repo;
  options.variant = f.variant;

  BG_ASSIGN(const analysis::CompareOptions compare, compare_options(f.analysis, f.verdict));
  if (f.until.active(suite)) {
    BG_ASSIGN(options.until_decided,
              f.until.settings(suite, compare.verdict.threshold, compare.verdict.statistic));
    options.until_decided->setup.burn_in = compare.burn_in;
    options.on_look = look_printer(ctx);
  }

  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  auto outcome = [&] {
    const StopOnSignals stop;
    Progress progress(ctx, "ab");
    refs::RefsOptions told = options;
    told.on_step = [&progress](const std::string& what) { progress.step(what); };
    return refs::run_ab(suite, *store, f.refs[0], f.refs[1], f.null, told, std::ref(progress));
  }();
  if (!outcome.ok()) return outcome.error();
  if (options.until_decided) print_sequential(ctx, {outcome->run, outcome->sequential});

  // Each run's two variants of every benchmark, compared.
  const auto compared =
      [&](const schedule::RunOutcome& run, const std::string& a,
          const std::string& b) -> Result<std::pair<RunData, analysis::CompareReport>> {
    BG_ASSIGN(RunData data, store->load_run(std::to_string(run.run_id), {.columns = true}));
    analysis::Side side_a{a, {}}, side_b{b, {}};
    for (const auto& v : data.variants)
      (v.variant.name == a ? side_a : side_b).variants.push_back(&v);
    // A sequential run is judged by the look that stopped each benchmark.
    BG_ASSIGN(const auto record, analysis::read_sequential_record(data.run));
    auto options = compare;
    if (record) options.sequential = &*record;
    auto report = analysis::compare_sides(side_a, side_b, options);
    return std::make_pair(std::move(data), std::move(report));
  };
  BG_ASSIGN(auto ab, compared(outcome->run, "A", "B"));
  std::optional<std::pair<RunData, analysis::CompareReport>> aa;
  if (outcome->null_run) {
    BG_ASSIGN(aa, compared(*outcome->null_run, "A", null_variant_again("A")));
  }
  const std::string statistic = stats::to_string(compare.verdict.statistic);
  const std::string description =
      fmt::format("{}, {} (run {})", side_text(outcome->a), side_text(outcome->b),
                  outcome->run.uuid.substr(0, 8));
  report::Document d =
      report::compare_document(ab.second, description, statistic, compare.verdict.confidence);
  d.schema = "ab";
  d.json = {
      {"a",
       {{"ref", outcome->a.ref}, {"commit", outcome->a.commit}, {"worktree", outcome->a.worktree}}},
      {"b",
       {{"ref", outcome->b.ref}, {"commit", outcome->b.commit}, {"worktree", outcome->b.worktree}}},
      {"build", f.build},
      {"run", outcome->run.uuid},
      {"comparison", std::move(d.json)},
      {"null", nullptr}};
  if (aa) {
    report::Document null_doc = report::compare_document(
        aa->second,
        fmt::format("A/A control: {} twice (run {})", side_text(outcome->a),
                    outcome->null_run->uuid.substr(0, 8)),
        statistic, compare.verdict.confidence);
    d.json["null"] = {
        {"run", outcome->null_run->uuid},
        {"comparison", report::compare_json(aa->second, "A/A: " + side_text(outcome->a), statistic,
                                            compare.verdict.confidence)}};
    d.blank().append(std::move(null_doc));
  }
  report::write(d, ctx.globals.format, ctx.out);
  ctx.err << fmt::format("benchguard: stored run {}{} in {}\n", outcome->run.uuid.substr(0, 8),
                         aa ? " and A/A run " + outcome->null_run->uuid.substr(0, 8) : "",
                         ctx.db_name());
  if (outcome->run.status == "interrupted") return 130;
  const auto& r = ab.second;
  if (fails_on(f.fail_on, r)) return static_cast<int>(ExitCode::kRegression);
  return outcome->run.any_failure() ? static_cast<int>(ExitCode::kBenchmarkFailure) : 0;
}

}  // namespace

Action add_ab(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<AbFlags>();
  auto* c = app.add_subcommand(
      "ab",
      "Run a suite at two git refs (each built in its own worktree) as variants A and B of "
      "one run, and compare them");
  c->add_option("suite", f->run.suite, "Suite YAML file (read from the working tree)")->required();
  c->add_option("--ref", f->refs, "A git ref: give it twice, A then B")->required();
  add_build(c, f->build);
  add_repo(c, f->repo);
  add_variant(c, f->variant);
  add_null(c, f->null);
  f->verdict.add_to(c);
  add_fail_on(c, f->fail_on);
  add_run_flags(c, f->run);
  f->until.add_to(c, /*verdict=*/false);
  f->analysis.add_to_measuring(c);
  return [&ctx, f]() { return do_ab(ctx, *f); };
}

}  // namespace benchguard::cli
