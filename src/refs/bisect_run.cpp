// benchguard bisect: measures commits between good and bad, each in the same runs as both
// endpoints, until the search (analysis/bisect.hpp) names the first bad commit; then measures
// that commit against its parent alone.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/hash.hpp"
#include "refs/refs.hpp"
#include "stats/rng.hpp"
#include "stats/sequential.hpp"
#include "vcs/worktree.hpp"

namespace benchguard::refs {
namespace {

std::string short_hash(const std::string& commit) {
  return commit.substr(0, 12);
}

// The runs stored by this session for `key` (a candidate, or the final check), oldest first.
Result<std::vector<RunData>> stored_rounds(store::Store& store, const std::string& session,
                                           const std::string& key) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  std::vector<RunData> out;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    const auto* s = find_value(it->labels, "bisect");
    const auto* k = find_value(it->labels, "bisect.step");
    if (s == nullptr || k == nullptr || *s != session || *k != key) continue;
    if (it->status != "complete") continue;
    BG_ASSIGN(RunData r, store.load_run(std::to_string(it->id), {.columns = true}));
    out.push_back(std::move(r));
  }
  return out;
}

// Each side's variant of `benchmark` pooled over `rounds`, by side name.
std::map<std::string, VariantData> pooled(const std::vector<RunData>& rounds,
                                          const std::string& benchmark) {
  std::map<std::string, VariantData> out;
  for (const auto& r : rounds)
    for (const auto& v : r.variants) {
      if (v.variant.benchmark != benchmark) continue;
      auto [slot, fresh] =
          out.try_emplace(v.variant.name, VariantData{v.variant, {}, {}, v.metrics, {}});
      for (const auto& in : v.instances) slot->second.instances.push_back(in);
    }
  return out;
}

struct Bisector {
  const Suite& suite;
  store::Store& store;
  const BisectOptions& o;
  const BisectProgress& progress;
  const schedule::ProgressFn& run_progress;
  Repository repo;
  std::string benchmark;
  std::string session;
  int instances = 0;
  int max_instances = 0;
  RefSide good, bad;
  // A step looks after each round: its intervals are repeated confidence intervals over those
  // looks (stats/sequential.hpp), so the rounds added while a step is inconclusive do not raise
  // the chance of a wrong good or bad above 1 - confidence.
  stats::SequentialDesign looks;

  // The interval's confidence at a candidate measured `n` instances: its look's, or the plain
  // confidence when the rounds cannot form a plan (one instance a round).
  double confidence_at(int n) const {
    std::size_t k = 0;
    while (k < looks.sizes.size() && looks.sizes[k] <= static_cast<std::size_t>(n)) ++k;
    return k == 0 ? o.confidence : looks.levels[k - 1];
  }

  // One round of `sides` (named as they are to be stored) for the step `key`.
  Status measure(const std::vector<RefSide>& sides, const std::string& key) {
    BG_ASSIGN(Suite at, suite_at(suite, repo, sides, o.refs, {benchmark}));
    for (auto& b : at.benchmarks) b.instances = instances;
    BG_TRY(schedule::preflight(at));
    schedule::RunOptions opts = o.refs.run;
    opts.labels.emplace_back("bisect", session);
    opts.labels.emplace_back("bisect.step", key);
    const KeyValues artifacts = side_artifacts(sides, o.refs);
    opts.artifacts.insert(opts.artifacts.end(), artifacts.begin(), artifacts.end());
    BG_ASSIGN(const auto outcome, schedule::run_suite(at, store, opts, run_progress));
    if (outcome.status != "complete") return Error{"bisect stopped: the run was interrupted"};
    return ok_status();
  }

  stats::Hierarchical sample(const VariantData& v) const {
    return analysis::extract(v, o.metric, o.burn_in).data;
  }

