#include "analysis/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace benchguard::analysis {
namespace {

// n instances x m iterations around `mean`, with 2% instance offsets and 1% iteration noise.
VariantData synthetic(const std::string& benchmark, double mean, int n, int m, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> inst(0, 0.02), iter(0, 0.01);
  VariantData v;
  v.variant.benchmark = benchmark;
  for (int i = 0; i < n; ++i) {
    InstanceRecord rec;
    const double offset = 1 + inst(rng);
    for (int k = 0; k < m; ++k) {
      IterationRecord it;
      it.index = k;
      it.metrics = {{"wall_time", mean * offset * (1 + iter(rng))},
                    {"throughput", 1 / (mean * offset)}};
      rec.iterations.push_back(it);
    }
    v.instances.push_back(rec);
  }
  return v;
}

CompareOptions quick_compare_options() {
  CompareOptions o;
  o.verdict.resamples = 2000;
  o.verdict.seed = 7;
  return o;
}

TEST(AnalysisCompare, ClearSlowdownIsSlowerAndTheGeomeanCoversBoth) {
  const auto a1 = synthetic("x", 1.0, 10, 10, 1), b1 = synthetic("x", 1.2, 10, 10, 2);
  const auto a2 = synthetic("y", 2.0, 10, 10, 3), b2 = synthetic("y", 2.0, 10, 10, 4);
  Side a{"A", {&a1, &a2}}, b{"B", {&b1, &b2}};
  const auto r = compare_sides(a, b, quick_compare_options());
  ASSERT_EQ(r.metrics.size(), 1u);
  const auto& rows = r.metrics[0].rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].result.verdict, stats::Verdict::kSlower);
  EXPECT_TRUE(rows[0].result.ratio.ci.contains(1.2));
  EXPECT_NE(rows[1].result.verdict, stats::Verdict::kSlower);
  EXPECT_NE(rows[1].result.verdict, stats::Verdict::kFaster);
  // sqrt(1.2 * 1.0)
  EXPECT_NEAR(r.metrics[0].geomean.value, std::sqrt(1.2), 0.02);
  EXPECT_TRUE(r.any(stats::Verdict::kSlower));
}

TEST(AnalysisCompare, HigherIsBetterMetricsTurnTheVerdictAround) {
  const auto a1 = synthetic("x", 1.0, 10, 10, 1), b1 = synthetic("x", 1.2, 10, 10, 2);
  Side a{"A", {&a1}}, b{"B", {&b1}};
  auto o = quick_compare_options();
  o.metrics = {"throughput"};
  const auto r = compare_sides(a, b, o);
  ASSERT_EQ(r.metrics.size(), 1u);
  // B's throughput is lower: that is the regression.
  EXPECT_LT(r.metrics[0].rows[0].result.ratio.value, 1);
  EXPECT_EQ(r.metrics[0].rows[0].result.verdict, stats::Verdict::kSlower);
}

TEST(AnalysisCompare, ACustomMetricTakesTheDirectionTheStoreHolds) {
  // An imported rate (items_per_second) is higher-is-better; a custom metric the store does
  // not describe stays lower-is-better.
  auto rename = [](VariantData v, const std::string& to) {
    for (auto& in : v.instances)
      for (auto& it : in.iterations) it.metrics[1].first = to;
    return v;
  };
  for (const bool described : {true, false}) {
    SCOPED_TRACE(described ? "described as higher-is-better" : "not described");
    auto a1 = rename(synthetic("x", 1.0, 10, 10, 1), "items_per_second");
    auto b1 = rename(synthetic("x", 1.2, 10, 10, 2), "items_per_second");
    if (described) {
      a1.metrics = b1.metrics = {{"items_per_second", "1/s", Direction::kHigherIsBetter}};
    }
    Side a{"A", {&a1}}, b{"B", {&b1}};
    auto o = quick_compare_options();
    o.metrics = {"items_per_second"};
    const auto r = compare_sides(a, b, o);
    ASSERT_EQ(r.metrics.size(), 1u);
    EXPECT_EQ(r.metrics[0].metric.direction,
              described ? Direction::kHigherIsBetter : Direction::kLowerIsBetter);
    // B's rate is lower: slower when higher is better, faster otherwise.
    EXPECT_EQ(r.metrics[0].rows.at(0).result.verdict,
              described ? stats::Verdict::kSlower : stats::Verdict::kFaster);
    EXPECT_EQ(r.metrics[0].rows.at(0).a.metric.direction, r.metrics[0].metric.direction);
  }
}

