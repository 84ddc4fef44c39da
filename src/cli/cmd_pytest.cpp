// benchguard pytest [--python A [--python B] | --null] [run flags] -- PYTEST_ARGS: the tests of
// a pytest selection that take a benchmark fixture, each a benchmark, A (and B) as fresh
// pytest processes interleaved, then their comparison (docs/pytest.md).
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/compare.hpp"
#include "analysis/conditions.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/run_flags.hpp"
#include "cli/shared_flags.hpp"
#include "cli/stop_signals.hpp"
#include "core/json_error.hpp"
#include "core/names.hpp"
#include "core/suite.hpp"
#include "pytest/pytest.hpp"
#include "report/compare.hpp"
#include "report/write.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cli {

namespace {

struct PytestFlags {
  RunFlags run;
  std::vector<std::string> pythons;
  std::string fail_on;
  AnalysisFlags analysis;
  VerdictFlags verdict;
};

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The tests every interpreter collected, in the first one's order; the others named.
std::vector<pytest::CollectedTest> common_tests(
    const std::vector<std::vector<pytest::CollectedTest>>& per_side,
    std::vector<std::string>& left_out) {
  std::vector<pytest::CollectedTest> out;
  const auto has = [](const std::vector<pytest::CollectedTest>& v, const std::string& id) {
    return std::any_of(v.begin(), v.end(),
                       [&](const pytest::CollectedTest& t) { return t.nodeid == id; });
  };
  for (std::size_t s = 0; s < per_side.size(); ++s)
    for (const auto& t : per_side[s]) {
      bool everywhere = true;
      for (const auto& other : per_side) everywhere = everywhere && has(other, t.nodeid);
      if (everywhere && s == 0)
        out.push_back(t);
      else if (!everywhere &&
               std::find(left_out.begin(), left_out.end(), t.nodeid) == left_out.end())
        left_out.push_back(t.nodeid);
    }
  return out;
}

Result<int> do_pytest(Context& ctx, const PytestFlags& f) {
  std::vector<std::string> pythons = f.pythons;
  if (pythons.empty()) pythons.emplace_back("python3");
  if (pythons.size() > 2)
    return Error{"benchguard pytest compares two interpreters at most: --python A --python B"};
  if (f.run.null && pythons.size() != 1)
    return Error{"--null runs one interpreter against itself: give one --python, not two"};
  if (!f.run.suite.empty())
    return Error{fmt::format(
        "benchguard pytest takes pytest's arguments after --, not '{}': benchguard pytest "
        "[--python PY] -- {}",
        f.run.suite, f.run.suite)};
  const std::string cwd = std::filesystem::current_path().string();
  const std::string plugin = pytest::plugin_dir();
  const KeyValues env = pytest::python_env(plugin);

  std::vector<pytest::Interpreter> sides;
  for (std::size_t k = 0; k < pythons.size(); ++k)
    sides.push_back({k == 0 ? "A" : "B", pythons[k]});
  std::vector<std::vector<pytest::CollectedTest>> collected;
  for (const auto& side : sides) {
    BG_ASSIGN(const pytest::Collection c, pytest::collect(side.python, ctx.trailing, cwd, env));
    if (!c.ok()) {
      if (!c.output.empty()) ctx.err << c.output << "\n";
      if (!c.collector_ran)
        return Error{fmt::format(
            "{} could not run benchguard_pytest's collector (exit code {}; its output above): "
            "is pytest installed for it{}?",
            side.python, c.exit_code,
            plugin.empty() ? ", and benchguard_pytest (pip install ./python)" : "")};
      return Error{fmt::format(
          "pytest could not collect {} with {} (exit code {}; its output above)",
          ctx.trailing.empty() ? std::string("the tests here") : joined(ctx.trailing, " "),
          side.python, c.exit_code)};
    }
    collected.push_back(c.tests);
  }
  std::vector<std::string> left_out;
  const auto tests = common_tests(collected, left_out);
  if (tests.empty())
    return Error{
        fmt::format("no test {}takes a benchmark fixture (benchmark_time, benchmark_memory, "
                    "benchmark_time_memory){}",
                    ctx.trailing.empty() ? "here " : "in '" + joined(ctx.trailing, " ") + "' ",
                    left_out.empty() ? "" : " that every interpreter collected")};
  if (!left_out.empty())
    ctx.err << fmt::format(
        "benchguard: note: {} test(s) collected by only one interpreter are left out: {}\n",
        left_out.size(), joined(left_out, ", "));

  // Which packages each side has, recorded with the run and compared.
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> installed;
  for (const auto& side : sides) {
    auto p = pytest::packages(side.python, env);
    if (!p.ok()) {
      ctx.err << "benchguard: note: " << p.error().message << "\n";
      continue;
    }
    installed.emplace_back(side.variant, std::move(*p));
  }

  Suite suite = pytest::suite_of(tests, sides, cwd, env);
  BG_TRY(apply_run_flags(f.run, suite));
  if (f.run.null) {
    BG_ASSIGN(suite, null_suite(suite, "A"));
  }
  BG_ASSIGN(schedule::RunOptions opts, run_options(ctx, f.run, suite));
  opts.artifacts.emplace_back(analysis::kPackagesArtifact, pytest::packages_artifact(installed));
  opts.artifacts.emplace_back("pytest_args", joined(ctx.trailing, " "));
  for (const auto& side : sides) opts.artifacts.emplace_back("python_" + side.variant, side.python);
  if (f.run.null) opts.labels.emplace_back("null", "A");
  BG_ASSIGN(const analysis::CompareOptions compare, compare_options(f.analysis, f.verdict));
  BG_TRY(schedule::preflight(suite));

  const BenchmarkSpec& first = suite.benchmarks.front();
  const std::string b_name = f.run.null ? null_variant_again("A") : std::string("B");
  std::string plan = fmt::format(
      "{} test(s), {}, {}: {} instance(s) each, every instance a fresh pytest process "
      "running one test; {} warm-up iteration(s) (burn-in) then {} measured",
      tests.size(), sides.size() == 1 && !f.run.null ? "one interpreter" : "A and B",
      suite.schedule, first.instances, first.burn_in, first.iterations);
  ctx.err << "benchguard: " << plan << "\n";
  for (const auto& side : sides)
    ctx.err << fmt::format("benchguard: {} = {}\n", side.variant, side.python);
  if (installed.size() == 2) {
    const auto changes = analysis::package_changes(installed[0].second, installed[1].second);
    ctx.err << "benchguard: packages that differ between A and B: "
            << (changes.empty() ? std::string("none") : joined(changes, ", ")) << "\n";
  }

  BG_ASSIGN(auto store, ctx.open_store(/*create=*/true));
  auto outcome = [&] {
    const StopOnSignals stop;
    Progress bar(ctx, "pytest");
    return schedule::run_suite(suite, *store, opts, std::ref(bar));
  }();
  if (!outcome.ok()) return outcome.error();
  ctx.cache_series(*store, {outcome->run_id});
  for (const auto& b : outcome->benchmarks)
    if (b.instances_failed > 0)
      ctx.err << fmt::format("benchguard: {}: {} instance(s) failed; last: {}\n", b.name,
                             b.instances_failed, escape_text(b.last_failure));

  const bool two_sides = sides.size() == 2 || f.run.null;
  int code = outcome->any_failure() ? static_cast<int>(ExitCode::kBenchmarkFailure) : 0;
  if (two_sides) {
    BG_ASSIGN(const RunData data,
              store->load_run(std::to_string(outcome->run_id), {.columns = true}));
    analysis::Side a{"A", {}}, b{b_name, {}};
    for (const auto& v : data.variants) (v.variant.name == "A" ? a : b).variants.push_back(&v);
    auto report = analysis::compare_sides(a, b, compare);
    if (installed.size() == 2)
      if (auto note = analysis::packages_note(installed[0].second, installed[1].second);
          !note.empty())
        report.warnings.insert(report.warnings.begin(), std::move(note));
    const std::string statistic = stats::to_string(compare.verdict.statistic);
    const std::string description =
        f.run.null
            ? fmt::format("A/A: {} twice (run {})", sides[0].python, outcome->uuid.substr(0, 8))
            : fmt::format("A = {}, B = {} (run {})", sides[0].python, sides[1].python,
                          outcome->uuid.substr(0, 8));
    report::Document d =
        report::compare_document(report, description, statistic, compare.verdict.confidence);
    d.schema = "pytest";
    if (installed.size() == 2)
      d.json["packages_changed"] =
          analysis::package_changes(installed[0].second, installed[1].second);
    report::write(d, ctx.globals.format, ctx.out);
    if (fails_on(f.fail_on, report) && code == 0) code = static_cast<int>(ExitCode::kRegression);
  } else if (!ctx.globals.quiet) {
    ctx.err << "benchguard: one interpreter: `benchguard summary` shows the run; give a second "
               "--python for an A/B, or --null for an A/A\n";
  }
  ctx.err << fmt::format("benchguard: stored run {} ({}) in {}\n", outcome->uuid.substr(0, 8),
                         outcome->status, ctx.db_name());
  if (outcome->status == "interrupted") return 130;
  return code;
}

}  // namespace

Action add_pytest(CLI::App& app, Context& ctx) {
  auto f = std::make_shared<PytestFlags>();
  auto* c = app.add_subcommand(
      "pytest",
      "A/B of a pytest suite's benchmark tests under two interpreters (or A/A with --null): "
      "pytest's arguments after --");
  c->add_option("--python", f->pythons,
                "An interpreter (or a virtual environment's python): give it twice, A then B "
                "(default: python3)");
  add_null(c, f->run.null);
  add_fail_on(c, f->fail_on);
  f->verdict.add_to(c);
  add_run_flags(c, f->run);
  f->analysis.add_to_measuring(c);
  // A first positional argument is refused with a hint: pytest's own go after --.
  c->add_option("suite", f->run.suite, "(none: pytest's arguments go after --)");
  return [&ctx, f]() { return do_pytest(ctx, *f); };
}

}  // namespace benchguard::cli
