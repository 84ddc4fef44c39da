#include "cli/until_decided.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "analysis/sequential.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/progress.hpp"
#include "cli/stop_signals.hpp"
#include "core/names.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

void UntilDecidedFlags::add_to(CLI::App* c) {
  c->add_flag("--until-decided", on,
              "A/B in rounds, stopping each benchmark when slower, faster or equivalent is known "
              "(docs/sequential.md)");
  c->add_option("--max-instances", max_instances,
                "With --until-decided: the budget a side (default twice --instances)")
      ->check(CLI::Range(2, kMaxInstances));
  c->add_option("--max-time", max_time, "With --until-decided: the run's time budget, e.g. 10m");
  c->add_option("--round", round, "With --until-decided: instances a side between looks (1)")
      ->check(CLI::Range(1, kMaxInstances));
  c->add_option("--threshold", threshold,
                "With --until-decided: smallest change that counts (default " +
                    VerdictFlags::default_threshold_text() + ")");
  c->add_option("--statistic", statistic, "With --until-decided: robust (default), trimmed or mean")
      ->check(CLI::IsMember({"robust", "trimmed", "mean"}));
}

namespace {

struct BenchmarkState {
  stats::SequentialDesign design;
  std::size_t fixed = 0;  // the suite's own instances a side
  std::size_t next = 0;   // index of the next look
  analysis::SequentialOutcome outcome;
  bool ended = false;
};

double seconds_of(const VariantData& v) {
  double s = 0;
  for (const auto& i : v.instances) s += static_cast<double>(i.end_ns - i.start_ns) * 1e-9;
  return s;
}

std::string look_line(const std::string& name, const stats::Look& l) {
  return fmt::format("{}: look {}, {} instances a side: B/A {:.4f} [{:.4f}, {:.4f}] at {:.4g}%: {}",
                     escape_text(name), l.look, std::min(l.instances_a, l.instances_b), l.ratio,
                     l.ci.lower, l.ci.upper, 100 * l.level,
                     l.decision == stats::SequentialDecision::kContinue
                         ? "go on (" + l.reason + ")"
                         : std::string(stats::to_string(l.decision)));
}

}  // namespace