// The description comes from a benchmark that has the metric, not from the first one: a
// first benchmark without the rate must not make it lower-is-better for the others.
TEST(AnalysisCompare, AMetricIsDescribedByTheBenchmarksThatReportIt) {
  auto time_only = [](VariantData v) {
    for (auto& in : v.instances)
      for (auto& it : in.iterations) it.metrics.resize(1);
    return v;
  };
  auto rate = [](VariantData v) {
    for (auto& in : v.instances)
      for (auto& it : in.iterations) it.metrics[1].first = "items_per_second";
    v.metrics = {{"items_per_second", "1/s", Direction::kHigherIsBetter}};
    return v;
  };
  const auto a1 = time_only(synthetic("first", 1.0, 10, 10, 1));
  const auto b1 = time_only(synthetic("first", 1.0, 10, 10, 2));
  const auto a2 = rate(synthetic("second", 1.0, 10, 10, 3));
  const auto b2 = rate(synthetic("second", 1.2, 10, 10, 4));
  Side a{"A", {&a1, &a2}}, b{"B", {&b1, &b2}};
  auto o = quick_compare_options();
  o.metrics = {"items_per_second"};
  const auto r = compare_sides(a, b, o);
  ASSERT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics[0].metric.unit, "1/s");
  EXPECT_EQ(r.metrics[0].metric.direction, Direction::kHigherIsBetter);
  ASSERT_EQ(r.metrics[0].rows.size(), 1u);
  EXPECT_EQ(r.metrics[0].rows[0].result.verdict, stats::Verdict::kSlower);  // the rate fell
}

TEST(AnalysisCompare, UnmatchedBenchmarksAreReported) {
  const auto a1 = synthetic("x", 1.0, 5, 5, 1), a2 = synthetic("only-a", 1.0, 5, 5, 2);
  const auto b1 = synthetic("x", 1.0, 5, 5, 3), b2 = synthetic("only-b", 1.0, 5, 5, 4);
  Side a{"A", {&a1, &a2}}, b{"B", {&b1, &b2}};
  const auto r = compare_sides(a, b, quick_compare_options());
  EXPECT_EQ(r.only_in_a, std::vector<std::string>{"only-a"});
  EXPECT_EQ(r.only_in_b, std::vector<std::string>{"only-b"});
  EXPECT_EQ(r.metrics[0].rows.size(), 1u);
}

// Two runs of a suite with two variants per benchmark: each variant is compared with its
// namesake, the rows say which, and a variant on one side only is listed with its name; the
// probability the dashboard's heat map shows is read from the row's own interval.
TEST(AnalysisCompare, ByVariantPairsEachVariantWithItsNamesake) {
  auto named = [](VariantData v, const std::string& name) {
    v.variant.name = name;
    return v;
  };
  const auto a_old = named(synthetic("x", 1.0, 8, 8, 1), "old");
  const auto a_new = named(synthetic("x", 2.0, 8, 8, 2), "new");
  const auto a_gone = named(synthetic("x", 1.0, 8, 8, 3), "gone");
  const auto b_old = named(synthetic("x", 1.0, 8, 8, 4), "old");
  const auto b_new = named(synthetic("x", 2.4, 8, 8, 5), "new");
  Side a{"A", {&a_old, &a_new, &a_gone}}, b{"B", {&b_old, &b_new}};
  auto o = quick_compare_options();
  o.by_variant = true;
  const auto r = compare_sides(a, b, o);
  ASSERT_EQ(r.metrics.size(), 1u);
  const auto& rows = r.metrics[0].rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].variant, "old");
  EXPECT_EQ(rows[0].name(), "x [old]");
  EXPECT_EQ(rows[1].variant, "new");
  // Each side's value is its own variant's: B of "new" is not B of "old".
  EXPECT_NEAR(rows[0].result.ratio.value, 1.0, 0.05);
  EXPECT_NEAR(rows[1].result.ratio.value, 1.2, 0.05);
  EXPECT_NEAR(rows[0].result.value_b, 1.0, 0.05);
  EXPECT_NEAR(rows[1].result.value_b, 2.4, 0.1);
  EXPECT_EQ(rows[1].result.verdict, stats::Verdict::kSlower);
  EXPECT_EQ(r.only_in_a, std::vector<std::string>{"x [gone]"});
  EXPECT_TRUE(r.only_in_b.empty());
  // The row's P(worse beyond the threshold) is that of its interval: above 0.975 exactly when
  // the interval's lower end lies beyond 1 + threshold.
  for (const auto& row : rows) {
    ASSERT_TRUE(std::isfinite(row.p_worse)) << row.name();
    EXPECT_EQ(row.p_worse > 0.975, row.result.ratio.ci.lower > 1 + row.result.threshold)
        << row.name() << " " << row.p_worse << " " << row.result.ratio.ci.lower;
  }
  EXPECT_GT(rows[1].p_worse, 0.975);
  EXPECT_LT(rows[0].p_worse, 0.5);

  // Without it, as before: the first variant of each benchmark on each side, no name.
  Side a1{"A", {&a_new}}, b1{"B", {&b_old}};
  const auto plain = compare_sides(a1, b1, quick_compare_options());
  ASSERT_EQ(plain.metrics[0].rows.size(), 1u);
  EXPECT_EQ(plain.metrics[0].rows[0].variant, "");
  EXPECT_EQ(plain.metrics[0].rows[0].name(), "x");
  EXPECT_NEAR(plain.metrics[0].rows[0].result.ratio.value, 0.5, 0.03);
}

