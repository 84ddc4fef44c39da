#include "refs/confirm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sequential/run.hpp"

namespace benchguard::refs {

namespace {

// The verdict of the run's A and B (or the variants named so) for the change's benchmark and
// metric.
ConfirmOutcome judge(const RunData& run, const store::ChangeRecord& change,
                     const analysis::CompareOptions& compare, const std::string& name_a = "A",
                     const std::string& name_b = "B") {
  ConfirmOutcome out;
  out.run_uuid = run.run.uuid;
  analysis::Side a{"last good", {}}, b{"first bad", {}};
  for (const auto& v : run.variants) {
    if (v.variant.benchmark != change.benchmark) continue;
    if (v.variant.name == name_a) a.variants.push_back(&v);
    if (v.variant.name == name_b) b.variants.push_back(&v);
    out.instances = std::max(out.instances, static_cast<int>(v.instances.size()));
  }
  analysis::CompareOptions o = compare;
  o.metrics = {change.metric};
  o.calibration = nullptr;
  // A sequential run is judged by the look that stopped it; an unreadable record, by the data.
  const auto record = analysis::read_sequential_record(run.run);
  if (record.ok() && record->has_value()) o.sequential = &**record;
  const analysis::CompareReport report = analysis::compare_sides(a, b, o);
  out.verdict = "inconclusive";
  for (const auto& m : report.metrics)
    for (const auto& row : m.rows) {
      if (row.benchmark != change.benchmark) continue;
      out.row = row;
      const stats::Verdict expected =
          change.kind == "improvement" ? stats::Verdict::kFaster : stats::Verdict::kSlower;
      const stats::Verdict v = row.result.verdict;
      if (v == expected)
        out.verdict = "confirmed";
      else if (v != stats::Verdict::kInconclusive)
        out.verdict = "refuted";
    }
  return out;
}

}  // namespace

analysis::Confirmation to_confirmation(const ConfirmOutcome& outcome) {
  analysis::Confirmation c{outcome.verdict, outcome.run_uuid};
  c.instances = outcome.instances;
  if (outcome.row) {
    const stats::Estimate& ratio = outcome.row->result.ratio;
    c.change = ratio.value - 1;
    c.lower = ratio.ci.lower - 1;
    c.upper = ratio.ci.upper - 1;
  }
  return c;
}

int needed_instances(double change, double cv, double threshold) {
  constexpr double z = 1.959964 + 1.281552;  // two-sided 5%, power 90%
  if (!(std::abs(change) > 0) || !std::isfinite(cv) || !std::isfinite(change)) return 5;
  const double d = threshold > 0 ? std::min(std::abs(change), threshold) : std::abs(change);
  const double n = 2 * z * z * (cv / d) * (cv / d);
  return static_cast<int>(std::clamp(std::ceil(n), 5.0, 30.0));
}

Result<std::optional<ConfirmOutcome>> stored_confirmation(store::Store& store,
                                                          const store::ChangeRecord& change,
                                                          const analysis::CompareOptions& compare) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  for (const auto& r : runs) {  // newest first
    const std::string* id = find_value(r.labels, "confirm");
    if (id == nullptr || *id != change.id || r.status != "complete") continue;
    BG_ASSIGN(const RunData run, store.load_run(r.uuid, {.columns = true}));
    return std::optional<ConfirmOutcome>(judge(run, change, compare));
  }
  return std::optional<ConfirmOutcome>();
}

Result<std::optional<Culprit>> stored_culprit(store::Store& store,
                                              const store::ChangeRecord& change,
                                              const std::vector<std::string>& range,
                                              const analysis::CompareOptions& compare) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  for (const auto& r : runs) {  // newest first
    const std::string* step = find_value(r.labels, "bisect.step");
    if (step == nullptr || !step->starts_with("final ") || r.status != "complete") continue;
    const std::string commit = step->substr(6);
    if (std::find(range.begin(), range.end(), commit) == range.end()) continue;
    BG_ASSIGN(const RunData run, store.load_run(r.uuid, {.columns = true}));
    const ConfirmOutcome judged = judge(run, change, compare, "parent", "culprit");
    if (!judged.row) continue;  // another benchmark's bisect
    return std::optional<Culprit>(Culprit{commit, to_confirmation(judged)});
  }
  return std::optional<Culprit>();
}

Result<ConfirmOutcome> confirm_change(const Suite& suite, store::Store& store,
                                      const store::ChangeRecord& change,
                                      const ConfirmOptions& options,
                                      const schedule::ProgressFn& progress) {
  if (change.last_good.empty() || change.first_bad.empty())
    return Error{fmt::format("change {} names no commits to measure", change.id)};
  BG_ASSIGN(const Repository repo, repository_of(suite, options.refs));
  BG_ASSIGN(const RefSide a, prepare_side(repo, options.refs, "A", change.last_good));
  BG_ASSIGN(const RefSide b, prepare_side(repo, options.refs, "B", change.first_bad));
  BG_ASSIGN(Suite at, suite_at(suite, repo, {a, b}, options.refs, {change.benchmark}));
  // The spread of a point, from the interval the change was found with (99% by default).
  const double cv = (change.change_upper - change.change_lower) / (2 * 2.576);
  for (auto& bench : at.benchmarks)
    bench.instances =
        options.instances > 0
            ? options.instances
            : std::max(bench.instances,
                       needed_instances(change.change, cv, options.compare.verdict.threshold));
  // A and B interleaved, so that what the machine does meanwhile falls on both.
  if (at.schedule == "sequential" || at.schedule.empty()) at.schedule = "interleaved";
  BG_TRY(schedule::preflight(at));
  schedule::RunOptions opts = options.refs.run;
  opts.labels.emplace_back("confirm", change.id);
  if (options.refs.on_step)
    options.refs.on_step(
        fmt::format("measuring {} and {} again", a.commit.substr(0, 12), b.commit.substr(0, 12)));
  const KeyValues artifacts = side_artifacts({a, b}, options.refs);
  opts.artifacts.insert(opts.artifacts.end(), artifacts.begin(), artifacts.end());
  schedule::RunOutcome run;
  if (options.sequential) {
    sequential::Settings s;
    s.setup.verdict = options.compare.verdict;
    s.setup.burn_in = options.compare.burn_in;
    s.setup.metric = change.metric;
    BG_ASSIGN(auto seq, sequential::run_until_decided(at, store, opts, s, {}, progress));
    run = std::move(seq.run);
  } else {
    BG_ASSIGN(run, schedule::run_suite(at, store, opts, progress));
  }
  if (run.status != "complete")
    return Error{fmt::format("the confirmation run of change {} did not finish ({})", change.id,
                             run.status)};
  BG_ASSIGN(const RunData data, store.load_run(std::to_string(run.run_id), {.columns = true}));
  return judge(data, change, options.compare);
}

}  // namespace benchguard::refs
