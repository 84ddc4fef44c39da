#include "analysis/compare.hpp"

#include <fmt/format.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "core/instance_table.hpp"
#include "core/iterations.hpp"
#include "stats/rng.hpp"

namespace benchguard::analysis {

bool CompareReport::any(stats::Verdict v) const {
  for (const auto& m : metrics)
    for (const auto& r : m.rows)
      if (r.result.verdict == v) return true;
  return false;
}

std::string BenchmarkComparison::name() const {
  return variant.empty() ? benchmark : benchmark + " [" + variant + "]";
}

std::vector<std::string> variant_names(const RunData& run) {
  std::vector<std::string> names;
  for (const auto& v : run.variants)
    if (std::find(names.begin(), names.end(), v.variant.name) == names.end())
      names.push_back(v.variant.name);
  return names;
}

Side variant_side(const RunData& run, const std::string& variant, const std::string& label) {
  Side s;
  s.label = label;
  for (const auto& v : run.variants) {
    if (!variant.empty() && v.variant.name != variant) continue;
    const bool seen = std::any_of(s.variants.begin(), s.variants.end(), [&](const auto* x) {
      return x->variant.benchmark == v.variant.benchmark;
    });
    if (!seen) s.variants.push_back(&v);
  }
  return s;
}

RunSides run_sides(const RunData& a, const RunData& b, const std::string& label_a,
                   const std::string& label_b, const std::string& variant_a,
                   const std::string& variant_b) {
  RunSides out;
  const auto names_a = variant_names(a), names_b = variant_names(b);
  if (variant_a.empty() && variant_b.empty() && (names_a.size() > 1 || names_b.size() > 1)) {
    const bool shared = std::any_of(names_a.begin(), names_a.end(), [&](const std::string& n) {
      return std::find(names_b.begin(), names_b.end(), n) != names_b.end();
    });
    if (shared) {
      out.a.label = label_a;
      out.b.label = label_b;
      for (const auto& v : a.variants) out.a.variants.push_back(&v);
      for (const auto& v : b.variants) out.b.variants.push_back(&v);
      out.by_variant = true;
      return out;
    }
    const auto list = [](const std::vector<std::string>& names) {
      std::string s;
      for (const auto& n : names) s += (s.empty() ? "'" : ", '") + n + "'";
      return s;
    };
    out.notes.push_back(fmt::format(
        "A's variants ({}) and B's ({}) share no name: each benchmark's first variant is "
        "compared, '{}' of A with '{}' of B (--variant-a and --variant-b pick others)",
        list(names_a), list(names_b), names_a.empty() ? "" : names_a.front(),
        names_b.empty() ? "" : names_b.front()));
  }
  out.a = variant_side(a, variant_a, label_a);
  out.b = variant_side(b, variant_b, label_b);
  return out;
}

// A row whose values say nothing about the benchmark gets no verdict, and says why: memory at
// benchguard's launch floor (an upper bound), or a measure too coarse for the benchmark (CPU
// times count in clock ticks: a short benchmark's are mostly 0, its ratio has no upper end).
std::string floor_note(const BenchmarkComparison& row) {
  return fmt::format(
      "{} of {} A and {} of {} B instances ended before their memory was sampled {} times "
      "(every 10 ms): their {} is known only to lie below benchguard's own size at launch "
      "({:.1f} MiB), left out; no verdict",
      row.a.instances_at_floor, row.a.instances_ok, row.b.instances_at_floor, row.b.instances_ok,
      kMinTreeSamples, row.metric.name,
      static_cast<double>(std::max(row.a.launch_floor_bytes, row.b.launch_floor_bytes)) /
          (1024.0 * 1024.0));
}

namespace {

// The counterpart of `v` on side `s`: its benchmark's variant, of the same name too when
// pairing by variant.
const VariantData* find(const Side& s, const VariantData& v, bool by_variant) {
  for (const auto* x : s.variants)
    if (x->variant.benchmark == v.variant.benchmark &&
        (!by_variant || x->variant.name == v.variant.name))
      return x;
  return nullptr;
}

std::string side_name(const VariantData& v, bool by_variant) {
  return by_variant ? v.variant.benchmark + " [" + v.variant.name + "]" : v.variant.benchmark;
}

// The metrics to compare, in order: as named, every metric both sides of some benchmark have
// ("all"), or the default selection (kDefaultMetrics where both sides have them, then the
// metrics benchmarks reported themselves); then `also`, where both sides of some benchmark
// have them.
std::vector<std::string> metric_selection(
    const std::vector<std::pair<const VariantData*, const VariantData*>>& pairs,
    const std::vector<std::string>& asked, const std::vector<std::string>& also) {
  const bool all = asked.size() == 1 && asked.front() == "all";
  if (!asked.empty() && !all && also.empty()) return asked;
  std::vector<std::string> shared;  // first seen first
  for (const auto& [va, vb] : pairs) {
    const auto in_b = metrics_of(*vb);
    for (const auto& m : metrics_of(*va))
      if (std::find(in_b.begin(), in_b.end(), m) != in_b.end() &&
          std::find(shared.begin(), shared.end(), m) == shared.end())
        shared.push_back(m);
  }
  const auto shared_has = [&](const std::string& m) {
    return std::find(shared.begin(), shared.end(), m) != shared.end();
  };
  const auto with_also = [&](std::vector<std::string> out) {
    for (const auto& m : also)
      if (shared_has(m) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    return out;
  };
  if (!asked.empty() && !all) return with_also(asked);
  std::vector<std::string> out;
  // Instructions counted under Valgrind are what such a run is for; its time and memory are
  // the simulator's, so they are default only where some benchmark ran natively.
  bool simulated = false, native = pairs.empty();
  for (const auto& [va, vb] : pairs)
    (counted_by_simulation(*va) && counted_by_simulation(*vb) ? simulated : native) = true;
  if (simulated && !all)
    for (const auto m : kSimulatedMetrics)
      if (shared_has(std::string(m))) out.emplace_back(m);
  // Built-in metrics in their display order, then the others as first seen.
  for (const auto& b : builtin_metrics()) {
    if (std::find(out.begin(), out.end(), b.name) != out.end()) continue;
    const bool wanted =
        all || (native && std::find(std::begin(kDefaultMetrics), std::end(kDefaultMetrics),
                                    b.name) != std::end(kDefaultMetrics));
    if (wanted && std::find(shared.begin(), shared.end(), b.name) != shared.end())
      out.push_back(b.name);
  }
  for (const auto& m : shared)
    if (find_builtin_metric(m) == nullptr) out.push_back(m);
  if (out.empty()) out.emplace_back("wall_time");  // nothing shared: say so for wall time
  return with_also(std::move(out));
}

// The unit and direction the store holds for `metric`, from the first benchmark whose variants
// carry it (the first benchmark may not report a metric that others do), else as built in.
MetricInfo described(const std::vector<std::pair<const VariantData*, const VariantData*>>& pairs,
                     const std::string& metric) {
  for (const auto& [va, vb] : pairs)
    for (const auto* v : {va, vb})
      for (const auto& m : v->metrics)
        if (m.name == metric) return m;
  return metric_info(metric);
}

void withhold_unmeasured(BenchmarkComparison& row) {
  auto& r = row.result;
  if (row.a.instances_at_floor > 0 || row.b.instances_at_floor > 0) {
    r.verdict = stats::Verdict::kInconclusive;
    r.warnings.push_back(floor_note(row));
    return;
  }
  // Only CPU times are counted in ticks: a size or a count of 0 on both sides (nothing spilled)
  // is a value like any other, and the same 0 on both sides is unchanged.
  const std::string& name = row.metric.name;
  if (name != "cpu_time" && name != "user_time" && name != "sys_time") return;
  const auto zeros = [](const MetricSample& m) {
    const auto xs = m.series.values();
    return static_cast<std::size_t>(std::count(xs.begin(), xs.end(), 0.0));
  };
  const auto values = [](const MetricSample& m) { return m.series.size(); };
  const bool finite = std::isfinite(r.ratio.value) && std::isfinite(r.ratio.ci.lower) &&
                      std::isfinite(r.ratio.ci.upper);
  const std::size_t za = zeros(row.a), zb = zeros(row.b);
  // A few zeros among ticks are the tick's sampling, and the mean stays right; when half of a
  // side's values or more are 0, the figure is the resolution's, not the benchmark's.
  const bool coarse = 2 * za >= values(row.a) || 2 * zb >= values(row.b);
  if ((za == 0 && zb == 0) || (finite && !coarse)) return;
  r.verdict = stats::Verdict::kInconclusive;
  r.warnings.push_back(fmt::format(
      "{} is 0 in {} of {} A and {} of {} B values: below what it resolves (CPU times count in "
      "clock ticks), so B/A {}; no verdict (compare wall_time, or measure longer instances)",
      row.metric.name, za, values(row.a), zb, values(row.b),
      finite ? "rests on the resolution" : "has no finite interval"));
}

// Simulated counts (instructions, cache misses) that agree within each side: the ratio of the
// counts is exact, its interval spans only what spread there is, and the verdict needs one instance
// a side. True when the row was judged so (exact_notes says why, once per benchmark).
bool apply_exact(BenchmarkComparison& row) {
  const auto range = [](const MetricSample& m) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    std::size_t n = 0;
    for (double x : m.series.values()) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
      ++n;
    }
    return std::array<double, 3>{lo, hi, n == 0 ? NAN : sum / static_cast<double>(n)};
  };
  const auto [lo_a, hi_a, mean_a] = range(row.a);
  const auto [lo_b, hi_b, mean_b] = range(row.b);
  if (!(lo_a > 0 && lo_b > 0)) return false;
  auto& r = row.result;
  if (hi_a / lo_a - 1 > kExactSpread || hi_b / lo_b - 1 > kExactSpread) {
    r.warnings.push_back(fmt::format(
        "{} counts under Valgrind differ between instances (A by {:.3g}%, B by {:.3g}%): the "
        "program does not run the same way every time, so the usual rule applies",
        row.metric.name == "instructions" ? "instruction" : row.metric.name,
        100 * (hi_a / lo_a - 1), 100 * (hi_b / lo_b - 1)));
    return false;
  }
  // What the statistics said about too few instances does not hold for exact counts, nor is
  // there a tail to compare: the mean is the count.
  r.warnings.clear();
  r.tail = stats::TailComparison{};
  r.mean_a = r.value_a = mean_a;
  r.mean_b = r.value_b = mean_b;
  r.ratio.value = mean_b / mean_a;
  r.ratio.ci = {lo_b / hi_a, hi_b / lo_a};
  r.tail.mean_ratio = r.ratio;
  r.verdict = stats::classify(r.ratio.value, r.ratio.ci, r.threshold, row.metric.direction);
  // No test is needed where nothing varies: the counts either differ or they do not.
  const double p = mean_a == mean_b ? 1.0 : 0.0;
  r.p_value = r.p_value_adjusted = r.p_value_bootstrap = r.p_value_bootstrap_adjusted = p;
  return true;
}

// Says, on the first exact row of each benchmark, which of its counts were judged exact: one
// note for all of them (a run under `caches` has four), not one per metric.
void exact_notes(CompareReport& report,
                 const std::vector<std::pair<std::size_t, std::size_t>>& exact) {
  std::vector<std::string> done;
  for (const auto& [m, i] : exact) {
    BenchmarkComparison& first = report.metrics[m].rows[i];
    if (std::find(done.begin(), done.end(), first.name()) != done.end()) continue;
    done.push_back(first.name());
    std::vector<std::string> names;
    for (const auto& [m2, i2] : exact) {
      const BenchmarkComparison& row = report.metrics[m2].rows[i2];
      if (row.name() != first.name()) continue;
      names.push_back(row.metric.name == "instructions" ? "instruction" : row.metric.name);
    }
    std::string list = names.front();
    for (std::size_t k = 1; k < names.size(); ++k)
      list += (k + 1 == names.size() ? " and " : ", ") + names[k];
    first.result.warnings.push_back(fmt::format(
        "exact: Valgrind's {} counts agree within {:g}% on each side ({} and {} instances), so "
        "B/A is the ratio of the counts",
        list, 100 * kExactSpread, first.a.data.instances(), first.b.data.instances()));
  }
}

// Every instance of one side started before any of the other's: the two sides ran in blocks
// (the sequential schedule, or two runs). Needs two timed instances a side: one instance of
// each ran in some order under any schedule.
bool ran_in_blocks(const VariantData& a, const VariantData& b) {
  const auto span = [](const VariantData& v) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::size_t n = 0;
    for_each_instance(v, [&](const InstanceRecord& in, const IterationsView&) {
      if (in.started_at > 0) {
        lo = std::min(lo, in.started_at);
        hi = std::max(hi, in.started_at);
        ++n;
      }
    });
    return std::array<int64_t, 3>{lo, hi, static_cast<int64_t>(n)};
  };
  const auto [lo_a, hi_a, n_a] = span(a);
  const auto [lo_b, hi_b, n_b] = span(b);
  if (n_a < 2 || n_b < 2) return false;
  return hi_a < lo_b || hi_b < lo_a;
}

