// The series cache (src/analysis/series_cache.hpp, docs/store.md): history read from the
// runs' cache entries is history read from their instances, bit for bit, over runs of every
// kind a store holds; entries follow the runs through prune; `db check` finds an entry that
// is damaged or that its run no longer gives; a malformed entry is never trusted.
#include "analysis/series_cache.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/detection.hpp"
#include "analysis/history_load.hpp"
#include "ingest/ingest.hpp"
#include "store/checksum.hpp"
#include "store/store.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::analysis {
namespace {

using benchguard::testing::TempDir;

constexpr int kCachedCommits = 12;

// Runs of every kind history reads: a commit history of 3 benchmarks (3 instances of 12
// iterations, the first 2 flagged burn-in in odd commits: long enough for steady-state
// detection), two runs of one commit, a variant counted under Valgrind, a variant with failed
// instances, timed-out iterations, a custom metric and instance-level memory, imported runs
// (timed from outside, summaries only, higher-is-better rates), and runs history leaves out
// (a probe run, an interrupted run).
std::vector<RunData> varied_runs(std::vector<MetricInfo>& metrics) {
  std::vector<RunData> runs;
  for (int k = 0; k < kCachedCommits; ++k) {
    RunData r = benchguard::testing::history_run(k, kCachedCommits, 3, 3, 12, false);
    for (auto& v : r.variants)
      for (auto& in : v.instances)
        for (auto& it : in.iterations) it.burn_in = k % 2 == 1 && it.index < 2;
    // bench/0000 ran cold before commit 6 and warm from it: its settings differ.
    for (auto& v : r.variants)
      v.variant.config_json = fmt::format(R"({{"instances":3,"iterations":12,"warmup":{}}})",
                                          v.variant.benchmark == "bench/0000" && k >= 6 ? 1 : 0);
    if (k == 4) {
      VariantData sim;
      sim.variant.benchmark = "counted";
      sim.variant.name = "default";
      sim.variant.config_json = R"({"measure":["instructions"]})";
      for (int i = 0; i < 3; ++i) {
        InstanceRecord in = store::testing::sample_instance(2 * i, 1);
        in.instructions = 1'000'000 + i;
        sim.instances.push_back(std::move(in));
      }
      r.variants.push_back(std::move(sim));
      VariantData mixed;
      mixed.variant.benchmark = "mixed";
      mixed.variant.name = "fast";
      for (int i = 0; i < 5; ++i) mixed.instances.push_back(store::testing::sample_instance(i, 3));
      r.variants.push_back(std::move(mixed));
    }
    runs.push_back(std::move(r));
  }
  // A second run of commit 6, an hour after the first.
  RunData again = benchguard::testing::history_run(6, kCachedCommits, 3, 3, 12, false);
  again.run.uuid = "00000000-0000-4000-8000-0000000000ff";
  again.run.started_at += 3'600'000'000'000LL;
  runs.push_back(std::move(again));
  // Left out of history, but cached or not as any run.
  RunData probe = benchguard::testing::history_run(7, kCachedCommits, 2, 3, 2, false);
  probe.run.uuid = "00000000-0000-4000-8000-0000000000fe";
  probe.run.labels.emplace_back("calibration", "1");
  runs.push_back(std::move(probe));
  RunData cut = benchguard::testing::history_run(8, kCachedCommits, 2, 3, 2, false);
  cut.run.uuid = "00000000-0000-4000-8000-0000000000fd";
  cut.run.status = "interrupted";
  runs.push_back(std::move(cut));
  for (const char* file : {"hyperfine-two.json", "pytest-benchmark-stats-only.json",
                           "gbench-repetitions.json", "otava-sample.csv"}) {
    auto imported = ingest::import_file(std::string(BG_SOURCE_DIR) + "/tests/data/ingest/" + file);
    EXPECT_TRUE(imported.ok()) << file << ": " << imported.error().message;
    if (!imported.ok()) continue;
    metrics.insert(metrics.end(), imported->metrics.begin(), imported->metrics.end());
    int n = 0;
    for (RunData* r : imported->runs()) {
      r->run.uuid = fmt::format("11111111-0000-4000-8000-{:012x}", runs.size());
      r->run.labels.emplace_back("machine", "ci");
      if (n++ % 2 == 0) r->run.git_commit = benchguard::testing::fixture_commit(100 + n);
      runs.push_back(std::move(*r));
    }
  }
  return runs;
}

std::string varied_db(const TempDir& dir) {
  const std::string path = dir.file("h.db");
  std::vector<MetricInfo> metrics;
  const auto runs = varied_runs(metrics);
  auto store = store::open_store(path);
  EXPECT_TRUE(store.ok()) << store.error().message;
  auto ids = (*store)->add_runs(runs, metrics);
  EXPECT_TRUE(ids.ok()) << ids.error().message;
  return path;
}

bool same_bits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// `warnings`: false where b was built from every run and a was read (load_history leaves out
// runs of other commits before reading them, and so does not warn of them).
void expect_same_history(const History& a, const History& b, bool warnings = true) {
  EXPECT_EQ(a.benchmarks, b.benchmarks);
  EXPECT_EQ(a.metrics, b.metrics);
  EXPECT_EQ(a.machines, b.machines);
  EXPECT_EQ(a.runs, b.runs);
  if (warnings) {
    EXPECT_EQ(a.warnings, b.warnings);
  }
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t s = 0; s < a.series.size(); ++s) {
    const HistorySeries& x = a.series[s];
    const HistorySeries& y = b.series[s];
    SCOPED_TRACE(x.key());
    EXPECT_EQ(x.key(), y.key());
    EXPECT_EQ(x.metric.unit, y.metric.unit);
    EXPECT_EQ(x.metric.direction, y.metric.direction);
    EXPECT_EQ(x.settings, y.settings);
    EXPECT_EQ(differing_settings(x), differing_settings(y));
    ASSERT_EQ(x.points.size(), y.points.size());
    for (size_t p = 0; p < x.points.size(); ++p) {
      const HistoryPoint& u = x.points[p];
      const HistoryPoint& v = y.points[p];
      EXPECT_EQ(u.settings, v.settings);
      EXPECT_EQ(u.commit, v.commit);
      EXPECT_EQ(u.branch, v.branch);
      EXPECT_EQ(u.time, v.time);
      EXPECT_EQ(u.runs, v.runs);
      EXPECT_EQ(u.run_uuids, v.run_uuids);
      ASSERT_EQ(u.data.size(), v.data.size());
      EXPECT_TRUE(std::equal(u.data.offsets().begin(), u.data.offsets().end(),
                             v.data.offsets().begin(), v.data.offsets().end()));
      for (size_t i = 0; i < u.data.size(); ++i)
        EXPECT_TRUE(same_bits(u.data.values()[i], v.data.values()[i])) << "value " << i;
      ASSERT_EQ(u.summaries.size(), v.summaries.size());
      for (size_t i = 0; i < u.summaries.size(); ++i) {
        EXPECT_EQ(u.summaries[i].metric, v.summaries[i].metric);
        EXPECT_EQ(u.summaries[i].count, v.summaries[i].count);
        EXPECT_TRUE(same_bits(u.summaries[i].mean, v.summaries[i].mean));
        EXPECT_EQ(u.summaries[i].stddev, v.summaries[i].stddev);
        EXPECT_EQ(u.summaries[i].median, v.summaries[i].median);
      }
      EXPECT_TRUE(same_bits(u.centre, v.centre));
      EXPECT_TRUE(same_bits(u.interval.lower, v.interval.lower));
      EXPECT_TRUE(same_bits(u.interval.upper, v.interval.upper));
    }
  }
}