// variant_side keeps one variant per benchmark, the named one; variant_names lists them in
// the order met.
TEST(AnalysisCompare, VariantSidePicksTheNamedVariantOfEachBenchmark) {
  RunData run;
  for (const char* b : {"x", "y"})
    for (const char* n : {"a", "b"}) {
      auto v = synthetic(b, 1.0, 2, 2, 1);
      v.variant.name = n;
      run.variants.push_back(std::move(v));
    }
  EXPECT_EQ(variant_names(run), (std::vector<std::string>{"a", "b"}));
  const Side b = variant_side(run, "b", "B");
  ASSERT_EQ(b.variants.size(), 2u);
  EXPECT_EQ(b.variants[0]->variant.name, "b");
  EXPECT_EQ(b.variants[1]->variant.benchmark, "y");
  const Side first = variant_side(run, "", "A");
  ASSERT_EQ(first.variants.size(), 2u);
  EXPECT_EQ(first.variants[0]->variant.name, "a");
}

// Two runs as `compare RUN RUN` puts them on its sides: every variant, paired by name, when they
// share a variant name; the first of each, said in a note, when they share none; one a side
// when named.
TEST(AnalysisCompare, RunSidesPairVariantsByNameOrSayWhatTheyChose) {
  const auto run_of = [](std::vector<std::string> names) {
    RunData run;
    for (const char* b : {"x", "y"})
      for (const auto& n : names) {
        auto v = synthetic(b, 1.0, 2, 2, 1);
        v.variant.name = n;
        run.variants.push_back(std::move(v));
      }
    return run;
  };
  const RunData one = run_of({"a", "b"}), two = run_of({"a", "b"}), other = run_of({"c", "d"});
  const RunSides same = run_sides(one, two, "1", "2");
  EXPECT_TRUE(same.by_variant);
  EXPECT_EQ(same.a.variants.size(), 4u);
  EXPECT_EQ(same.b.variants.size(), 4u);
  EXPECT_TRUE(same.notes.empty());
  const RunSides none = run_sides(one, other, "1", "3");
  EXPECT_FALSE(none.by_variant);
  ASSERT_EQ(none.a.variants.size(), 2u);
  EXPECT_EQ(none.a.variants[0]->variant.name, "a");
  EXPECT_EQ(none.b.variants[0]->variant.name, "c");
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_NE(none.notes[0].find("share no name"), std::string::npos) << none.notes[0];
  EXPECT_NE(none.notes[0].find("'a' of A with 'c' of B"), std::string::npos) << none.notes[0];
  const RunSides named = run_sides(one, other, "1", "3", "b", "d");
  EXPECT_FALSE(named.by_variant);
  EXPECT_TRUE(named.notes.empty());
  ASSERT_EQ(named.b.variants.size(), 2u);
  EXPECT_EQ(named.b.variants[1]->variant.name, "d");
  // One variant a side: paired by benchmark whatever their names, as always.
  const RunData plain = run_of({"default"}), renamed = run_of({"new"});
  const RunSides single = run_sides(plain, renamed, "1", "2");
  EXPECT_FALSE(single.by_variant);
  EXPECT_TRUE(single.notes.empty());
}

