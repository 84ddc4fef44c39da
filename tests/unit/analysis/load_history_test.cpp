// load_history (src/analysis/gate.cpp) reading runs on several connections at once gives the
// same History as reading them one at a time through one store, and says why when a reader
// cannot be opened.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "analysis/history_load.hpp"
#include "analysis/series_cache.hpp"
#include "store/store.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"

namespace benchguard::analysis {
namespace {

using benchguard::testing::TempDir;

constexpr int kCommits = 40;

// A database of the dashboard's fixture history: 40 commits of 4 benchmarks, 3 instances of 2
// iterations, stored in a shuffled order so that the store's order is not the history's.
std::string history_db(const TempDir& dir) {
  std::string path = dir.file("h.db");
  std::vector<RunData> runs;
  runs.reserve(kCommits);
  for (int k = 0; k < kCommits; ++k)
    runs.push_back(benchguard::testing::history_run((k * 17) % kCommits, kCommits, 4, 3, 2, false));
  auto store = store::open_store(path);
  EXPECT_TRUE(store.ok()) << store.error().message;
  auto ids = (*store)->add_runs(runs, {});
  EXPECT_TRUE(ids.ok()) << ids.error().message;
  return path;
}

TEST(LoadHistory, ParallelReadersGiveTheSameSeries) {
  TempDir dir;
  const std::string path = history_db(dir);
  HistoryOptions options;
  options.burn_in.mode = BurnInPolicy::Mode::kConfigured;
  auto store = store::open_store(path, {.read_only = true});
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto runs = (*store)->list_runs();
  ASSERT_TRUE(runs.ok());
  auto one = load_history(**store, options, *runs);
  ASSERT_TRUE(one.ok()) << one.error().message;
  std::atomic<int> opened{0};
  auto many = load_history(
      [&]() {
        ++opened;
        return store::open_store(path, {.read_only = true});
      },
      options, *runs);
  ASSERT_TRUE(many.ok()) << many.error().message;
  EXPECT_GE(opened.load(), 1);

  ASSERT_EQ(one->series.size(), 4u);
  ASSERT_EQ(many->series.size(), one->series.size());
  for (size_t s = 0; s < one->series.size(); ++s) {
    const auto& a = one->series[s];
    const auto& b = many->series[s];
    SCOPED_TRACE(a.benchmark);
    EXPECT_EQ(b.benchmark, a.benchmark);
    ASSERT_EQ(a.points.size(), static_cast<size_t>(kCommits));
    ASSERT_EQ(b.points.size(), a.points.size());
    for (size_t p = 0; p < a.points.size(); ++p) {
      EXPECT_EQ(b.points[p].commit, a.points[p].commit);
      EXPECT_EQ(b.points[p].runs, a.points[p].runs);
      EXPECT_EQ(b.points[p].instances(), 3u);
      const auto va = a.points[p].data.values();
      const auto vb = b.points[p].data.values();
      EXPECT_EQ(std::vector<double>(vb.begin(), vb.end()),
                std::vector<double>(va.begin(), va.end()));
      EXPECT_EQ(b.points[p].centre, a.points[p].centre);
    }
  }
}

TEST(LoadHistory, ParallelReadersSaveTheEntriesTheyDerivedThroughTheWritableStore) {
  TempDir dir;
  const std::string path = history_db(dir);  // stored by the library: no entries
  const std::string key = series_cache_key(BurnInPolicy{});
  auto store = store::open_store(path);
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto runs = (*store)->list_runs();
  ASSERT_TRUE(runs.ok());
  const auto entries = [&] {
    int n = 0;
    for (const auto& r : *runs) {
      auto cached = (*store)->load_cached_run(r.id, key, {});
      EXPECT_TRUE(cached.ok());
      n += cached.ok() && cached->cache.has_value() ? 1 : 0;
    }
    return n;
  };
  ASSERT_EQ(entries(), 0);
  const auto reader = [&] { return store::open_store(path, {.read_only = true}); };
  // Without a store to save through, nothing is saved.
  auto unsaved = load_history(reader, HistoryOptions{}, *runs);
  ASSERT_TRUE(unsaved.ok()) << unsaved.error().message;
  EXPECT_EQ(entries(), 0);
  auto derived = load_history(reader, HistoryOptions{}, *runs, store->get());
  ASSERT_TRUE(derived.ok()) << derived.error().message;
  EXPECT_EQ(entries(), kCommits);
  // Read from the entries now: the same series as from the instances.
  auto from_entries = load_history(reader, HistoryOptions{}, *runs);
  ASSERT_TRUE(from_entries.ok()) << from_entries.error().message;
  for (const History* h : {&*derived, &*from_entries}) {
    ASSERT_EQ(h->series.size(), unsaved->series.size());
    for (size_t s = 0; s < h->series.size(); ++s) {
      ASSERT_EQ(h->series[s].points.size(), unsaved->series[s].points.size());
      for (size_t p = 0; p < h->series[s].points.size(); ++p) {
        EXPECT_EQ(h->series[s].points[p].commit, unsaved->series[s].points[p].commit);
        EXPECT_EQ(h->series[s].points[p].centre, unsaved->series[s].points[p].centre);
        EXPECT_EQ(h->series[s].points[p].instances(), unsaved->series[s].points[p].instances());
      }
    }
  }
}

TEST(LoadHistory, AReaderThatCannotOpenIsTheError) {
  TempDir dir;
  const std::string path = history_db(dir);
  auto store = store::open_store(path, {.read_only = true});
  ASSERT_TRUE(store.ok());
  auto runs = (*store)->list_runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), static_cast<size_t>(kCommits));
  std::atomic<int> tried{0};
  auto r = load_history(
      [&]() -> Result<std::unique_ptr<store::Store>> {
        ++tried;
        return Error{"no second connection"};
      },
      HistoryOptions{}, *runs);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "no second connection");
  // The first failure stops handing out runs: only those already on their way try again.
  EXPECT_LT(tried.load(), kCommits / 2);
}

}  // namespace
}  // namespace benchguard::analysis
