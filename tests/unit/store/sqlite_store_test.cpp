// Writing and reading runs back: every field, order, references, counts, write errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

TEST(StoreRoundTrip, EveryFieldComesBackExactly) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  RunRecord run = sample_run("7f3e9a10-0000-4000-8000-000000000001", 1'700'000'000'123'456'789);
  auto run_id = store->begin_run(run);
  ASSERT_TRUE(run_id.ok()) << run_id.error().message;

  // Inserted out of name order: the store must keep insertion order, not sort.
  std::vector<VariantData> expected;
  expected.push_back({sample_variant("zeta", "b"), {}, {}, {}});
  expected.push_back({sample_variant("zeta", "a"), {}, {}, {}});
  expected.push_back({sample_variant("alpha", "default"), {}, {}, {}});
  expected[2].variant.command.clear();
  expected[2].variant.params.clear();
  expected[2].variant.env.clear();
  expected[2].variant.config_json.clear();
  int64_t last_variant = 0;
  for (auto& v : expected) {
    auto variant_id = store->add_variant(*run_id, v.variant);
    ASSERT_TRUE(variant_id.ok()) << variant_id.error().message;
    last_variant = *variant_id;
    for (int i = 0; i < 3; ++i) {
      v.instances.push_back(sample_instance(i, /*iterations=*/3));
      ASSERT_TRUE(store->add_instance(*variant_id, v.instances.back()).ok());
    }
  }
  // Corner cases in one more instance: no iterations at all, and one iteration with NaN
  // and no metrics beside it.
  InstanceRecord empty = sample_instance(3, 0);
  ASSERT_TRUE(store->add_instance(last_variant, empty).ok());
  expected[2].instances.push_back(empty);
  InstanceRecord nan = sample_instance(4, 1);
  nan.iterations[0].metrics = {{"wall_time", std::numeric_limits<double>::quiet_NaN()}};
  ASSERT_TRUE(store->add_instance(last_variant, nan).ok());
  expected[2].instances.push_back(nan);
  // Timed from outside: the iteration is rebuilt from the instance's columns, a failed one too.
  for (int index : {6, 7}) {
    InstanceRecord outside = sample_instance(index, 0);
    outside.iterations.push_back(outside_iteration(outside));
    outside.timed_outside = true;
    ASSERT_TRUE(store->add_instance(last_variant, outside).ok());
    expected[2].instances.push_back(outside);
  }
  // Flagged so, but with an iteration that is not the instance's own: kept as a row.
  InstanceRecord odd = sample_instance(8, 0);
  odd.iterations.push_back(outside_iteration(odd));
  odd.iterations[0].burn_in = true;
  odd.timed_outside = true;
  ASSERT_TRUE(store->add_instance(last_variant, odd).ok());
  expected[2].instances.push_back(odd);
  ASSERT_TRUE(store->finish_run(*run_id, run.started_at + 5, "complete").ok());
  run.finished_at = run.started_at + 5;
  run.status = "complete";

  store.reset();  // read through a fresh connection, not anything cached
  store = open_or_die(dir.file("bg.db"));
  auto data = store->load_run(std::to_string(*run_id));
  ASSERT_TRUE(data.ok()) << data.error().message;
  EXPECT_EQ(data->id, *run_id);
  expect_same(data->run, run);
  ASSERT_EQ(data->variants.size(), expected.size());
  for (size_t v = 0; v < expected.size(); ++v) {
    SCOPED_TRACE("variant " + std::to_string(v));
    expect_same(data->variants[v].variant, expected[v].variant);
    ASSERT_EQ(data->variants[v].instances.size(), expected[v].instances.size());
    for (size_t i = 0; i < expected[v].instances.size(); ++i)
      expect_same(data->variants[v].instances[i], expected[v].instances[i]);
  }
  // ... and are not stored twice: no metric values, and no iterations but the odd one's.
  store.reset();
  auto db = raw_db(dir.file("bg.db"));
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM iteration_values iv JOIN instances i ON i.id = "
                           "iv.instance_id WHERE i.timed_outside = 1"),
            0);
  EXPECT_EQ(*db->query_int("SELECT COUNT(*) FROM iteration_blocks b JOIN instances i ON i.id = "
                           "b.instance_id WHERE i.timed_outside = 1"),
            1);
}

TEST(StoreRoundTrip, ListRunsCountsAndLabels) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  const int64_t a = store_run(*store, "aaaa0000-0000-4000-8000-000000000001", 2000, {"x", "y"}, 3);
  const int64_t b = store_run(*store, "bbbb0000-0000-4000-8000-000000000002", 1000, {"x"}, 2);
  // A run with a declared variant but nothing measured yet.
  auto c = store->begin_run(sample_run("cccc0000-0000-4000-8000-000000000003", 3000));
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(store->add_variant(*c, sample_variant("z", "default")).ok());

  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 3u);
  // Newest first, by start time rather than by insertion.
  EXPECT_EQ((*runs)[0].id, *c);
  EXPECT_EQ((*runs)[1].id, a);
  EXPECT_EQ((*runs)[2].id, b);
  EXPECT_EQ((*runs)[1].benchmarks, 2);
  EXPECT_EQ((*runs)[1].instances, 6);
  EXPECT_EQ((*runs)[2].benchmarks, 1);
  EXPECT_EQ((*runs)[2].instances, 2);
  EXPECT_EQ((*runs)[0].benchmarks, 0);
  EXPECT_EQ((*runs)[0].instances, 0);
  EXPECT_EQ((*runs)[0].status, "running");
  // Two variants of one benchmark count as one benchmark, with the instances of both; a
  // variant with no instance is not a benchmark measured.
  ASSERT_TRUE(store->add_variant(*c, sample_variant("y", "fast")).ok());
  for (const char* variant : {"slow", "fast"}) {
    auto v = store->add_variant(*c, sample_variant("x", variant));
    ASSERT_TRUE(v.ok());
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(store->add_instance(*v, sample_instance(i)).ok());
  }
  runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ((*runs)[0].benchmarks, 1);
  EXPECT_EQ((*runs)[0].instances, 4);
  EXPECT_EQ((*runs)[1].benchmarks, 2);
  EXPECT_EQ((*runs)[1].instances, 6);
  EXPECT_EQ((*runs)[2].status, "complete");
  EXPECT_EQ((*runs)[1].labels, sample_run("", 0).labels);
  EXPECT_EQ((*runs)[1].git_commit, sample_run("", 0).git_commit);
}