std::string blocks_note(const std::vector<std::string>& benchmarks, std::size_t of) {
  std::string names;
  for (std::size_t k = 0; k < benchmarks.size() && k < 3; ++k)
    names += (k == 0 ? "" : ", ") + benchmarks[k];
  if (benchmarks.size() > 3) names += ", ...";
  return fmt::format(
      "A and B ran in blocks, every instance of one side before any of the other ({} of {} "
      "benchmark(s): {}): a drift of the machine between the blocks reads as a difference "
      "between A and B, and no interval can see it; measure both in one interleaved run (the "
      "default schedule; `benchguard ab` for two commits) for a verdict that drift cannot make",
      benchmarks.size(), of, names);
}

}  // namespace

// A sequential run's A/B is judged by the look that stopped it: its repeated confidence
// interval holds over all the looks, where a fixed interval on data whose size was chosen by
// looking at it would be too narrow; its p-value is the repeated one, dual to those intervals,
// and takes part in Holm's adjustment with the other rows. The looks judged the centre only:
// the tails' test, a fixed-sample one, is not applied to data whose size looking chose.
namespace {

void apply_sequential(const SequentialRecord& record, const SequentialOutcome& o,
                      stats::Comparison& c) {
  const auto& l = o.look;
  if (!(std::isfinite(l.ratio) && std::isfinite(l.ci.lower) && std::isfinite(l.ci.upper))) return;
  c.ratio.value = l.ratio;
  c.ratio.ci = l.ci;
  c.tail = stats::TailComparison{};
  if (std::isfinite(l.p_value))
    c.p_value_bootstrap = c.p_value_bootstrap_adjusted = l.p_value;
  else
    c.warnings.push_back(
        "its sequential record has no repeated p-value (a run by an older benchguard): the p "
        "shown and adjusted is the fixed-sample one, too small for data whose size was chosen "
        "by looking");
  switch (l.decision) {
    case stats::SequentialDecision::kSlower:
      c.verdict = stats::Verdict::kSlower;
      break;
    case stats::SequentialDecision::kFaster:
      c.verdict = stats::Verdict::kFaster;
      break;
    case stats::SequentialDecision::kEquivalent:
      c.verdict = stats::Verdict::kUnchanged;
      break;
    default:
      c.verdict = stats::Verdict::kInconclusive;
  }
  c.warnings.push_back(fmt::format(
      "sequential run: B/A, its interval and p from look {} ({} instances a side, nominal "
      "confidence {:.4g}%), the repeated confidence interval over its looks{} "
      "(docs/sequential.md)",
      l.look, std::min(l.instances_a, l.instances_b), 100 * l.level,
      record.family > 1 ? fmt::format(", designed at {:.4g}% for each of the run's {} benchmarks",
                                      100 * record.benchmark_confidence, record.family)
                        : std::string()));
}

// Holm over every row of every metric at once (and their tails): `--fail-on` reads all of
// them, so the chance of any false slower/faster stays at 1 - confidence however many
// metrics are compared, not at (metrics) x (1 - confidence).
void adjust_across_metrics(CompareReport& report, const stats::VerdictOptions& options) {
  std::vector<stats::Comparison> family;
  for (auto& m : report.metrics)
    for (auto& row : m.rows) family.push_back(std::move(row.result));
  const std::string members = report.metrics.size() > 1
                                  ? fmt::format("rows of {} metrics", report.metrics.size())
                                  : std::string("benchmarks");
  stats::adjust_family(family, options, members);
  std::size_t k = 0;
  for (auto& m : report.metrics)
    for (auto& row : m.rows) row.result = std::move(family[k++]);
}

}  // namespace