// Every run of the store, newest first.
std::vector<int64_t> run_ids(store::Store& store) {
  auto runs = store.list_runs();
  EXPECT_TRUE(runs.ok()) << runs.error().message;
  std::vector<int64_t> ids;
  if (runs.ok())
    for (const auto& r : *runs) ids.push_back(r.id);
  return ids;
}

int64_t entries(const std::string& path) {
  auto db = store::testing::raw_db(path);
  return store::testing::count_rows(*db, "series_cache");
}

std::vector<HistoryOptions> option_sets() {
  std::vector<HistoryOptions> out(7);
  out[1].metrics = {"all"};
  out[2].metrics = {"wall_time", "zz_custom", "ops"};
  out[2].also = {"instructions"};
  out[3].burn_in.mode = BurnInPolicy::Mode::kConfigured;
  out[4].burn_in.mode = BurnInPolicy::Mode::kFixed;
  out[4].burn_in.fixed = 3;
  out[5].benchmarks = {"bench/0001", "counted"};
  out[5].last = 4;
  out[6].commits = {benchguard::testing::fixture_commit(2), benchguard::testing::fixture_commit(6),
                    benchguard::testing::fixture_commit(5)};
  return out;
}

TEST(SeriesCache, HistoryFromTheEntriesIsHistoryFromTheInstances) {
  TempDir dir;
  const std::string path = varied_db(dir);
  const auto options = option_sets();
  // Before any entry: read from the instances, through a store that cannot save.
  std::vector<History> expected;
  {
    auto ro = store::open_store(path, {.read_only = true});
    ASSERT_TRUE(ro.ok()) << ro.error().message;
    for (const auto& o : options) {
      auto h = load_history(**ro, o);
      ASSERT_TRUE(h.ok()) << h.error().message;
      expected.push_back(std::move(*h));
    }
    auto saved = cache_run_series(**ro, {1, 2, 3});
    ASSERT_TRUE(saved.ok()) << saved.error().message;
    EXPECT_EQ(*saved, 0u);  // read-only: nothing saved, and no error
  }
  EXPECT_EQ(entries(path), 0);
  ASSERT_GT(expected[0].series.size(), 10u);
  // The series whose runs' settings differ say how; the others say nothing.
  for (const auto& series : expected[0].series) {
    SCOPED_TRACE(series.key());
    if (series.benchmark == "bench/0000") {
      EXPECT_EQ(differing_settings(series), std::vector<std::string>{"warmup 0, 1"});
    } else if (series.benchmark.starts_with("bench/")) {
      EXPECT_TRUE(differing_settings(series).empty());
    }
  }
  {
    auto store = store::open_store(path);
    ASSERT_TRUE(store.ok());
    const std::vector<int64_t> ids = run_ids(**store);
    // The probe and interrupted runs are not history: no entry.
    auto saved = cache_run_series(**store, ids, {}, /*batch=*/3);
    ASSERT_TRUE(saved.ok()) << saved.error().message;
    EXPECT_EQ(*saved, ids.size() - 2);
    auto again = cache_run_series(**store, ids);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, 0u);  // each run has its entry already
  }
  const int64_t cached = entries(path);
  EXPECT_GT(cached, kCachedCommits);
  // Read from the entries: every option set, one reader or several, gives the same history;
  // and so do the runs themselves through build_history.
  auto ro = store::open_store(path, {.read_only = true});
  ASSERT_TRUE(ro.ok());
  std::vector<RunData> all;
  {
    auto runs = (*ro)->list_runs();
    ASSERT_TRUE(runs.ok());
    for (const auto& r : *runs) {
      auto d = (*ro)->load_run(std::to_string(r.id), {.columns = true});
      ASSERT_TRUE(d.ok());
      all.push_back(std::move(*d));
    }
  }
  for (size_t i = 0; i < options.size(); ++i) {
    SCOPED_TRACE("option set " + std::to_string(i));
    auto one = load_history(**ro, options[i]);
    ASSERT_TRUE(one.ok()) << one.error().message;
    expect_same_history(expected[i], *one);
    auto runs = (*ro)->list_runs();
    ASSERT_TRUE(runs.ok());
    auto many = load_history([&] { return store::open_store(path, {.read_only = true}); },
                             options[i], *runs);
    ASSERT_TRUE(many.ok()) << many.error().message;
    expect_same_history(expected[i], *many);
    if (!options[i].benchmarks.empty()) {
      // The variants of those benchmarks alone: the same series.
      auto named = load_history([&] { return store::open_store(path, {.read_only = true}); },
                                options[i], *runs, nullptr, Variants::kNamed);
      ASSERT_TRUE(named.ok()) << named.error().message;
      EXPECT_EQ(named->series.size(), expected[i].series.size());
      for (size_t k = 0; k < named->series.size() && k < expected[i].series.size(); ++k) {
        EXPECT_EQ(named->series[k].key(), expected[i].series[k].key());
        ASSERT_EQ(named->series[k].points.size(), expected[i].series[k].points.size());
        for (size_t p = 0; p < named->series[k].points.size(); ++p)
          EXPECT_TRUE(
              same_bits(named->series[k].points[p].centre, expected[i].series[k].points[p].centre));
      }
    }
    expect_same_history(expected[i], build_history(all, options[i]), options[i].commits.empty());
  }
  // Detection, its confirmations included, sees the same series.
  DetectOptions d;
  d.head = true;
  const auto a = detect_history(expected[0], d, {}, {}, 1000);
  auto h = load_history(**ro, HistoryOptions{});
  ASSERT_TRUE(h.ok());
  const auto b = detect_history(*h, d, {}, {}, 1000);
  ASSERT_EQ(a.changes.size(), b.changes.size());
  EXPECT_GT(a.changes.size(), 0u);
  for (size_t i = 0; i < a.changes.size(); ++i) {
    EXPECT_EQ(a.changes[i].id, b.changes[i].id);
    EXPECT_EQ(a.changes[i].status, b.changes[i].status);
    EXPECT_TRUE(same_bits(a.changes[i].p_value, b.changes[i].p_value));
  }
  // Another burn-in policy reads no entry of this one, and a writable store saves its own.
  EXPECT_EQ(entries(path), cached);
  {
    auto store = store::open_store(path);
    ASSERT_TRUE(store.ok());
    auto fixed = load_history(**store, options[4]);
    ASSERT_TRUE(fixed.ok());
    expect_same_history(expected[4], *fixed);
  }
  EXPECT_EQ(entries(path), 2 * cached);
}

