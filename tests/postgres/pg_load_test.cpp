// Load: 16 concurrent writers, each with a connection of its own, store 1,000 instances each
// into one PostgreSQL database; nothing is lost and nothing duplicated. Also prints the
// single-writer rate of PostgreSQL beside SQLite's on this machine.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include "store/postgres/pg_store.hpp"
#include "support/test_support.hpp"
#include "tests/postgres/pg_test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store::testing {
namespace {

using benchguard::testing::TempDir;

class PgLoadTest : public PgTest {};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One writer's run: `n` instances of two iterations each; false on any failure.
bool write_run(Store& store, const std::string& uuid, int n, std::string& failure) {
  auto run = store.begin_run(sample_run(uuid, 1000));
  if (!run.ok()) return failure = run.error().message, false;
  auto v = store.add_variant(*run, sample_variant("load", "default"));
  if (!v.ok()) return failure = v.error().message, false;
  for (int i = 0; i < n; ++i) {
    auto s = store.add_instance(*v, sample_instance(i, 2));
    if (!s.ok()) return failure = s.error().message, false;
  }
  auto f = store.finish_run(*run, 2000, "complete");
  if (!f.ok()) return failure = f.error().message, false;
  return true;
}

TEST_F(PgLoadTest, SixteenConcurrentWritersLoseAndDuplicateNothing) {
  constexpr int kWriters = 16;
  constexpr int kInstances = 1000;
  ASSERT_TRUE(open_or_die(url()));  // migrated once, before the writers race
  std::atomic<int> failed{0};
  std::vector<std::string> failures(kWriters);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      auto store = open_store(url());
      if (!store.ok()) {
        failures[w] = store.error().message;
        ++failed;
        return;
      }
      char uuid[64];
      std::snprintf(uuid, sizeof uuid, "10ad0000-0000-4000-8000-%012d", w);
      if (!write_run(**store, uuid, kInstances, failures[w])) ++failed;
    });
  for (auto& t : writers) t.join();
  const double elapsed = seconds_since(start);
  for (const auto& f : failures) EXPECT_TRUE(f.empty()) << f;
  ASSERT_EQ(failed, 0);
  std::printf("PostgreSQL: %d writers x %d instances in %.2f s: %.0f instances/s\n", kWriters,
              kInstances, elapsed, kWriters * kInstances / elapsed);

  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), kWriters);
  EXPECT_EQ(count("SELECT COUNT(*) FROM instances"), kWriters * kInstances);
  EXPECT_EQ(count("SELECT COUNT(*) FROM iteration_blocks"), kWriters * kInstances);
  EXPECT_EQ(count("SELECT COUNT(*) FROM (SELECT variant_id, idx FROM instances GROUP BY "
                  "variant_id, idx HAVING COUNT(*) > 1) d"),
            0);
  auto reader = open_or_die(url(), {.read_only = true});
  ASSERT_TRUE(reader);
  auto runs = reader->list_runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), static_cast<size_t>(kWriters));
  for (const auto& r : *runs) {
    EXPECT_EQ(r.status, "complete");
    EXPECT_EQ(r.instances, kInstances);
    auto data = reader->load_run(r.uuid);
    ASSERT_TRUE(data.ok()) << data.error().message;
    std::set<int> indexes;
    for (const auto& in : data->variants[0].instances) {
      indexes.insert(in.index);
      ASSERT_EQ(in.iterations.size(), 2u);
    }
    EXPECT_EQ(indexes.size(), static_cast<size_t>(kInstances));
    EXPECT_EQ(*indexes.begin(), 0);
    EXPECT_EQ(*indexes.rbegin(), kInstances - 1);
  }
}

// Not a pass/fail threshold: the numbers, for docs/postgres.md.
TEST_F(PgLoadTest, SingleWriterRateBesideSqlite) {
  constexpr int kInstances = 2000;
  std::string failure;
  auto pg = open_or_die(url());
  ASSERT_TRUE(pg);
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(write_run(*pg, "5e000000-0000-4000-8000-000000000001", kInstances, failure))
      << failure;
  const double pg_s = seconds_since(start);
  TempDir dir;
  auto lite = open_or_die(dir.file("rate.db"));
  ASSERT_TRUE(lite);
  start = std::chrono::steady_clock::now();
  ASSERT_TRUE(write_run(*lite, "5e000000-0000-4000-8000-000000000001", kInstances, failure))
      << failure;
  const double lite_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  auto pg_read = pg->load_run("latest");
  const double pg_read_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  auto lite_read = lite->load_run("latest");
  const double lite_read_s = seconds_since(start);
  ASSERT_TRUE(pg_read.ok() && lite_read.ok());
  std::printf(
      "one writer, add_instance (a commit each): PostgreSQL %.0f instances/s, SQLite %.0f "
      "instances/s; load_run of %d instances: PostgreSQL %.3f s, SQLite %.3f s\n",
      kInstances / pg_s, kInstances / lite_s, kInstances, pg_read_s, lite_read_s);
}

// A million iterations in one instance: one block and one values row each way, and read
// back into columns.
TEST_F(PgLoadTest, MillionIterationInstanceRoundTrips) {
  constexpr int kIterations = 1'000'000;
  InstanceRecord big = sample_instance(0, 0);
  big.iterations.reserve(kIterations);
  for (int i = 0; i < kIterations; ++i) {
    IterationRecord it;
    it.index = i;
    it.start_ns = 1000LL * i;
    it.end_ns = it.start_ns + 500 + i % 7;
    it.burn_in = i < 10;
    it.metrics = {{"wall_time", (500 + i % 7) * 1e-9}};
    big.iterations.push_back(std::move(it));
  }
  TempDir dir;
  for (const std::string& location : {url(), dir.file("big.db")}) {
    auto store = open_or_die(location);
    ASSERT_TRUE(store);
    auto run = store->begin_run(sample_run("b1900000-0000-4000-8000-000000000001", 1));
    ASSERT_TRUE(run.ok());
    auto v = store->add_variant(*run, sample_variant("big", "default"));
    ASSERT_TRUE(v.ok());
    auto start = std::chrono::steady_clock::now();
    auto added = store->add_instance(*v, big);
    ASSERT_TRUE(added.ok()) << added.error().message;
    const double write_s = seconds_since(start);
    ASSERT_TRUE(store->finish_run(*run, 2, "complete").ok());
    start = std::chrono::steady_clock::now();
    auto data = store->load_run("latest", LoadOptions{.columns = true});
    const double read_s = seconds_since(start);
    ASSERT_TRUE(data.ok()) << data.error().message;
    const auto& in = data->variants[0].instances[0];
    ASSERT_TRUE(in.columns);
    ASSERT_EQ(in.columns->count, static_cast<size_t>(kIterations));
    EXPECT_EQ(in.columns->end_ns[999'999], big.iterations[999'999].end_ns);
    ASSERT_EQ(in.columns->metrics.size(), 1u);
    EXPECT_EQ(in.columns->metrics[0].values[123'456], *big.iterations[123'456].metric("wall_time"));
    std::printf("%s: 1,000,000 iterations: add_instance %.3f s, load_run (columns) %.3f s\n",
                location.starts_with("postgresql") ? "PostgreSQL" : "SQLite", write_s, read_s);
  }
}

}  // namespace
}  // namespace benchguard::store::testing