TEST(AnalysisCompare, SimulatedSlowdownScalesB) {
  const auto a1 = synthetic("x", 1.0, 10, 10, 1), b1 = synthetic("x", 1.0, 10, 10, 2);
  Side a{"A", {&a1}}, b{"B", {&b1}};
  auto o = quick_compare_options();
  const double base = compare_sides(a, b, o).metrics[0].rows[0].result.ratio.value;
  o.simulate_slowdown = 0.10;
  const auto r = compare_sides(a, b, o);
  EXPECT_NEAR(r.metrics[0].rows[0].result.ratio.value, base * 1.10, 1e-9);
  EXPECT_EQ(r.metrics[0].rows[0].result.verdict, stats::Verdict::kSlower);
}

TEST(AnalysisCompare, SameSeedSameAnswer) {
  const auto a1 = synthetic("x", 1.0, 6, 8, 1), b1 = synthetic("x", 1.01, 6, 8, 2);
  Side a{"A", {&a1}}, b{"B", {&b1}};
  const auto r1 = compare_sides(a, b, quick_compare_options());
  const auto r2 = compare_sides(a, b, quick_compare_options());
  EXPECT_EQ(r1.metrics[0].rows[0].result.ratio.ci.lower,
            r2.metrics[0].rows[0].result.ratio.ci.lower);
  EXPECT_EQ(r1.metrics[0].rows[0].result.ratio.ci.upper,
            r2.metrics[0].rows[0].result.ratio.ci.upper);
}

// One metric, one value per instance, timed from outside.
VariantData outside(const std::string& metric, std::vector<double> values) {
  VariantData v;
  v.variant.benchmark = "x";
  for (double x : values) {
    InstanceRecord rec;
    rec.timed_outside = true;
    IterationRecord it;
    it.metrics = {{metric, x}};
    rec.iterations.push_back(it);
    v.instances.push_back(rec);
  }
  return v;
}

const BenchmarkComparison& only_row(const CompareReport& r) {
  EXPECT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics.at(0).rows.size(), 1u);
  return r.metrics.at(0).rows.at(0);
}

// Two metrics a value per instance, timed from outside: wall_time and a benchmark's own
// "items".
VariantData two_metrics(const std::vector<double>& wall, const std::vector<double>& items) {
  VariantData v;
  v.variant.benchmark = "x";
  for (std::size_t i = 0; i < wall.size(); ++i) {
    InstanceRecord rec;
    rec.timed_outside = true;
    IterationRecord it;
    it.metrics = {{"wall_time", wall[i]}, {"items", items[i]}};
    rec.iterations.push_back(it);
    v.instances.push_back(rec);
  }
  return v;
}

// Holm's family is every row of every metric compared: a wall-time change significant alone
// (p about 0.028) is slower when wall time is the only metric, and inconclusive, saying why,
// beside a second metric that did not move (Holm's first step needs p < 0.05 / 2).
TEST(AnalysisCompare, HolmsFamilySpansTheMetricsCompared) {
  const std::vector<double> wall_a = {1.00, 1.02, 0.98, 1.01, 0.99};
  std::vector<double> wall_b;
  for (const double x : wall_a) wall_b.push_back(x + 0.0265);
  const auto va = two_metrics(wall_a, {5, 6, 5, 6, 5});
  const auto vb = two_metrics(wall_b, {6, 5, 6, 5, 5});
  Side a{"A", {&va}}, b{"B", {&vb}};
  auto o = quick_compare_options();
  o.verdict.statistic = stats::Statistic::kMean;  // no tails to test: the family is the two centres
  o.metrics = {"wall_time"};
  const auto alone = only_row(compare_sides(a, b, o)).result;
  EXPECT_EQ(alone.verdict, stats::Verdict::kSlower);
  EXPECT_GT(alone.p_value_bootstrap, 0.025);
  EXPECT_LT(alone.p_value_bootstrap, 0.05);

  o.metrics = {"wall_time", "items"};
  const auto both = compare_sides(a, b, o);
  ASSERT_EQ(both.metrics.size(), 2u);
  const auto& wall = both.metrics[0].rows.at(0).result;
  EXPECT_EQ(wall.verdict, stats::Verdict::kInconclusive);
  EXPECT_DOUBLE_EQ(wall.p_value_bootstrap, alone.p_value_bootstrap);
  EXPECT_DOUBLE_EQ(wall.p_value_bootstrap_adjusted, 2 * alone.p_value_bootstrap);
  const bool says_why = std::any_of(wall.warnings.begin(), wall.warnings.end(), [](auto& w) {
    return w.find("Holm's adjustment over 2 rows of 2 metrics") != std::string::npos;
  });
  EXPECT_TRUE(says_why) << ::testing::PrintToString(wall.warnings);
  EXPECT_NE(both.metrics[1].rows.at(0).result.verdict, stats::Verdict::kSlower);
}