  // Measures `candidate` against both endpoints until the verdict is good or bad or the
  // budget is spent; reuses what earlier sessions stored.
  Result<BisectStep> step(std::size_t index, const std::string& commit, std::size_t k,
                          std::size_t about) {
    BisectStep s;
    s.index = index;
    s.commit = commit;
    const auto say = [&](const std::string& what) {
      if (progress)
        progress(fmt::format("step {} of about {}: {} {}", k, about, short_hash(commit), what));
    };
    say("building");
    auto side = prepare_side(repo, o.refs, "candidate", commit);
    if (!side.ok()) {
      s.skipped = true;
      s.why_skipped = side.error().message;
      say("skipped: it does not build");
      return s;
    }
    const std::string key = "candidate " + commit;
    BG_ASSIGN(auto rounds, stored_rounds(store, session, key));
    uint64_t round_seed = o.seed;
    while (true) {
      auto sides = pooled(rounds, benchmark);
      const auto count = [&](const char* name) {
        const auto it = sides.find(name);
        return it == sides.end() ? 0 : static_cast<int>(it->second.instances.size());
      };
      s.instances = count("candidate");
      if (!rounds.empty()) {
        const auto g = sample(sides["good"]), c = sample(sides["candidate"]),
                   b = sample(sides["bad"]);
        if (c.empty()) {
          s.skipped = true;
          s.why_skipped = fmt::format("no {} measured: every instance failed", o.metric);
          say("skipped: its benchmark fails");
          return s;
        }
        s.result = analysis::classify_step(g, c, b, o.statistic, confidence_at(s.instances),
                                           o.resamples, stats::derive_seed(round_seed, index));
        say(fmt::format("{} (position {:.2f}, {} instances)", analysis::to_string(s.result.verdict),
                        s.result.position, s.instances));
        if (s.result.verdict != analysis::StepVerdict::kInconclusive) {
          s.decided = s.result.verdict;
          return s;
        }
      }
      if (!rounds.empty() && s.instances >= max_instances) break;
      say(rounds.empty() ? "measuring" : "measuring more");
      BG_TRY(measure({good, *side, bad}, key));
      ++s.rounds_run;
      BG_ASSIGN(rounds, stored_rounds(store, session, key));
    }
    // Inconclusive at the budget: the nearer endpoint, said so.
    s.uncertain = true;
    s.decided =
        s.result.position > 0.5 ? analysis::StepVerdict::kBad : analysis::StepVerdict::kGood;
    return s;
  }
};

}  // namespace

