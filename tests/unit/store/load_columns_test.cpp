// load_run with LoadOptions::columns: instances of many iterations come back by column, and
// everything analysis reads of them is what it reads of the same run as records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "analysis/duet.hpp"
#include "analysis/samples.hpp"
#include "core/instance_table.hpp"
#include "core/iterations.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

// One instance of `n` iterations with burn-in, a timeout, failures, a metric some iterations
// lack, NaN and a higher-is-better metric.
InstanceRecord instance_of(int index, int n) {
  InstanceRecord in;
  in.index = index;
  in.order = index;
  in.start_ns = 1000;
  in.end_ns = 1000 + 10'000LL * n;
  in.schedule = "duet";
  in.schedule_tag = index % 2 ? "BA" : "AB";
  for (int i = 0; i < n; ++i) {
    IterationRecord it;
    it.index = i;
    it.start_ns = in.start_ns + 10'000LL * i;
    it.end_ns = it.start_ns + 9'000 + 7LL * i;
    it.burn_in = i < 3;
    it.timed_out = i == 11;
    it.failure = i == 11 ? "timed out" : (i % 17 == 5 ? "bad output" : "");
    it.metrics.emplace_back("wall_time", 1e-3 * (1.0 + 0.01 * i) + 1e-6 * index);
    if (i % 4 != 1) it.metrics.emplace_back("ops", i == 20 ? std::nan("") : 1e6 / (1.0 + i));
    in.iterations.push_back(std::move(it));
  }
  return in;
}

RunData run_of(const std::string& uuid, const std::vector<int>& sizes) {
  RunData data;
  data.run = sample_run(uuid, 100);
  data.run.status = "imported";
  VariantData v;
  v.variant = sample_variant("parse", "A");
  for (size_t k = 0; k < sizes.size(); ++k)
    v.instances.push_back(instance_of(static_cast<int>(k), sizes[k]));
  data.variants.push_back(std::move(v));
  return data;
}

void expect_same_reading(const IterationsView& a, const IterationsView& b) {
  ASSERT_EQ(a.size(), b.size());
  // As stored, metrics come back in the order the database first met them.
  auto names_a = a.metric_names(), names_b = b.metric_names();
  std::sort(names_a.begin(), names_a.end());
  std::sort(names_b.begin(), names_b.end());
  EXPECT_EQ(names_a, names_b);
  for (const std::string metric : {"wall_time", "ops", "absent"}) {
    const auto ma = a.metric(metric), mb = b.metric(metric);
    for (size_t k = 0; k < a.size(); ++k) {
      SCOPED_TRACE(metric + " of iteration " + std::to_string(k));
      EXPECT_EQ(a.burn_in(k), b.burn_in(k));
      EXPECT_EQ(a.timed_out(k), b.timed_out(k));
      EXPECT_EQ(a.failed(k), b.failed(k));
      EXPECT_EQ(a.start_ns(k), b.start_ns(k));
      EXPECT_EQ(a.end_ns(k), b.end_ns(k));
      const auto xa = ma.at(k), xb = mb.at(k);
      ASSERT_EQ(xa.has_value(), xb.has_value());
      if (xa) expect_same_double(*xa, *xb, metric);
    }
  }
}

void expect_same_reading(const InstanceRecord& rows, const InstanceRecord& columns) {
  expect_same_reading(IterationsView(rows), IterationsView(columns));
}