TEST(AnalysisCompare, CpuTimeAtTheClocksResolutionGetsNoVerdict) {
  auto o = quick_compare_options();
  o.metrics = {"sys_time"};
  // Mostly 0 s, one or two ticks: the figure is the tick's, however the ratio falls.
  const auto a = outside("sys_time", {0, 0, 0, 0.004, 0, 0});
  const auto b = outside("sys_time", {0.004, 0, 0.004, 0, 0.004, 0});
  const auto r = compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o);
  const auto& row = only_row(r);
  EXPECT_EQ(row.result.verdict, stats::Verdict::kInconclusive);
  ASSERT_FALSE(row.result.warnings.empty());
  EXPECT_NE(row.result.warnings.back().find("sys_time is 0 in 5 of 6 A and 3 of 6 B values"),
            std::string::npos)
      << row.result.warnings.back();
  // One 0 among ten ticks is the tick's sampling: the verdict stands.
  const auto c = outside("sys_time", {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1});
  const auto d = outside("sys_time", {0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0});
  const auto r2 = compare_sides(Side{"A", {&c}}, Side{"B", {&d}}, o);
  EXPECT_EQ(only_row(r2).result.verdict, stats::Verdict::kSlower);
  // Ticks are CPU times' alone: a benchmark's own count that is 0 on both sides (nothing
  // spilled) is unchanged, with no note about resolution.
  o.metrics = {"spilled_bytes"};
  const auto e = outside("spilled_bytes", {0, 0, 0, 0, 0});
  const auto f = outside("spilled_bytes", {0, 0, 0, 0, 0});
  const auto r3 = compare_sides(Side{"A", {&e}}, Side{"B", {&f}}, o);
  const auto& zero = only_row(r3);
  EXPECT_EQ(zero.result.verdict, stats::Verdict::kUnchanged);
  for (const auto& w : zero.result.warnings)
    EXPECT_EQ(w.find("below what it resolves"), std::string::npos) << w;
}

TEST(AnalysisCompare, MemoryAtTheLaunchFloorGetsNoVerdict) {
  // B's instances are sampled and larger; two of A's ended before a sample, at the floor.
  constexpr int64_t kMiB = 1 << 20;
  auto side = [&](std::vector<std::pair<double, bool>> peaks) {
    VariantData v;
    v.variant.benchmark = "x";
    for (const auto& [mib, floor] : peaks) {
      InstanceRecord rec;
      rec.timed_outside = true;
      rec.rss_floor_bytes = 17 * kMiB;
      rec.max_rss_bytes = floor ? 17 * kMiB : static_cast<int64_t>(mib * kMiB);
      rec.mem_peak_bytes = rec.max_rss_bytes;
      rec.mem_samples = floor ? 0 : 4;
      rec.iterations.push_back(outside_iteration(rec));
      v.instances.push_back(rec);
    }
    return v;
  };
  auto o = quick_compare_options();
  o.metrics = {"peak_memory"};
  const auto a = side({{4, false}, {4.1, false}, {0, true}, {0, true}, {4, false}});
  const auto b = side({{5, false}, {5.1, false}, {5, false}, {5.05, false}, {5, false}});
  const auto report = compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o);
  const auto& mixed = only_row(report);
  EXPECT_EQ(mixed.a.data.instances(), 3u);  // the floor values are left out
  EXPECT_EQ(mixed.result.verdict, stats::Verdict::kInconclusive);
  ASSERT_FALSE(mixed.result.warnings.empty());
  EXPECT_NE(mixed.result.warnings.back().find("2 of 5 A and 0 of 5 B instances ended before"),
            std::string::npos)
      << mixed.result.warnings.back();
  // Without the floor values, B is slower.
  const auto a3 = side({{4, false}, {4.1, false}, {4, false}, {4.05, false}, {4, false}});
  const auto clean = compare_sides(Side{"A", {&a3}}, Side{"B", {&b}}, o);
  EXPECT_EQ(only_row(clean).result.verdict, stats::Verdict::kSlower);
  // Every value at the floor: no row, and a warning that says why.
  const auto fa = side({{0, true}, {0, true}, {0, true}});
  const auto fb = side({{0, true}, {0, true}, {0, true}});
  const auto none = compare_sides(Side{"A", {&fa}}, Side{"B", {&fb}}, o);
  EXPECT_TRUE(none.metrics.empty());
  ASSERT_EQ(none.warnings.size(), 1u);
  EXPECT_NE(none.warnings[0].find("x: 3 of 3 A and 3 of 3 B instances ended before their memory "
                                  "was sampled"),
            std::string::npos)
      << none.warnings[0];
}