TEST(SeriesCache, AMalformedEntryIsReadPastWithAWarningAndFoundByDbCheck) {
  TempDir dir;
  const std::string path = varied_db(dir);
  HistoryOptions options;
  History expected;
  {
    auto ro = store::open_store(path, {.read_only = true});
    ASSERT_TRUE(ro.ok());
    auto h = load_history(**ro, options);
    ASSERT_TRUE(h.ok());
    expected = std::move(*h);
  }
  auto store = store::open_store(path);
  ASSERT_TRUE(store.ok());
  const std::vector<int64_t> ids = run_ids(**store);
  ASSERT_TRUE(cache_run_series(**store, ids).ok());
  const std::string key = series_cache_key({});
  // Run 2's entry cut short (stored whole, checksum and all: as a bug would write it).
  auto cached = (*store)->load_cached_run(2, key, {});
  ASSERT_TRUE(cached.ok());
  ASSERT_TRUE(cached->cache.has_value());
  ASSERT_TRUE(
      (*store)
          ->save_series_cache({{2, key, cached->cache->substr(0, cached->cache->size() / 2)}})
          .ok());
  auto h = load_history(**store, options);
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_EQ(h->warnings.size(), expected.warnings.size() + 1);
  EXPECT_NE(h->warnings.back().find("run 2: its series cache entry cannot be read"),
            std::string::npos)
      << h->warnings.back();
  h->warnings.pop_back();
  expect_same_history(expected, *h);
  // The writable read derived the entry again.
  auto check = check_series_cache(**store);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->problems.empty()) << check->problems.front();
  // Run 3 given run 4's entry: well formed, but not what run 3's instances give.
  auto other = (*store)->load_cached_run(4, key, {});
  ASSERT_TRUE(other.ok() && other->cache);
  ASSERT_TRUE((*store)->save_series_cache({{3, key, *other->cache}}).ok());
  check = check_series_cache(**store);
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->entries, ids.size() - 2);
  ASSERT_EQ(check->problems.size(), 1u);
  EXPECT_NE(check->problems[0].find("run 3 "), std::string::npos) << check->problems[0];
  EXPECT_NE(check->problems[0].find("differs from what its instances give"), std::string::npos);
}

