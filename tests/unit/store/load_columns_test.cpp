// load_run with LoadOptions::columns: instances of many iterations come back by column, and
// everything analysis reads of them is what it reads of the same run as records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "analysis/duet.hpp"
#include "analysis/samples.hpp"
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

void expect_same_reading(const InstanceRecord& rows, const InstanceRecord& columns) {
  const IterationsView a(rows), b(columns);
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
      ASSERT_EQ(a.series.size(), b.series.size());
      for (size_t s = 0; s < a.series.size(); ++s) {
        ASSERT_EQ(a.series[s].size(), b.series[s].size());
        for (size_t k = 0; k < a.series[s].size(); ++k)
          expect_same_double(a.series[s][k], b.series[s][k], metric);
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

}  // namespace
}  // namespace benchguard::store