Result<schedule::RunOutcome> run_until_decided(Context& ctx, const Suite& declared,
                                               schedule::RunOptions opts, store::Store& store,
                                               const UntilDecidedFlags& f) {
  const UntilDecided from_suite = declared.until_decided.value_or(UntilDecided{});
  analysis::SequentialSetup setup;
  BG_ASSIGN(setup.verdict.statistic, statistic_from_flag(f.statistic));
  if (!f.threshold.empty()) {
    BG_ASSIGN(setup.verdict.threshold, parse_fraction(f.threshold, "--threshold"));
  }
  setup.plan.round = static_cast<std::size_t>(f.round > 0            ? f.round
                                              : from_suite.round > 0 ? from_suite.round
                                                                     : 1);
  double max_time = from_suite.max_time_s;
  if (!f.max_time.empty()) {
    BG_ASSIGN(max_time, parse_duration(f.max_time));
  }

  Suite suite = declared;
  std::vector<BenchmarkState> state(suite.benchmarks.size());
  std::map<std::size_t, stats::SequentialDesign> designs;  // by max_instances
  for (std::size_t bi = 0; bi < suite.benchmarks.size(); ++bi) {
    auto& b = suite.benchmarks[bi];
    if (b.variants.size() != 2)
      return Error{fmt::format(
          "benchmark '{}' has {} variant(s); --until-decided compares A with B: give it two "
          "(or run --null for A against itself)",
          b.name, b.variants.size())};
    const int max = f.max_instances > 0            ? f.max_instances
                    : from_suite.max_instances > 0 ? from_suite.max_instances
                                                   : 2 * b.instances;
    auto plan = setup.plan;
    plan.max_instances = static_cast<std::size_t>(std::max(max, 2));
    plan.min_instances = std::min<std::size_t>(plan.min_instances, plan.max_instances);
    if (const auto why = stats::check(plan); !why.empty())
      return Error{fmt::format("benchmark '{}': {}", b.name, why)};
    auto found = designs.find(plan.max_instances);
    if (found == designs.end())
      found = designs.emplace(plan.max_instances, stats::make_design(plan)).first;
    state[bi].design = found->second;
    state[bi].fixed = static_cast<std::size_t>(b.instances);
    state[bi].outcome.benchmark = b.name;
    state[bi].outcome.max_instances = plan.max_instances;
    b.instances = static_cast<int>(plan.max_instances);
  }

  if (opts.uuid.empty()) opts.uuid = schedule::new_uuid();
  const auto start = std::chrono::steady_clock::now();
  const bool live = ctx.interactive();
  auto out_of_time = [&] {
    return max_time > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
               max_time;
  };
  // The benchmark's A and B as stored so far.
  auto load = [&]() -> Result<RunData> {
    BG_TRY(store.flush());
    return store.load_run(opts.uuid, {});
  };
  // Takes the looks the data reach; `force` ends the benchmark at its last look.
  auto step = [&](std::size_t bi, const RunData& run, bool force) {
    auto& s = state[bi];
    if (s.ended) return true;
    const auto [a, b] = analysis::ab_variants(run, s.outcome.benchmark);
    const std::size_t have = a && b ? analysis::usable_instances(*a, *b, setup) : 0;
    while (s.next < s.design.sizes.size() && have >= s.design.sizes[s.next]) {
      const bool last =
          force && (s.next + 1 == s.design.sizes.size() || have < s.design.sizes[s.next + 1]);
      const auto l = analysis::look_at(*a, *b, s.design, s.next + 1, setup, last);
      ++s.next;
      s.outcome.looks.push_back(l);
      s.outcome.look = l;
      if (live) ctx.err << "\r\033[K" << look_line(s.outcome.benchmark, l) << "\n";
      if (l.decision != stats::SequentialDecision::kContinue) {
        s.ended = true;
        return true;
      }
    }
    if (force) {
      s.ended = true;
      if (s.outcome.looks.empty()) {
        s.outcome.look.decision = stats::SequentialDecision::kInconclusive;
        s.outcome.look.instances_a = s.outcome.look.instances_b = have;
        s.outcome.look.reason = fmt::format("{} instance(s) a side, fewer than the first look's {}",
                                            have, s.design.sizes.front());
      } else if (s.outcome.look.decision == stats::SequentialDecision::kContinue) {
        s.outcome.look.decision = stats::SequentialDecision::kInconclusive;
      }
      return true;
    }
    return false;
  };

  std::optional<Error> failure;
  opts.after_step = [&](int bi) {
    auto run = load();
    if (!run.ok()) {
      failure = run.error();
      return true;
    }
    const bool late = out_of_time();
    if (late) state[bi].outcome.out_of_time = true;
    return step(static_cast<std::size_t>(bi), *run, late);
  };
  opts.final_artifacts = [&]() -> KeyValues {
    auto run = load();
    std::vector<analysis::SequentialOutcome> outcomes;
    for (std::size_t bi = 0; bi < state.size(); ++bi) {
      if (run.ok()) step(bi, *run, /*force=*/true);
      outcomes.push_back(state[bi].outcome);
    }
    return {{analysis::kSequentialArtifact, analysis::sequential_record(setup, outcomes)}};
  };

  auto outcome = [&] {
    const StopOnSignals stop;
    ProgressBar bar(ctx.err, live);
    return schedule::run_suite(suite, store, opts, std::ref(bar));
  }();
  if (!outcome.ok()) return outcome.error();
  if (failure) return *failure;

  BG_ASSIGN(const RunData run, store.load_run(opts.uuid, {}));
  for (const auto& s : state) {
    const auto& o = s.outcome;
    const auto& l = o.look;
    const std::size_t used = std::max(l.instances_a, l.instances_b);
    std::string line =
        fmt::format("{}: {} after {} of at most {} instances a side", escape_text(o.benchmark),
                    stats::to_string(l.decision), used, o.max_instances);
    if (l.look > 0 && std::isfinite(l.ratio) && std::isfinite(l.ci.lower))
      line += fmt::format(" (B/A {:.4f} [{:.4f}, {:.4f}], look {})", l.ratio, l.ci.lower,
                          l.ci.upper, l.look);
    if (o.out_of_time) line += "; the time budget ran out";
    const auto [a, b] = analysis::ab_variants(run, o.benchmark);
    const std::size_t done = a && b ? std::min(a->instances.size(), b->instances.size()) : 0;
    if (a && b && done > 0) {
      const double per_pair = (seconds_of(*a) + seconds_of(*b)) / static_cast<double>(done);
      const double delta = per_pair * (static_cast<double>(s.fixed) - static_cast<double>(done));
      line += delta >= 0
                  ? fmt::format("; {:.1f} s saved against the fixed {} a side", delta, s.fixed)
                  : fmt::format("; {:.1f} s more than the fixed {} a side", -delta, s.fixed);
    }
    ctx.err << "benchguard: " << line << "\n";
    if (l.decision == stats::SequentialDecision::kInconclusive && !l.reason.empty())
      ctx.err << "benchguard:   " << escape_text(l.reason) << "\n";
  }
  return outcome;
}

}  // namespace benchguard::cli