Result<BisectOutcome> run_bisect(const Suite& suite, store::Store& store, const std::string& good,
                                 const std::string& bad, const BisectOptions& options,
                                 const BisectProgress& progress,
                                 const schedule::ProgressFn& run_progress) {
  Bisector b{suite, store, options, progress, run_progress, {}, {}, {}, 0, 0, {}, {}, {}};
  BG_ASSIGN(b.repo, repository_of(suite, options.refs));
  b.benchmark = options.benchmark;
  if (b.benchmark.empty()) {
    if (suite.benchmarks.size() != 1)
      return Error{fmt::format("{} has {} benchmarks: name the one to bisect with --benchmark",
                               suite.path, suite.benchmarks.size())};
    b.benchmark = suite.benchmarks.front().name;
  }
  const auto spec = std::find_if(suite.benchmarks.begin(), suite.benchmarks.end(),
                                 [&](const BenchmarkSpec& x) { return x.name == b.benchmark; });
  if (spec == suite.benchmarks.end())
    return Error{fmt::format("no benchmark '{}' in {}", b.benchmark, suite.path)};
  b.instances = options.instances > 0 ? options.instances : spec->instances;
  b.max_instances = options.max_instances > 0 ? options.max_instances : 4 * b.instances;
  stats::SequentialPlan plan;
  plan.min_instances = plan.round = static_cast<std::size_t>(std::max(b.instances, 1));
  plan.max_instances = static_cast<std::size_t>(std::max(b.max_instances, b.instances));
  plan.confidence = options.confidence;
  if (stats::check(plan).empty()) b.looks = stats::make_design(plan);

  BisectOutcome out;
  BG_ASSIGN(out.good, vcs::resolve_commit(b.repo.top, good));
  BG_ASSIGN(out.bad, vcs::resolve_commit(b.repo.top, bad));
  BG_ASSIGN(out.commits, vcs::commits_between(b.repo.top, out.good, out.bad));
  Fnv1a h("bisect-session");
  for (const auto& part :
       {out.good, out.bad, b.repo.suite, b.benchmark, options.refs.variant, options.refs.build})
    h.str(part);
  out.session = b.session = fmt::format("{:016x}", static_cast<uint64_t>(h.value()));
  if (progress)
    progress(
        fmt::format("preparing good {} and bad {}", short_hash(out.good), short_hash(out.bad)));
  BG_ASSIGN(b.good, prepare_side(b.repo, options.refs, "good", out.good));
  BG_ASSIGN(b.bad, prepare_side(b.repo, options.refs, "bad", out.bad));

  // Candidates are the commits strictly between good and bad.
  const std::size_t n = out.commits.size() - 1;
  analysis::BisectSearch search(n);
  const std::size_t about = analysis::expected_steps(n);
  bool endpoints_checked = false;
  while (auto next = search.next()) {
    BG_ASSIGN(BisectStep s, b.step(*next, out.commits[*next], out.steps.size() + 1, about));
    if (s.skipped) {
      search.skip(*next);
    } else {
      if (!endpoints_checked && !s.result.endpoints_differ)
        return Error{fmt::format(
            "good {} and bad {} do not differ on {} {} ({}x, {:.0f}% CI {:.3f} .. {:.3f}, {} "
            "instances each): nothing to bisect",
            short_hash(out.good), short_hash(out.bad), b.benchmark, options.metric,
            fmt::format("{:.3f}", s.result.step_ratio), 100 * options.confidence,
            s.result.step_lower, s.result.step_upper, s.instances)};
      endpoints_checked = true;
      if (s.result.between)
        out.warnings.push_back(fmt::format(
            "{} lies between good and bad (position {:.2f}, {:.2f} .. {:.2f}): the change may "
            "be spread over several commits",
            short_hash(s.commit), s.result.position, s.result.position_lower,
            s.result.position_upper));
      if (s.uncertain)
        out.warnings.push_back(
            fmt::format("{} stayed inconclusive at {} instances; taken as {} (the nearer endpoint)",
                        short_hash(s.commit), s.instances, analysis::to_string(s.decided)));
      search.mark(*next, s.decided);
    }
    out.steps.push_back(std::move(s));
  }
  if (search.contradicted())
    out.warnings.push_back(
        "the verdicts contradict an ordered history (a good commit after a bad one)");
  out.culprit = out.commits[search.first_bad()];
  for (const std::size_t k : search.could_also_be()) out.could_also_be.push_back(out.commits[k]);
  if (!out.could_also_be.empty())
    out.warnings.push_back(
        fmt::format("{} skipped commit(s) just before {} could be the first bad instead",
                    out.could_also_be.size(), short_hash(out.culprit)));

  // The final check: the culprit against its parent, alone.
  BG_ASSIGN(out.parent, vcs::parent_of(b.repo.top, out.culprit));
  if (progress)
    progress(fmt::format("final check: {} against its parent {}", short_hash(out.culprit),
                         short_hash(out.parent)));
  auto parent = prepare_side(b.repo, options.refs, "parent", out.parent);
  if (!parent.ok()) {
    out.warnings.push_back("no final check: " + parent.error().message);
    return out;
  }
  BG_ASSIGN(RefSide culprit, prepare_side(b.repo, options.refs, "culprit", out.culprit));
  const std::string key = "final " + out.culprit;
  BG_ASSIGN(auto rounds, stored_rounds(store, out.session, key));
  if (rounds.empty()) {
    BG_TRY(b.measure({*parent, culprit}, key));
    BG_ASSIGN(rounds, stored_rounds(store, out.session, key));
  }
  auto sides = pooled(rounds, b.benchmark);
  stats::VerdictOptions verdict;
  verdict.statistic = options.statistic;
  verdict.confidence = options.confidence;
  verdict.resamples = options.resamples;
  verdict.seed = options.seed;
  verdict.direction = analysis::metric_info(sides["culprit"], options.metric).direction;
  out.final_check = stats::compare(b.sample(sides["parent"]), b.sample(sides["culprit"]), verdict);
  return out;
}

}  // namespace benchguard::refs