TEST(LoadColumns, LargeInstancesComeBackByColumnAndReadTheSame) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  // 31 iterations stay records, 32 and more become columns.
  const RunData run = run_of("00000000-0000-4000-8000-0000000000c1", {200, 31, 32, 0, 90});
  ASSERT_TRUE(store->add_runs({run}, {{"ops", "op/s", Direction::kHigherIsBetter}}).ok());
  auto rows = store->load_run("latest");
  auto columns = store->load_run("latest", {.columns = true});
  ASSERT_TRUE(rows.ok() && columns.ok());
  const auto& ri = rows->variants.at(0).instances;
  const auto& ci = columns->variants.at(0).instances;
  ASSERT_EQ(ci.size(), 5u);
  const bool by_column[] = {true, false, true, false, true};
  for (size_t k = 0; k < ci.size(); ++k) {
    SCOPED_TRACE("instance " + std::to_string(k));
    EXPECT_EQ(ci[k].columns != nullptr, by_column[k]);
    EXPECT_EQ(ci[k].iterations.empty(),
              by_column[k] || run.variants[0].instances[k].iterations.empty());
    EXPECT_EQ(ri[k].columns, nullptr);
    expect_same_reading(ri[k], ci[k]);
    EXPECT_EQ(IterationsView(ri[k]).metric_names(), IterationsView(ci[k]).metric_names());
    expect_same_reading(run.variants[0].instances[k], ci[k]);
  }
  EXPECT_EQ(columns->variants[0].metrics.size(), rows->variants[0].metrics.size());

  // What analysis draws from either form is the same.
  analysis::BurnInPolicy configured, fixed;
  configured.mode = analysis::BurnInPolicy::Mode::kConfigured;
  fixed.mode = analysis::BurnInPolicy::Mode::kFixed;
  fixed.fixed = 7;
  EXPECT_EQ(analysis::metrics_of(rows->variants[0]), analysis::metrics_of(columns->variants[0]));
  for (const auto& policy : {configured, fixed})
    for (const std::string metric : {"wall_time", "ops"}) {
      const auto a = analysis::extract(rows->variants[0], metric, policy);
      const auto b = analysis::extract(columns->variants[0], metric, policy);
      EXPECT_EQ(a.configured_burn_in, b.configured_burn_in);
      ASSERT_EQ(a.series.instances(), b.series.instances());
      for (size_t s = 0; s < a.series.instances(); ++s) {
        ASSERT_EQ(a.series.instance(s).size(), b.series.instance(s).size());
        for (size_t k = 0; k < a.series.instance(s).size(); ++k)
          expect_same_double(a.series.instance(s)[k], b.series.instance(s)[k], metric);
      }
    }
  // A simulated slowdown stretches both forms alike.
  const auto slow_rows = analysis::with_slowdown(rows->variants[0], 0.25, {"wall_time", "ops"});
  const auto slow_columns =
      analysis::with_slowdown(columns->variants[0], 0.25, {"wall_time", "ops"});
  for (size_t k = 0; k < ci.size(); ++k) {
    SCOPED_TRACE("slowed instance " + std::to_string(k));
    expect_same_reading(slow_rows.instances[k], slow_columns.instances[k]);
    EXPECT_EQ(slow_rows.instances[k].end_ns, slow_columns.instances[k].end_ns);
  }
  // The copy is slowed, not the run it was made from.
  EXPECT_EQ(IterationsView(ci[0]).end_ns(0), run.variants[0].instances[0].iterations[0].end_ns);
}

void expect_same_sample(const analysis::MetricSample& a, const analysis::MetricSample& b) {
  EXPECT_EQ(a.instances_ok, b.instances_ok);
  EXPECT_EQ(a.instances_failed, b.instances_failed);
  EXPECT_EQ(a.instances_at_floor, b.instances_at_floor);
  EXPECT_EQ(a.configured_burn_in, b.configured_burn_in);
  EXPECT_EQ(a.detected_burn_in, b.detected_burn_in);
  EXPECT_EQ(a.warnings, b.warnings);
  ASSERT_EQ(a.data.instances(), b.data.instances());
  ASSERT_EQ(std::vector<size_t>(a.data.offsets().begin(), a.data.offsets().end()),
            std::vector<size_t>(b.data.offsets().begin(), b.data.offsets().end()));
  for (size_t k = 0; k < a.data.size(); ++k)
    expect_same_double(a.data.values()[k], b.data.values()[k], a.metric.name);
}

