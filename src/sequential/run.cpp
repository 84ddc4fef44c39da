#include "sequential/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

namespace benchguard::sequential {
namespace {

struct State {
  stats::SequentialDesign design;
  std::size_t next = 0;  // index of the next look
  bool ended = false;
  BenchmarkResult result;
};

double seconds_of(const VariantData& v) {
  double s = 0;
  for (const auto& i : v.instances) s += static_cast<double>(i.end_ns - i.start_ns) * 1e-9;
  return s;
}

}  // namespace

double BenchmarkResult::saved_seconds() const {
  return pair_seconds * (static_cast<double>(fixed) - static_cast<double>(measured));
}

Settings settings_for(const Suite& suite, int max_instances, double max_time_s, int round) {
  const UntilDecided from_suite = suite.until_decided.value_or(UntilDecided{});
  Settings s;
  s.max_instances = max_instances > 0 ? max_instances : from_suite.max_instances;
  s.max_time_s = max_time_s > 0 ? max_time_s : from_suite.max_time_s;
  s.setup.plan.round = static_cast<std::size_t>(round > 0              ? round
                                                : from_suite.round > 0 ? from_suite.round
                                                                       : 1);
  return s;
}

Result<SequentialRun> run_until_decided(const Suite& declared, store::Store& store,
                                        schedule::RunOptions opts, const Settings& settings,
                                        const LookFn& on_look,
                                        const schedule::ProgressFn& progress) {
  const auto& setup = settings.setup;
  Suite suite = declared;
  std::vector<State> state(suite.benchmarks.size());
  std::map<std::size_t, stats::SequentialDesign> designs;  // by max_instances
  // Each benchmark stops at its own first decision: with K benchmarks at 1 - alpha each, some
  // false alarm would come about 1 - (1 - alpha)^K of the time. Bonferroni's split keeps the
  // run's family at alpha (docs/sequential.md measures it at K = 5).
  const std::size_t family = std::max<std::size_t>(suite.benchmarks.size(), 1);
  const double each = 1.0 - (1.0 - setup.plan.confidence) / static_cast<double>(family);
  for (std::size_t bi = 0; bi < suite.benchmarks.size(); ++bi) {
    auto& b = suite.benchmarks[bi];
    if (b.variants.size() != 2)
      return Error{fmt::format(
          "benchmark '{}' has {} variant(s); --until-decided compares A with B: give it two "
          "(or run --null for A against itself)",
          b.name, b.variants.size())};
    auto plan = setup.plan;
    plan.confidence = each;
    const int max = settings.max_instances > 0 ? settings.max_instances : 2 * b.instances;
    plan.max_instances = static_cast<std::size_t>(std::max(max, 2));
    plan.min_instances = std::min(plan.min_instances, plan.max_instances);
    if (const auto why = stats::check(plan); !why.empty())
      return Error{fmt::format("benchmark '{}': {}", b.name, why)};
    auto found = designs.find(plan.max_instances);
    if (found == designs.end())
      found = designs.emplace(plan.max_instances, stats::make_design(plan)).first;
    state[bi].design = found->second;
    state[bi].result.fixed = static_cast<std::size_t>(b.instances);
    state[bi].result.outcome.benchmark = b.name;
    state[bi].result.outcome.max_instances = plan.max_instances;
    b.instances = static_cast<int>(plan.max_instances);
  }

  // A before B (the sequential schedule) would measure all of A's budget before B's first
  // instance: the looks need the two interleaved.
  const std::string& sched = opts.schedule.empty() ? suite.schedule : opts.schedule;
  if (sched.empty() || sched == "sequential") opts.schedule = suite.schedule = "interleaved";
  if (opts.uuid.empty()) opts.uuid = schedule::new_uuid();
  const auto start = std::chrono::steady_clock::now();
  auto out_of_time = [&] {
    return settings.max_time_s > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
               settings.max_time_s;
  };
  auto load = [&]() -> Result<RunData> {
    BG_TRY(store.flush());  // instances held back by batching must be seen
    return store.load_run(opts.uuid, {.columns = true});
  };
  // The benchmark's last look gets its repeated p-value (a numerical integration per bisection
  // step: once a benchmark, not at every look).
  auto finish = [](State& s) {
    s.ended = true;
    auto& o = s.result.outcome;
    if (o.looks.empty()) return;
    o.look.p_value = stats::repeated_p_value(s.design.plan, o.look.look, o.look.p_fixed);
    o.looks.back().p_value = o.look.p_value;
  };
  // Takes the looks the stored data reach; `force` ends the benchmark at its last look.
  auto step = [&](std::size_t bi, const RunData& run, bool force) {
    auto& s = state[bi];
    auto& o = s.result.outcome;
    if (s.ended) return true;
    const auto [a, b] = analysis::ab_variants(run, o.benchmark);
    analysis::SequentialData data;
    if (a && b) data = analysis::sequential_data(*a, *b, setup);
    const std::size_t have = data.instances();
    while (s.next < s.design.sizes.size() && have >= s.design.sizes[s.next]) {
      const bool last =
          force && (s.next + 1 == s.design.sizes.size() || have < s.design.sizes[s.next + 1]);
      const auto l = analysis::look_at(data, s.design, s.next + 1, setup, last);
      ++s.next;
      o.looks.push_back(l);
      o.look = l;
      if (on_look) on_look(o.benchmark, l);
      if (l.decision != stats::SequentialDecision::kContinue) {
        finish(s);
        return true;
      }
    }
    if (!force) return false;
    finish(s);
    if (o.looks.empty()) {
      o.look.decision = stats::SequentialDecision::kInconclusive;
      o.look.instances_a = o.look.instances_b = have;
      o.look.reason = fmt::format("{} instance(s) a side, fewer than the first look's {}", have,
                                  s.design.sizes.front());
    } else if (o.look.decision == stats::SequentialDecision::kContinue) {
      o.look.decision = stats::SequentialDecision::kInconclusive;
    }
    return true;
  };

  std::optional<Error> failure;
  opts.after_step = [&](int bi) {
    auto run = load();
    if (!run.ok()) {
      failure = run.error();
      return true;
    }
    const bool late = out_of_time();
    if (late) state[static_cast<std::size_t>(bi)].result.outcome.out_of_time = true;
    return step(static_cast<std::size_t>(bi), *run, late);
  };
  opts.final_artifacts = [&]() -> KeyValues {
    auto run = load();
    std::vector<analysis::SequentialOutcome> outcomes;
    for (std::size_t bi = 0; bi < state.size(); ++bi) {
      if (run.ok()) step(bi, *run, /*force=*/true);
      outcomes.push_back(state[bi].result.outcome);
    }
    return {{analysis::kSequentialArtifact,
             analysis::sequential_record(setup, outcomes, family, each)}};
  };

  BG_ASSIGN(schedule::RunOutcome outcome, schedule::run_suite(suite, store, opts, progress));
  if (failure) return *failure;
  BG_ASSIGN(const RunData run, store.load_run(opts.uuid, {.columns = true}));
  SequentialRun out;
  out.run = std::move(outcome);
  out.family = family;
  out.benchmark_confidence = each;
  for (auto& s : state) {
    auto& r = s.result;
    const auto [a, b] = analysis::ab_variants(run, r.outcome.benchmark);
    r.measured = a && b ? std::min(a->instances.size(), b->instances.size()) : 0;
    if (r.measured > 0)
      r.pair_seconds = (seconds_of(*a) + seconds_of(*b)) / static_cast<double>(r.measured);
    out.benchmarks.push_back(std::move(r));
  }
  return out;
}

}  // namespace benchguard::sequential