TEST(SeriesCache, EveryCutAndEveryFlippedByteOfAnEntryIsReadSafely) {
  std::vector<MetricInfo> metrics;
  const auto runs = varied_runs(metrics);
  const RunSeries series = RunSeries::of(runs[4], {});  // the run with every variant kind
  const std::string& bytes = series.bytes();
  ASSERT_GT(bytes.size(), 1000u);
  auto back = RunSeries::decode(bytes);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->variants().size(), runs[4].variants.size());
  for (size_t v = 0; v < runs[4].variants.size(); ++v) {
    const auto& variant = back->variants()[v];
    EXPECT_EQ(variant.benchmark, runs[4].variants[v].variant.benchmark);
    EXPECT_EQ(variant.measured, metrics_of(runs[4].variants[v]));
    for (const auto& m : variant.metrics) {
      const auto want = extract(runs[4].variants[v], m.info.name, {}).data;
      const auto got = back->data(m);
      ASSERT_EQ(got.size(), want.size()) << m.info.name;
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(same_bits(got.values()[i], want.values()[i]));
    }
  }
  // The variants of some benchmarks alone: the others passed over, these read the same.
  const std::vector<std::string> only = {"mixed", "bench/0001"};
  auto some = RunSeries::decode(bytes, only);
  ASSERT_TRUE(some.ok()) << some.error().message;
  std::vector<const RunSeries::Variant*> wanted;
  for (const auto& v : back->variants())
    if (v.benchmark == "mixed" || v.benchmark == "bench/0001") wanted.push_back(&v);
  ASSERT_EQ(wanted.size(), 2u);
  ASSERT_EQ(some->variants().size(), wanted.size());
  for (size_t v = 0; v < wanted.size(); ++v) {
    const auto& got = some->variants()[v];
    EXPECT_EQ(got.benchmark, wanted[v]->benchmark);
    EXPECT_EQ(got.measured, wanted[v]->measured);
    ASSERT_EQ(got.metrics.size(), wanted[v]->metrics.size());
    for (size_t m = 0; m < got.metrics.size(); ++m) {
      const auto a = some->data(got.metrics[m]), b = back->data(wanted[v]->metrics[m]);
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(same_bits(a.values()[i], b.values()[i]));
    }
  }
  EXPECT_TRUE(RunSeries::decode(bytes, {"none of these"})->variants().empty());
  // Every cut is an Error, never a crash or a read past the end (ASan in CI), with or without
  // variants passed over.
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(RunSeries::decode(bytes.substr(0, n)).ok()) << "cut at " << n;
    EXPECT_FALSE(RunSeries::decode(bytes.substr(0, n), only).ok()) << "cut at " << n;
  }
  EXPECT_FALSE(RunSeries::decode(bytes + "x").ok());
  // Flipped bytes: an Error, or an entry whose every value can be read.
  for (size_t n = 0; n < bytes.size(); n += 7) {
    std::string b = bytes;
    b[n] = static_cast<char>(b[n] ^ 0x5a);
    (void)RunSeries::decode(b, only);  // read safely, whatever it gives
    auto d = RunSeries::decode(b);
    if (!d.ok()) continue;
    for (const auto& v : d->variants())
      for (const auto& m : v.metrics) EXPECT_EQ(d->data(m).size(), m.values);
  }
}

