// The store's history tables (migration 0007): change points and series states saved and read
// back, replaced per series, and acknowledgements that are idempotent.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;

ChangeRecord change(const std::string& series, const std::string& id, int64_t index) {
  ChangeRecord c;
  c.id = id;
  c.series_key = series;
  c.benchmark = "b";
  c.metric = "wall_time";
  c.machine = "m";
  c.method = "e-divisive t-test";
  c.last_good = "aaa";
  c.first_bad = "bbb";
  c.first_bad_time = 123;
  c.index = index;
  c.segment_start = index - 3;
  c.segment_end = index + 4;
  c.before = 1.0;
  c.after = 1.1;
  c.change = 0.1;
  c.change_lower = 0.08;
  c.change_upper = std::numeric_limits<double>::quiet_NaN();  // unbounded: stored as NULL
  c.p_value = 1e-9;
  c.kind = "regression";
  c.status = "confirmed";
  c.detected_at = 5;
  return c;
}

TEST(HistoryStore, DetectionIsSavedReadBackAndReplacedPerSeries) {
  TempDir dir;
  auto store = open_store(dir.file("h.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  Store& s = **store;
  ASSERT_TRUE(s.save_detection({{"s1", "method=x", 40, "d1", 1}, {"s2", "method=x", 10, "d2", 1}},
                               {change("s1", "id1", 24), change("s2", "id2", 5)})
                  .ok());
  auto changes = s.load_changes();
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  ASSERT_EQ(changes->size(), 2u);
  const ChangeRecord& c = (*changes)[0];
  EXPECT_EQ(c.id, "id1");
  EXPECT_EQ(c.index, 24);
  EXPECT_EQ(c.segment_start, 21);
  EXPECT_EQ(c.segment_end, 28);
  EXPECT_EQ(c.before, 1.0);
  EXPECT_EQ(c.change_lower, 0.08);
  EXPECT_TRUE(std::isnan(c.change_upper));
  EXPECT_EQ(c.p_value, 1e-9);
  EXPECT_EQ(c.kind, "regression");
  EXPECT_EQ(c.status, "confirmed");

  // Detecting s1 again replaces its state and change points; s2 stays.
  ASSERT_TRUE(s.save_detection({{"s1", "method=x", 41, "d3", 2}}, {}).ok());
  changes = s.load_changes();
  ASSERT_TRUE(changes.ok());
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ((*changes)[0].id, "id2");
  auto states = s.load_series_states();
  ASSERT_TRUE(states.ok());
  ASSERT_EQ(states->size(), 2u);
  EXPECT_EQ((*states)[0].series_key, "s1");
  EXPECT_EQ((*states)[0].points, 41);
  EXPECT_EQ((*states)[0].digest, "d3");
}

TEST(HistoryStore, FailedSaveStoresNothing) {
  TempDir dir;
  auto store = open_store(dir.file("h.db"));
  ASSERT_TRUE(store.ok());
  // Two change points with one id: the second insert fails, the whole save rolls back.
  const auto st = (*store)->save_detection({{"s1", "x", 40, "d", 1}},
                                           {change("s1", "same", 24), change("s1", "same", 30)});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("cannot store change point same"), std::string::npos)
      << st.error().message;
  EXPECT_TRUE((*store)->load_changes()->empty());
  EXPECT_TRUE((*store)->load_series_states()->empty());
}

TEST(HistoryStore, AcknowledgementsAreIdempotent) {
  TempDir dir;
  auto store = open_store(dir.file("h.db"));
  ASSERT_TRUE(store.ok());
  Store& s = **store;
  auto fresh = s.set_ack({"id1", "known", 10});
  ASSERT_TRUE(fresh.ok());
  EXPECT_TRUE(*fresh);
  fresh = s.set_ack({"id1", "", 20});  // again, no reason: nothing changes
  ASSERT_TRUE(fresh.ok());
  EXPECT_FALSE(*fresh);
  auto acks = s.load_acks();
  ASSERT_TRUE(acks.ok());
  ASSERT_EQ(acks->size(), 1u);
  EXPECT_EQ((*acks)[0].reason, "known");
  EXPECT_EQ((*acks)[0].acked_at, 10);
  ASSERT_TRUE(s.set_ack({"id1", "new reason", 30}).ok());
  EXPECT_EQ(s.load_acks()->at(0).reason, "new reason");
  EXPECT_EQ(s.load_acks()->at(0).acked_at, 10);  // the first time stays
  auto removed = s.remove_ack("id1");
  ASSERT_TRUE(removed.ok());
  EXPECT_TRUE(*removed);
  removed = s.remove_ack("id1");
  ASSERT_TRUE(removed.ok());
  EXPECT_FALSE(*removed);
  EXPECT_TRUE(s.load_acks()->empty());
}

TEST(HistoryStore, ReadOnlyStoreReadsButRefusesToWrite) {
  TempDir dir;
  const std::string path = dir.file("h.db");
  {
    auto store = open_store(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->set_ack({"id1", "r", 1}).ok());
  }
  OpenOptions ro;
  ro.read_only = true;
  ro.create = false;
  auto store = open_store(path, ro);
  ASSERT_TRUE(store.ok()) << store.error().message;
  EXPECT_EQ((*store)->load_acks()->size(), 1u);
  EXPECT_FALSE((*store)->set_ack({"id2", "", 1}).ok());
  EXPECT_FALSE((*store)->save_detection({}, {}).ok());
}

}  // namespace
}  // namespace benchguard::store