// Two variants whose instances vary in every field a table keeps by column: iteration counts
// (0, 1, many), failures, timeouts, counters and counts on some, CPUs and schedules, memory at the
// launch floor, and instances timed from outside (one with the iteration its own
// measurements make, one with an iteration of its own).
RunData mixed_run() {
  RunData data;
  data.run = sample_run("00000000-0000-4000-8000-0000000000c2", 100);
  data.run.status = "imported";
  for (const char* name : {"A", "B"}) {
    VariantData v;
    v.variant = sample_variant("parse", name);
    const int n = name[0] == 'A' ? 23 : 9;
    for (int k = 0; k < n; ++k) {
      InstanceRecord in = instance_of(k, k % 5 == 0 ? 40 : k % 3);
      in.started_at = 1'700'000'000'000'000'000 + k;
      in.exit_code = k == 4 ? 1 : 0;
      in.failure = k == 4 ? "exit code 1" : "";
      in.signal = k == 6 ? 9 : 0;
      in.timed_out = k == 6;
      in.user_s = 0.01 * (k % 2);
      in.sys_s = 0.002;
      in.max_rss_bytes = 4'000'000 + 1000 * k;
      in.rss_floor_bytes = k == 8 ? 5'000'000 : 0;
      in.mem_peak_bytes = 3'000'000 + 10 * k;
      in.mem_avg_bytes = 2.5e6;
      in.mem_samples = k == 8 ? 0 : 3;
      if (k % 4 == 0) in.instructions = 1'000'000 + k;
      if (k == 2) in.cycles = 777;
      // Counts on some, as many and as few as they come, timed from outside among them.
      if (k % 4 == 0) in.counts = {{"l1_misses", 10 + k}, {"estimated_cycles", 5'000'000 + k}};
      if (k == 10) in.counts = {{"branch_misses", 3}};
      in.cpus = k % 2 ? "0" : "1";
      in.schedule = k % 7 == 0 ? "alternate" : "duet";
      if (k == 10 || k == 12) {
        in.timed_outside = true;
        in.iterations.clear();
        if (k == 12) {
          IterationRecord it = outside_iteration(in);
          it.end_ns -= 5;  // not what its instance's times give
          in.iterations.push_back(it);
        }
      }
      v.instances.push_back(std::move(in));
    }
    data.variants.push_back(std::move(v));
  }
  return data;
}

TEST(LoadColumns, InstanceTablesReadAsTheRecordsTheyHold) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->add_runs({mixed_run()}, {{"ops", "op/s", Direction::kHigherIsBetter}}).ok());
  auto rows = store->load_run("latest");
  ASSERT_TRUE(rows.ok());
  // Slices of 1, 5 and 7 ids cut the run everywhere; one slice holds it whole.
  for (const int64_t slice : {1, 5, 7, 65536}) {
    SCOPED_TRACE("slices of " + std::to_string(slice) + " ids");
    auto tables = store->load_run("latest", {.instance_table = true, .table_slice = slice});
    ASSERT_TRUE(tables.ok());
    ASSERT_EQ(tables->variants.size(), rows->variants.size());
    for (size_t v = 0; v < rows->variants.size(); ++v) {
      const VariantData& r = rows->variants[v];
      const VariantData& t = tables->variants[v];
      ASSERT_NE(t.table, nullptr);
      EXPECT_TRUE(t.instances.empty());
      ASSERT_EQ(instance_count(t), r.instances.size());
      std::vector<std::string> names_r, names_t;
      for (const auto& m : r.metrics) names_r.push_back(m.name);
      for (const auto& m : t.metrics) names_t.push_back(m.name);
      EXPECT_EQ(names_r, names_t);
      size_t k = 0;
      for_each_instance(t, [&](const InstanceRecord& in, const IterationsView& its) {
        SCOPED_TRACE("variant " + std::to_string(v) + " instance " + std::to_string(k));
        expect_same_fields(r.instances[k], in);
        expect_same_reading(IterationsView(r.instances[k]), its);
        ++k;
      });
      EXPECT_EQ(k, r.instances.size());
      // As records again (what duet pairing and a simulated slowdown need).
      const VariantData back = with_records(t);
      ASSERT_EQ(back.instances.size(), r.instances.size());
      for (size_t i = 0; i < r.instances.size(); ++i) {
        SCOPED_TRACE("record of instance " + std::to_string(i));
        expect_same_fields(r.instances[i], back.instances[i]);
        expect_same_reading(r.instances[i], back.instances[i]);
      }
      // What analysis makes of either form.
      EXPECT_EQ(analysis::metrics_of(r), analysis::metrics_of(t));
      for (const std::string& metric : analysis::metrics_of(r)) {
        SCOPED_TRACE(metric);
        EXPECT_EQ(analysis::from_instances(r, metric), analysis::from_instances(t, metric));
        for (const auto mode :
             {analysis::BurnInPolicy::Mode::kAuto, analysis::BurnInPolicy::Mode::kFixed}) {
          const analysis::BurnInPolicy policy{mode, 2};
          expect_same_sample(analysis::extract(r, metric, policy),
                             analysis::extract(t, metric, policy));
        }
      }
    }
    const auto& [ra, rb] = std::pair(&rows->variants[0], &rows->variants[1]);
    const auto& [ta, tb] = std::pair(&tables->variants[0], &tables->variants[1]);
    EXPECT_EQ(analysis::has_duet_pairs(*ra, *rb), analysis::has_duet_pairs(*ta, *tb));
    EXPECT_TRUE(analysis::has_duet_pairs(*ta, *tb));
    const auto pr = analysis::pair_duet(*ra, *rb, "wall_time", {});
    const auto pt = analysis::pair_duet(*ta, *tb, "wall_time", {});
    ASSERT_EQ(pr.runs.size(), pt.runs.size());
    EXPECT_EQ(pr.paired, pt.paired);
    for (size_t i = 0; i < pr.runs.size(); ++i) {
      EXPECT_EQ(pr.runs[i].a, pt.runs[i].a);
      EXPECT_EQ(pr.runs[i].b, pt.runs[i].b);
    }
    const auto slow_rows = analysis::with_slowdown(*ra, 0.1, {"wall_time"});
    const auto slow_table = analysis::with_slowdown(*ta, 0.1, {"wall_time"});
    ASSERT_EQ(slow_rows.instances.size(), slow_table.instances.size());
    for (size_t i = 0; i < slow_rows.instances.size(); ++i)
      expect_same_reading(slow_rows.instances[i], slow_table.instances[i]);
  }
}