CompareReport compare_sides(const Side& a, const Side& b, const CompareOptions& options) {
  CompareReport report;
  report.label_a = a.label;
  report.label_b = b.label;
  auto pair_up = [&](const Side& bs) {
    std::vector<std::pair<const VariantData*, const VariantData*>> out;
    for (const auto* va : a.variants)
      if (const auto* vb = find(bs, *va, options.by_variant)) out.emplace_back(va, vb);
    return out;
  };
  const std::vector<std::string> metrics =
      metric_selection(pair_up(b), options.metrics, options.also);

  // B as if slower: copies with stretched iterations, kept alive for the whole comparison.
  std::vector<VariantData> slowed;
  if (options.simulate_slowdown != 0) {
    slowed.reserve(b.variants.size());
    for (const auto* vb : b.variants)
      slowed.push_back(with_slowdown(*vb, options.simulate_slowdown, metrics));
  }
  Side b_side = b;
  for (size_t k = 0; k < slowed.size(); ++k) b_side.variants[k] = &slowed[k];

  const auto pairs = pair_up(b_side);
  const bool by_variant = options.by_variant;
  for (const auto* va : a.variants)
    if (find(b_side, *va, by_variant) == nullptr)
      report.only_in_a.push_back(side_name(*va, by_variant));
  for (const auto* vb : b_side.variants)
    if (find(a, *vb, by_variant) == nullptr) report.only_in_b.push_back(side_name(*vb, by_variant));

  std::vector<std::string> in_blocks;
  for (const auto& [va, vb] : pairs)
    if (ran_in_blocks(*va, *vb)) in_blocks.push_back(side_name(*va, by_variant));

  // The calibration's entries by (benchmark, metric), looked up once per row.
  std::map<std::pair<std::string_view, std::string_view>, const CalibrationEntry*> calibrated;
  if (options.calibration != nullptr)
    for (const auto& e : options.calibration->entries)
      calibrated.try_emplace({e.benchmark, e.metric}, &e);
  std::size_t uncalibrated = 0;
  // Replicates only where the verdict reads them (a bootstrap interval): under the t interval
  // drawing them was most of a comparison's time.
  const int resamples = stats::verdict_resamples(options.verdict);
  const stats::CiMethod interval = stats::interval_of(options.verdict);
  std::vector<std::pair<std::size_t, std::size_t>> exact;        // (metric, row) judged exactly
  std::vector<std::vector<std::vector<std::string>>> row_notes;  // by metric, row
  for (const auto& metric : metrics) {
    MetricComparison mc;
    std::vector<double> thresholds;
    std::vector<std::vector<std::string>> notes;  // per row: its burn-in and calibration
    mc.metric = described(pairs, metric);
    std::vector<stats::Hierarchical> da, db;
    std::vector<stats::RatioSample> samples;
    for (const auto& [va, vb] : pairs) {
      BenchmarkComparison row;
      row.benchmark = va->variant.benchmark;
      if (by_variant) row.variant = va->variant.name;
      row.metric = mc.metric;
      row.simulated =
          is_simulated_metric(metric) && counted_by_simulation(*va) && counted_by_simulation(*vb);
      // The two sides are independent (and on long series steady-state detection dominates).
      // (Through pointers: clang 14 cannot capture structured bindings.)
      const VariantData* side_a = va;
      const VariantData* side_b = vb;
      tbb::parallel_invoke([&] { row.a = extract(*side_a, metric, options.burn_in); },
                           [&] { row.b = extract(*side_b, metric, options.burn_in); });
      std::string burn_in_note;
      const uint64_t seed = stats::derive_seed(options.verdict.seed, mc.rows.size());
      stats::RatioSample sample;
      // A sequential run's looks judged instances, not duet pairs: its row does the same, so
      // that its values match the look's ratio.
      const bool sequential_row = options.sequential != nullptr &&
                                  options.sequential->setup.metric == metric &&
                                  options.sequential->find(row.benchmark) != nullptr;
      // Memory measured per instance has no iterations to pair.
      const bool per_instance = from_instances(*va, metric) || from_instances(*vb, metric);
      if (options.duet && !sequential_row && !per_instance && has_duet_pairs(*va, *vb)) {
        const DuetPairing p = pair_duet(*va, *vb, metric, options.burn_in, options.min_overlap);
        row.duet = DuetSummary{p.runs.size(), p.paired, p.unpaired_a, p.unpaired_b};
        row.a.data = stats::duet_side(p.runs, false);
        row.b.data = stats::duet_side(p.runs, true);
        row.a.detected_burn_in = row.b.detected_burn_in = p.burn_in;
        if (p.paired == 0) {
          report.warnings.push_back(
              fmt::format("{}: {} concurrent pairs, but no iterations overlap by {:.0f}% of each",
                          row.name(), p.runs.size(), 100 * options.min_overlap));
          continue;
        }
        sample = stats::duet_ratio_sample(p.runs, resamples, seed);
      } else {
        burn_in_note = share_burn_in(row.a, row.b);
        if (row.a.data.empty() || row.b.data.empty()) {
          if (row.a.instances_at_floor > 0 || row.b.instances_at_floor > 0) {
            report.warnings.push_back(row.name() + ": " + floor_note(row));
            report.floored.push_back(
                {row.name(), metric, report.warnings.back(),
                 std::max(row.a.launch_floor_bytes, row.b.launch_floor_bytes)});
          } else if (metric == metrics.front() || (!row.a.data.empty() || !row.b.data.empty()))
            report.warnings.push_back(fmt::format("{}: no {} measurements on {} side{}", row.name(),
                                                  metric, row.a.data.empty() ? "the A" : "the B",
                                                  unmeasured_hint(metric)));
          continue;
        }
        sample =
            stats::ratio_sample(row.a.data, row.b.data, options.verdict.statistic, resamples, seed);
      }
      thresholds.push_back(options.verdict.threshold);
      notes.emplace_back();
      if (!burn_in_note.empty()) notes.back().push_back(std::move(burn_in_note));
      if (options.calibration != nullptr) {
        const auto found = calibrated.find({row.benchmark, metric});
        const CalibrationEntry* e = found == calibrated.end() ? nullptr : found->second;
        if (e != nullptr && std::isfinite(e->threshold)) {
          row.calibrated = e;
          thresholds.back() = std::max(thresholds.back(), e->threshold);
          const std::size_t n = std::min(row.a.data.instances(), row.b.data.instances());
          if (e->instances > n)
            notes.back().push_back(fmt::format(
                "calibrated with {} instances a side, compared with {}: A/A changes are larger "
                "with fewer instances, so the calibrated threshold may be too small; calibrate "
                "with the configuration you compare",
                e->instances, n));
        } else {
          ++uncalibrated;
        }
      }
      // Lent to compare_samples below and given back: a sample of millions is not copied.
      da.push_back(std::move(row.a.data));
      db.push_back(std::move(row.b.data));
      samples.push_back(std::move(sample));
      mc.rows.push_back(std::move(row));
    }
    if (mc.rows.empty()) continue;
    auto vo = options.verdict;
    vo.direction = mc.metric.direction;
    auto set = stats::compare_each(da, db, samples, vo, thresholds);
    for (size_t i = 0; i < mc.rows.size(); ++i) {
      mc.rows[i].a.data = std::move(da[i]);
      mc.rows[i].b.data = std::move(db[i]);
      mc.rows[i].result = std::move(set.benchmarks[i]);
      mc.rows[i].p_worse = stats::probability_beyond(samples[i], mc.rows[i].result.threshold,
                                                     mc.metric.direction, interval);
      if (mc.rows[i].simulated && apply_exact(mc.rows[i])) {
        exact.emplace_back(report.metrics.size(), i);
        const auto& r = mc.rows[i].result;
        const bool lower = mc.metric.direction == Direction::kLowerIsBetter;
        mc.rows[i].p_worse =
            (lower ? r.ratio.value > 1 + r.threshold : r.ratio.value < 1 / (1 + r.threshold)) ? 1.0
                                                                                              : 0.0;
      }
      if (options.sequential != nullptr && options.sequential->setup.metric == metric)
        if (const auto* o = options.sequential->find(mc.rows[i].benchmark)) {
          apply_sequential(*options.sequential, *o, mc.rows[i].result);
          mc.rows[i].p_worse = std::numeric_limits<double>::quiet_NaN();  // no distribution
        }
    }
    row_notes.push_back(std::move(notes));
    if (mc.rows.size() > 1) mc.geomean = set.geomean;
    report.metrics.push_back(std::move(mc));
  }
  adjust_across_metrics(report, options.verdict);
  for (std::size_t m = 0; m < report.metrics.size(); ++m)
    for (std::size_t i = 0; i < report.metrics[m].rows.size(); ++i) {
      auto& row = report.metrics[m].rows[i];
      for (auto& note : row_notes[m][i]) row.result.warnings.push_back(std::move(note));
      withhold_unmeasured(row);
    }
  exact_notes(report, exact);
  // First among the notes, where anything was compared: it can be the whole difference.
  if (!in_blocks.empty() && !report.metrics.empty())
    report.warnings.insert(report.warnings.begin(), blocks_note(in_blocks, pairs.size()));
  if (options.calibration != nullptr) {
    const Calibration& c = *options.calibration;
    const std::string statistic = stats::to_string(options.verdict.statistic);
    if (!c.statistic.empty() && c.statistic != statistic)
      report.warnings.push_back(fmt::format(
          "{} calibrated the {} but this comparison uses the {}: calibrate with the same "
          "--statistic",
          c.path, c.statistic, statistic));
    // The other settings of the rule the calibration measured; a file that does not record
    // one (written by an older benchguard) is not checked for it.
    std::vector<std::string> differ;
    const auto differs = [&](const std::string& flag, const std::string& calibrated,
                             const std::string& here) {
      if (!calibrated.empty() && calibrated != here)
        differ.push_back(fmt::format("{} {} (calibrated: {})", flag, here, calibrated));
    };
    differs("--threshold", fmt::format("{:g}%", 100 * c.threshold),
            fmt::format("{:g}%", 100 * options.verdict.threshold));
    differs("--confidence", fmt::format("{:g}", c.confidence),
            fmt::format("{:g}", options.verdict.confidence));
    differs("--burn-in", c.burn_in, to_string(options.burn_in));
    differs("--resamples", c.resamples == 0 ? "" : std::to_string(c.resamples),
            std::to_string(options.verdict.resamples));
    differs("--bootstrap-seed", c.seed, std::to_string(options.verdict.seed));
    if (!differ.empty()) {
      std::string list;
      for (const auto& d : differ) list += (list.empty() ? "" : ", ") + d;
      report.warnings.push_back(fmt::format(
          "{} was calibrated under other settings than this comparison: {}; calibrate with the "
          "same flags for thresholds that hold here",
          c.path, list));
    }
    if (uncalibrated > 0)
      report.warnings.push_back(
          fmt::format("{} has no entry for {} benchmark/metric row(s): their threshold stays at "
                      "{:.3g}%",
                      c.path, uncalibrated, 100 * options.verdict.threshold));
  }
  return report;
}

}  // namespace benchguard::analysis