TEST(StoreRefs, ResolvesLatestIdUuidAndPrefix) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  const int64_t old_run = store_run(*store, "abc12345-0000-4000-8000-000000000001", 1000, {"x"}, 1);
  const int64_t new_run = store_run(*store, "abd12345-0000-4000-8000-000000000002", 5000, {"x"}, 1);
  // Inserted last but started earliest: "latest" goes by start time.
  const int64_t merged = store_run(*store, "ffff0000-0000-4000-8000-000000000003", 10, {"x"}, 1);

  const auto id_of = [&](const std::string& ref) -> int64_t {
    auto data = store->load_run(ref);
    EXPECT_TRUE(data.ok()) << ref << ": " << data.error().message;
    return data.ok() ? data->id : -1;
  };
  EXPECT_EQ(id_of(""), new_run);
  EXPECT_EQ(id_of("latest"), new_run);
  EXPECT_EQ(id_of(std::to_string(old_run)), old_run);
  EXPECT_EQ(id_of(std::to_string(merged)), merged);
  EXPECT_EQ(id_of("abc12345-0000-4000-8000-000000000001"), old_run);
  EXPECT_EQ(id_of("abd"), new_run);
  EXPECT_EQ(id_of("ABC1"), old_run);  // uuids are hex: case does not matter
  EXPECT_EQ(id_of("ff"), merged);

  auto ambiguous = store->load_run("ab");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.error().message.find("ambiguous"), std::string::npos)
      << ambiguous.error().message;
  EXPECT_NE(ambiguous.error().message.find("abc12345"), std::string::npos);
  EXPECT_NE(ambiguous.error().message.find("abd12345"), std::string::npos);
  EXPECT_EQ(ambiguous.error().code, ExitCode::kInput);

  auto missing = store->load_run("0123");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no run matches '0123'"), std::string::npos)
      << missing.error().message;
  EXPECT_FALSE(store->load_run("999").ok());
}

TEST(StoreRefs, EmptyDatabaseHasNoLatest) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  auto latest = store->load_run("latest");
  ASSERT_FALSE(latest.ok());
  EXPECT_NE(latest.error().message.find("no runs"), std::string::npos);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
}

TEST(StoreWrite, RefusesBadReferencesAndDuplicates) {
  TempDir dir;
  auto store = open_or_die(dir.file("bg.db"));
  ASSERT_TRUE(store);
  auto run = store->begin_run(sample_run("11110000-0000-4000-8000-000000000001", 1));
  ASSERT_TRUE(run.ok());

  auto again = store->begin_run(sample_run("11110000-0000-4000-8000-000000000001", 2));
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already stored"), std::string::npos);
  EXPECT_FALSE(store->begin_run(sample_run("", 3)).ok());

  auto no_run = store->add_variant(*run + 100, sample_variant("b", "v"));
  ASSERT_FALSE(no_run.ok());
  EXPECT_NE(no_run.error().message.find("no run with id"), std::string::npos);

  auto variant = store->add_variant(*run, sample_variant("b", "v"));
  ASSERT_TRUE(variant.ok());
  auto twice = store->add_variant(*run, sample_variant("b", "v"));
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("already has variant 'v'"), std::string::npos);

  auto no_variant = store->add_instance(*variant + 100, sample_instance(0));
  ASSERT_FALSE(no_variant.ok());
  EXPECT_NE(no_variant.error().message.find("no variant with id"), std::string::npos)
      << no_variant.error().message;

  // A metric reported twice in one iteration is refused, and nothing of the instance stays.
  InstanceRecord dup = sample_instance(0, 1);
  dup.iterations[0].metrics.push_back({"wall_time", 2.0});
  auto refused = store->add_instance(*variant, dup);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("metric 'wall_time' twice"), std::string::npos);
  // A metric first seen in the refused instance must still be usable afterwards.
  InstanceRecord fresh = sample_instance(1, 1);
  fresh.iterations[0].metrics = {{"brand_new", 1.0}, {"brand_new2", 2.0}, {"brand_new2", 3.0}};
  ASSERT_FALSE(store->add_instance(*variant, fresh).ok());
  fresh.iterations[0].metrics.pop_back();
  auto stored = store->add_instance(*variant, fresh);
  EXPECT_TRUE(stored.ok()) << stored.error().message;

  auto data = store->load_run(std::to_string(*run));
  ASSERT_TRUE(data.ok());
  ASSERT_EQ(data->variants.size(), 1u);
  ASSERT_EQ(data->variants[0].instances.size(), 1u);
  expect_same(data->variants[0].instances[0], fresh);

  EXPECT_FALSE(store->finish_run(*run + 100, 5, "complete").ok());
}

}  // namespace
}  // namespace benchguard::store