// Instances counted under Valgrind: instruction counts in the instances' columns.
VariantData simulated(std::vector<int64_t> counts) {
  VariantData v;
  v.variant.benchmark = "x";
  v.variant.config_json = R"({"instances":1,"measure":["instructions"]})";
  for (int64_t c : counts) {
    InstanceRecord rec;
    rec.timed_outside = true;
    rec.instructions = c;
    rec.iterations.push_back(outside_iteration(rec));
    v.instances.push_back(rec);
  }
  return v;
}

TEST(AnalysisCompare, SimulatedCountsAreExactWithOneInstanceASide) {
  auto o = quick_compare_options();
  o.verdict.threshold = 0.0025;
  const auto a = simulated({1'000'000}), b = simulated({1'005'000});
  const auto r = compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o);
  ASSERT_FALSE(r.metrics.empty());
  EXPECT_EQ(r.metrics[0].metric.name, "instructions");  // the default selection leads with it
  const auto& row = r.metrics[0].rows.at(0);
  EXPECT_TRUE(row.simulated);
  EXPECT_DOUBLE_EQ(row.result.ratio.value, 1.005);
  EXPECT_DOUBLE_EQ(row.result.ratio.ci.lower, 1.005);
  EXPECT_DOUBLE_EQ(row.result.ratio.ci.upper, 1.005);
  EXPECT_EQ(row.result.verdict, stats::Verdict::kSlower);
  ASSERT_EQ(row.result.warnings.size(), 1u);
  EXPECT_NE(row.result.warnings[0].find("exact"), std::string::npos);
  // Below the threshold: unchanged, exactly.
  o.verdict.threshold = 0.01;
  EXPECT_EQ(compare_sides(Side{"A", {&a}}, Side{"B", {&b}}, o).metrics[0].rows[0].result.verdict,
            stats::Verdict::kUnchanged);
  // A spread of a few counts in a million is still one count: the interval spans it.
  const auto a2 = simulated({1'000'000, 1'000'017}), b2 = simulated({1'005'000, 1'005'003});
  o.verdict.threshold = 0.0025;
  const auto r2 = compare_sides(Side{"A", {&a2}}, Side{"B", {&b2}}, o);
  const auto& ci = r2.metrics[0].rows[0].result.ratio.ci;
  EXPECT_DOUBLE_EQ(ci.lower, 1'005'000.0 / 1'000'017);
  EXPECT_DOUBLE_EQ(ci.upper, 1'005'003.0 / 1'000'000);
  EXPECT_EQ(r2.metrics[0].rows[0].result.verdict, stats::Verdict::kSlower);
  // Counts that move by 1% between instances are no exact figure: the usual rule, and a note.
  const auto a3 = simulated({1'000'000, 1'010'000}), b3 = simulated({1'005'000, 1'015'000});
  const auto r3 = compare_sides(Side{"A", {&a3}}, Side{"B", {&b3}}, o);
  const auto& w = r3.metrics[0].rows[0].result.warnings;
  EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) {
    return s.find("differ between instances") != std::string::npos;
  }));
  // Hardware-counter instructions (no Valgrind in the configuration) are never exact.
  auto hw_a = a, hw_b = b;
  hw_a.variant.config_json = hw_b.variant.config_json = "{}";
  o.metrics = {"instructions"};
  const auto r4 = compare_sides(Side{"A", {&hw_a}}, Side{"B", {&hw_b}}, o);
  EXPECT_FALSE(r4.metrics[0].rows[0].simulated);
  EXPECT_NE(r4.metrics[0].rows[0].result.verdict, stats::Verdict::kSlower);
}

}  // namespace
}  // namespace benchguard::analysis