TEST(SeriesCache, EntriesGoWithTheRunsAndAreRefusedForARunStillRunning) {
  TempDir dir;
  const std::string path = varied_db(dir);
  auto store = store::open_store(path);
  ASSERT_TRUE(store.ok());
  const std::vector<int64_t> ids = run_ids(**store);
  ASSERT_TRUE(cache_run_series(**store, ids).ok());
  const int64_t before = entries(path);
  // Pruning a benchmark of every commit run removes those runs' entries.
  auto pruned = (*store)->prune({"bench/0002", 0});
  ASSERT_TRUE(pruned.ok()) << pruned.error().message;
  EXPECT_EQ(entries(path), before - (kCachedCommits + 1));
  auto refilled = cache_run_series(**store, ids);
  ASSERT_TRUE(refilled.ok());
  EXPECT_EQ(*refilled, static_cast<size_t>(kCachedCommits + 1));
  auto check = check_series_cache(**store);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->problems.empty());
  // A run still running gets none.
  auto running = (*store)->begin_run(store::testing::sample_run("running-run", 5));
  ASSERT_TRUE(running.ok());
  const auto refused = (*store)->save_series_cache({{*running, "k", "bytes"}});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("still running"), std::string::npos);
  // And a read-only store saves nothing.
  auto ro = store::open_store(path, {.read_only = true});
  ASSERT_TRUE(ro.ok());
  EXPECT_FALSE((*ro)->writable());
  EXPECT_FALSE((*ro)->save_series_cache({{ids[0], "k", "bytes"}}).ok());
}

}  // namespace
}  // namespace benchguard::analysis