TEST(InstanceTable, KeepsAColumnOnceWhileEveryInstanceHasOneValue) {
  UniformColumn<double> c;
  for (int i = 0; i < 1000; ++i) c.push_back(std::nan(""));
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_TRUE(c.compact());
  EXPECT_EQ(c.bytes(), 0u);
  EXPECT_TRUE(std::isnan(c[999]));
  c.push_back(-0.0);  // a different value bit for bit: the column now holds each
  c.push_back(0.0);
  EXPECT_FALSE(c.compact());
  EXPECT_TRUE(std::isnan(c[0]) && std::isnan(c[999]));
  EXPECT_TRUE(std::signbit(c[1000]));
  EXPECT_FALSE(std::signbit(c[1001]));
  // Integers in a progression, even one that wraps, are a formula until one is off it.
  UniformColumn<int64_t> steps;
  for (uint64_t i = 0; i < 100; ++i)
    steps.push_back(static_cast<int64_t>(static_cast<uint64_t>(INT64_MAX - 3) + 7 * i));
  EXPECT_TRUE(steps.compact());
  EXPECT_EQ(steps[0], INT64_MAX - 3);
  EXPECT_EQ(steps[1], INT64_MIN + 3);
  steps.push_back(5);
  EXPECT_FALSE(steps.compact());
  EXPECT_EQ(steps[1], INT64_MIN + 3);
  EXPECT_EQ(steps[99], steps[1] + 7 * 98);
  EXPECT_EQ(steps[100], 5);
  // A million instances of one iteration, as an import gives them: the table holds what
  // varies (times, the value), not a record each.
  InstanceTable table;
  table.reserve(1'000'000);
  InstanceRecord in;
  in.exit_code = 0;
  in.iterations.resize(1);
  in.iterations[0].metrics.emplace_back("wall_time", 0.0);
  for (int i = 0; i < 1'000'000; ++i) {
    in.index = i;
    in.order = i;
    in.start_ns = 10LL * i;
    in.end_ns = 10LL * i + 9;
    in.iterations[0].start_ns = in.start_ns;
    in.iterations[0].end_ns = in.end_ns;
    in.iterations[0].metrics[0].second = 1e-3 + 1e-9 * i;
    table.push_back(in);
  }
  table.shrink_to_fit();
  // Instance and iteration times (10 i and 10 i + 9 are progressions; the iteration's two
  // are kept as they are, 16 bytes) and the value, 8: 24 bytes.
  EXPECT_LE(table.bytes(), 25u * 1'000'000);
  InstanceRecord out;
  table.read(654'321, out);
  const IterationsView its = table.iterations(654'321, out);
  EXPECT_EQ(out.order, 654'321);
  ASSERT_EQ(its.size(), 1u);
  EXPECT_EQ(its.metric("wall_time").at(0), 1e-3 + 1e-9 * 654'321);
}

}  // namespace
}  // namespace benchguard::store
