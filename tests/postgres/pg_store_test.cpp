// The Store's behaviour on PostgreSQL, as tests/unit/store/ checks it on SQLite: records
// written and read back bit for bit, columns, references, interrupted runs, read-only opens,
// migrations, merging a SQLite file, prune, history, and passwords kept out of messages.
#include "store/postgres/pg_store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <thread>

#include "core/iterations.hpp"
#include "store/location.hpp"
#include "store/sqlite/migrate.hpp"
#include "support/test_support.hpp"
#include "tests/postgres/pg_test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store::testing {
namespace {

using benchguard::testing::TempDir;

class PgStoreTest : public PgTest {};

// The behaviour both backends share, run on each: a SQLite file or a PostgreSQL database of
// the test's own. The tables have the same names, so counts are the same SQL.
enum class Backend { kSqlite, kPostgres };

class StoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kPostgres) database_ = std::make_unique<TestDatabase>();
  }
  std::string url() const { return database_ ? database_->url() : dir_.file("bg.db"); }
  int64_t count(const std::string& sql) const {
    if (database_) return pg_count(url(), sql);
    auto db = raw_db(url());
    return db ? count_sql(*db, sql) : -1;
  }
  static int64_t count_sql(sqlite::Db& db, const std::string& sql) {
    auto n = db.query_int(sql);
    EXPECT_TRUE(n.ok()) << n.error().message;
    return n.ok() ? *n : -1;
  }

  TempDir dir_;
  std::unique_ptr<TestDatabase> database_;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return std::string(info.param == Backend::kSqlite ? "SQLite"
                                                                             : "PostgreSQL");
                         });

// An instance with a NaN, an infinity, -0.0 and a metric some iterations lack.
InstanceRecord awkward_instance(int index) {
  InstanceRecord in = sample_instance(index, 3);
  in.iterations[1].metrics.emplace_back("odd", std::numeric_limits<double>::quiet_NaN());
  in.iterations[2].metrics.emplace_back("odd", std::numeric_limits<double>::infinity());
  in.iterations[0].metrics.emplace_back("neg", -1e-310);
  in.mem_avg_bytes = std::numeric_limits<double>::denorm_min();
  return in;
}

// Timed from outside: one iteration, rebuilt from the instance's columns.
InstanceRecord outside_instance(int index) {
  InstanceRecord in = sample_instance(index, 0);
  in.timed_outside = true;
  in.iterations.push_back(outside_iteration(in));
  return in;
}

TEST_F(PgStoreTest, RunsVariantsInstancesComeBackBitForBit) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  RunRecord run = sample_run("aaaa1111-0000-4000-8000-000000000001", 1'700'000'000'000'000'000);
  auto run_id = store->begin_run(run);
  ASSERT_TRUE(run_id.ok()) << run_id.error().message;
  const VariantRecord variant = sample_variant("sort \"fast\"", "n=10");
  auto variant_id = store->add_variant(*run_id, variant);
  ASSERT_TRUE(variant_id.ok()) << variant_id.error().message;
  std::vector<InstanceRecord> written = {sample_instance(0), sample_instance(1, 3),
                                         awkward_instance(2), outside_instance(3),
                                         sample_instance(4, 0)};
  for (size_t i = 0; i < written.size(); ++i) {
    auto s = i % 2 ? store->add_instance_batched(*variant_id, written[i])
                   : store->add_instance(*variant_id, written[i]);
    ASSERT_TRUE(s.ok()) << s.error().message;
  }
  ASSERT_TRUE(store->flush().ok());
  ASSERT_TRUE(store->finish_run(*run_id, run.started_at + 5, "complete").ok());
  store.reset();

  auto reader = open_or_die(url(), {.read_only = true});
  ASSERT_TRUE(reader);
  for (const std::string& ref : {std::to_string(*run_id), run.uuid, std::string("AAAA1111"),
                                 std::string("latest"), std::string()}) {
    auto data = reader->load_run(ref);
    ASSERT_TRUE(data.ok()) << ref << ": " << data.error().message;
    RunRecord expected = run;
    expected.status = "complete";
    expected.finished_at = run.started_at + 5;
    expect_same(expected, data->run);
    ASSERT_EQ(data->variants.size(), 1u);
    expect_same(variant, data->variants[0].variant);
    ASSERT_EQ(data->variants[0].instances.size(), written.size());
    for (size_t i = 0; i < written.size(); ++i) {
      SCOPED_TRACE(i);
      const InstanceRecord& expected_in = written[i];
      const InstanceRecord& got = data->variants[0].instances[i];
      ASSERT_EQ(got.iterations.size(), expected_in.iterations.size());
      EXPECT_EQ(got.index, expected_in.index);
      EXPECT_EQ(got.instructions, expected_in.instructions);
      EXPECT_EQ(got.cycles, expected_in.cycles);
      EXPECT_EQ(got.failure, expected_in.failure);
      expect_same_double(got.mem_avg_bytes, expected_in.mem_avg_bytes, "mem_avg_bytes");
      EXPECT_EQ(got.mem_source, expected_in.mem_source);
      expect_same_double(got.sys_s, expected_in.sys_s, "sys_s");
      for (size_t k = 0; k < got.iterations.size(); ++k) {
        const auto& a = expected_in.iterations[k];
        const auto& b = got.iterations[k];
        EXPECT_EQ(a.start_ns, b.start_ns);
        EXPECT_EQ(a.end_ns, b.end_ns);
        EXPECT_EQ(a.burn_in, b.burn_in);
        EXPECT_EQ(a.failure, b.failure);
        for (const auto& m : a.metrics) {
          const auto v = b.metric(m.first);
          ASSERT_TRUE(v.has_value()) << m.first;
          expect_same_double(m.second, *v, m.first);
        }
        EXPECT_EQ(a.metrics.size(), b.metrics.size());
      }
    }
  }
  // The same instances through SQLite come back the same way: the backends agree.
  TempDir dir;
  auto lite = open_or_die(dir.file("same.db"));
  ASSERT_TRUE(lite);
  auto lite_run = lite->begin_run(run);
  ASSERT_TRUE(lite_run.ok());
  auto lite_variant = lite->add_variant(*lite_run, variant);
  ASSERT_TRUE(lite_variant.ok());
  for (const auto& in : written) ASSERT_TRUE(lite->add_instance(*lite_variant, in).ok());
  ASSERT_TRUE(lite->finish_run(*lite_run, run.started_at + 5, "complete").ok());
  auto from_lite = lite->load_run("latest");
  auto from_pg = reader->load_run("latest");
  ASSERT_TRUE(from_lite.ok() && from_pg.ok());
  expect_same(from_lite->run, from_pg->run);
  for (size_t i = 0; i < written.size(); ++i)
    expect_same(from_lite->variants[0].instances[i], from_pg->variants[0].instances[i]);
  ASSERT_EQ(from_lite->variants[0].metrics.size(), from_pg->variants[0].metrics.size());
  for (size_t i = 0; i < from_pg->variants[0].metrics.size(); ++i)
    EXPECT_EQ(from_lite->variants[0].metrics[i].name, from_pg->variants[0].metrics[i].name);
}

TEST_P(StoreTest, ColumnsLoadingFillsInstanceColumns) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  auto run = store->begin_run(sample_run("c0000000-0000-4000-8000-000000000001", 1));
  ASSERT_TRUE(run.ok());
  auto v = store->add_variant(*run, sample_variant("b", "default"));
  ASSERT_TRUE(v.ok());
  InstanceRecord big = sample_instance(0, 100);
  big.iterations[50].metrics.pop_back();  // one iteration lacks a metric
  ASSERT_TRUE(store->add_instance(*v, big).ok());
  ASSERT_TRUE(store->add_instance(*v, sample_instance(1, 3)).ok());
  ASSERT_TRUE(store->finish_run(*run, 2, "complete").ok());

  auto rows = store->load_run("latest");
  auto cols = store->load_run("latest", LoadOptions{.columns = true});
  ASSERT_TRUE(rows.ok() && cols.ok());
  const InstanceRecord& by_rows = rows->variants[0].instances[0];
  const InstanceRecord& by_cols = cols->variants[0].instances[0];
  ASSERT_TRUE(by_cols.columns);
  EXPECT_TRUE(by_cols.iterations.empty());
  EXPECT_EQ(by_cols.columns->count, 100u);
  EXPECT_FALSE(cols->variants[0].instances[1].columns);  // few iterations: records
  const IterationsView a(by_rows), b(by_cols);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.metric_names(), b.metric_names());
  for (const auto& name : a.metric_names()) {
    const auto ma = a.metric(name), mb = b.metric(name);
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(ma.at(k).has_value(), mb.at(k).has_value()) << name << " " << k;
      if (ma.at(k) && mb.at(k)) expect_same_double(*ma.at(k), *mb.at(k), name);
    }
  }
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a.start_ns(k), b.start_ns(k));
    EXPECT_EQ(a.end_ns(k), b.end_ns(k));
    EXPECT_EQ(a.burn_in(k), b.burn_in(k));
    EXPECT_EQ(a.timed_out(k), b.timed_out(k));
    EXPECT_EQ(a.failed(k), b.failed(k));
  }
}

TEST_P(StoreTest, ListRunsNewestFirstWithCountsAndLabels) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  store_run(*store, "11111111-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
  store_run(*store, "22222222-0000-4000-8000-000000000002", 300, {"a"}, 3);
  store_run(*store, "33333333-0000-4000-8000-000000000003", 200, {}, 0);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 3u);
  EXPECT_EQ((*runs)[0].uuid, "22222222-0000-4000-8000-000000000002");
  EXPECT_EQ((*runs)[1].uuid, "33333333-0000-4000-8000-000000000003");
  EXPECT_EQ((*runs)[2].uuid, "11111111-0000-4000-8000-000000000001");
  EXPECT_EQ((*runs)[0].instances, 3);
  EXPECT_EQ((*runs)[0].benchmarks, 1);
  EXPECT_EQ((*runs)[2].instances, 4);
  EXPECT_EQ((*runs)[2].benchmarks, 2);
  EXPECT_EQ((*runs)[1].benchmarks, 0);
  EXPECT_EQ((*runs)[0].status, "complete");
  EXPECT_EQ((*runs)[0].labels, sample_run("x", 0).labels);
  // Without the counts (history, gate): the same runs in the same order, their counts 0.
  auto bare = store->list_runs({.counts = false});
  ASSERT_TRUE(bare.ok()) << bare.error().message;
  ASSERT_EQ(bare->size(), runs->size());
  for (std::size_t k = 0; k < runs->size(); ++k) {
    EXPECT_EQ((*bare)[k].id, (*runs)[k].id);
    EXPECT_EQ((*bare)[k].status, (*runs)[k].status);
    EXPECT_EQ((*bare)[k].git_commit, (*runs)[k].git_commit);
    EXPECT_EQ((*bare)[k].labels, (*runs)[k].labels);
    EXPECT_EQ((*bare)[k].instances, 0);
    EXPECT_EQ((*bare)[k].benchmarks, 0);
  }

  // References: ambiguous and unknown prefixes are errors naming what to give.
  store_run(*store, "22222222-9999-4000-8000-000000000009", 50, {"a"}, 1);
  auto ambiguous = store->load_run("2222");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.error().message.find("ambiguous"), std::string::npos);
  auto unknown = store->load_run("ffff");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("no run matches"), std::string::npos);
  EXPECT_TRUE(store->load_run("22222222-9").ok());
}

TEST_P(StoreTest, AddRunsIsAllOrNothing) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  RunData one;
  one.run = sample_run("a0000000-0000-4000-8000-000000000001", 10);
  one.run.status = "complete";
  VariantData vd;
  vd.variant = sample_variant("imported", "default");
  vd.instances = {sample_instance(0), sample_instance(1)};
  SummaryRecord summary;
  summary.metric = "items_per_second";
  summary.count = 7;
  summary.mean = 12.5;
  summary.stddev = 0.25;
  vd.summaries.push_back(summary);
  one.variants.push_back(vd);
  RunData duplicate = one;  // same uuid: the second fails, so nothing is stored
  auto failed = store->add_runs({one, duplicate}, {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM instances"), 0);

  auto ids = store->add_runs({one}, {{"items_per_second", "1/s", Direction::kHigherIsBetter}});
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  ASSERT_EQ(ids->size(), 1u);
  auto back = store->load_run(one.run.uuid);
  ASSERT_TRUE(back.ok());
  expect_same(one.run, back->run);
  ASSERT_EQ(back->variants[0].summaries.size(), 1u);
  EXPECT_EQ(back->variants[0].summaries[0].count, 7);
  EXPECT_EQ(back->variants[0].summaries[0].mean, 12.5);
  EXPECT_EQ(back->variants[0].summaries[0].stddev, 0.25);
  EXPECT_FALSE(back->variants[0].summaries[0].median.has_value());
  for (size_t i = 0; i < 2; ++i)
    expect_same(one.variants[0].instances[i], back->variants[0].instances[i]);
  bool found = false;
  for (const auto& m : back->variants[0].metrics)
    if (m.name == "items_per_second") {
      found = true;
      EXPECT_EQ(m.direction, Direction::kHigherIsBetter);
    }
  EXPECT_TRUE(found);
}

// A writer killed mid-run: its finished instances stay, and the run reads as interrupted.
TEST_P(StoreTest, KilledWriterLeavesAnInterruptedRun) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    auto store = open_store(url());
    if (!store.ok()) _exit(10);
    auto run = (*store)->begin_run(sample_run("dead0000-0000-4000-8000-000000000001", 5));
    if (!run.ok()) _exit(11);
    auto v = (*store)->add_variant(*run, sample_variant("b", "default"));
    if (!v.ok()) _exit(12);
    for (int i = 0; i < 3; ++i)
      if (!(*store)->add_instance(*v, sample_instance(i)).ok()) _exit(13);
    if (write(ready[1], "x", 1) != 1) _exit(14);
    pause();  // killed here, mid-run
    _exit(0);
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  close(ready[0]);
  {
    // While the writer lives its run is running, for readers and read-write opens alike.
    auto reader = open_or_die(url());
    ASSERT_TRUE(reader);
    auto runs = reader->list_runs();
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].status, "running");
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);

  // The server ends the writer's session (and frees its lock) when it sees the socket close.
  std::string seen;
  for (int attempt = 0; attempt < 100 && seen != "interrupted"; ++attempt) {
    auto reader = open_or_die(url(), {.read_only = true});
    ASSERT_TRUE(reader);
    auto runs = reader->list_runs();
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    seen = (*runs)[0].status;
    if (seen == "interrupted") {
      EXPECT_EQ((*runs)[0].instances, 3);
      auto data = reader->load_run("latest");
      ASSERT_TRUE(data.ok());
      EXPECT_EQ(data->run.status, "interrupted");
      ASSERT_EQ(data->variants[0].instances.size(), 3u);
      expect_same(sample_instance(2), data->variants[0].instances[2]);
      // Ended at its last stored instance's end.
      const auto& last = data->variants[0].instances[2];
      EXPECT_EQ(data->run.finished_at, last.started_at + (last.end_ns - last.start_ns));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  EXPECT_EQ(seen, "interrupted");
  // A read-only open changed nothing; a read-write one marks the run.
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs WHERE status = 'running'"), 1);
  ASSERT_TRUE(open_or_die(url()));
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs WHERE status = 'interrupted'"), 1);
}

TEST_P(StoreTest, ClosingAnUnfinishedWriterMarksItsRunInterrupted) {
  {
    auto store = open_or_die(url());
    ASSERT_TRUE(store);
    auto run = store->begin_run(sample_run("cafe0000-0000-4000-8000-000000000001", 5));
    ASSERT_TRUE(run.ok());
  }
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs WHERE status = 'interrupted'"), 1);
}

TEST_F(PgStoreTest, ReadOnlyOpenRefusesWritesAndWritesNothing) {
  store_run(*open_or_die(url()), "0a000000-0000-4000-8000-000000000001", 1, {"a"}, 1);
  auto reader = open_or_die(url(), {.read_only = true});
  ASSERT_TRUE(reader);
  auto begun = reader->begin_run(sample_run("0b000000-0000-4000-8000-000000000002", 2));
  ASSERT_FALSE(begun.ok());
  EXPECT_NE(begun.error().message.find("read-only"), std::string::npos);
  EXPECT_FALSE(reader->set_ack({"x", "y", 1}).ok());
  EXPECT_FALSE(reader->prune({"a", 0}).ok());
  EXPECT_FALSE(reader->declare_metrics({{"m", "s", Direction::kLowerIsBetter}}).ok());
  EXPECT_TRUE(reader->list_runs().ok());
  EXPECT_TRUE(reader->load_run("latest").ok());
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), 1);

  // A read-only open of an empty database creates nothing either.
  auto admin = postgres::Conn::connect(pg_server_url());
  ASSERT_TRUE(admin.ok());
  ASSERT_TRUE((*admin)->exec("CREATE DATABASE " + db_ + "_empty").ok());
  {
    auto empty = open_store(pg_url(db_ + "_empty"), {.read_only = true});
    ASSERT_TRUE(empty.ok()) << empty.error().message;
    auto st = (*empty)->schema_status();
    ASSERT_TRUE(st.ok());
    EXPECT_EQ(st->current, 0);
    EXPECT_FALSE((*empty)->list_runs().ok());
  }
  {
    auto conn = postgres::Conn::connect(pg_url(db_ + "_empty"));
    ASSERT_TRUE(conn.ok());
    auto tables = (*conn)->query_int("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'");
    ASSERT_TRUE(tables.ok());
    EXPECT_EQ(*tables, 0);
  }
  (void)(*admin)->exec("DROP DATABASE " + db_ + "_empty WITH (FORCE)");
}

TEST_F(PgStoreTest, MigrationsAreIdempotentAndSafeUnderConcurrentOpeners) {
  // Several processes' worth of openers at once on a fresh database.
  std::vector<std::thread> threads;
  threads.reserve(6);
  std::atomic<int> failures{0};
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&] {
      auto s = open_store(url());
      if (!s.ok()) {
        ADD_FAILURE() << s.error().message;
        ++failures;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  for (int again = 0; again < 2; ++again) {
    auto store = open_or_die(url());
    ASSERT_TRUE(store);
    auto st = store->schema_status();
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(st->current, st->latest);
    EXPECT_EQ(st->latest, sqlite::latest_schema_version());  // the same schema versions
    EXPECT_TRUE(st->pending.empty());
    ASSERT_EQ(st->applied.size(), 7u);
    EXPECT_EQ(st->applied[0].second, "initial");
    EXPECT_EQ(st->applied[1].second, "rss_floor");
    EXPECT_EQ(st->applied[2].second, "series_cache");
    EXPECT_EQ(st->applied[3].second, "instance_counts");
    EXPECT_EQ(st->applied[4].second, "run_counts");
    EXPECT_EQ(st->applied[5].second, "mem_source");
    EXPECT_EQ(st->applied[6].second, "hook_times");
  }
  EXPECT_EQ(count("SELECT COUNT(*) FROM schema_migrations"), 7);
  // A newer schema than this binary knows is refused, not written to.
  {
    auto conn = raw();
    ASSERT_TRUE(conn);
    ASSERT_TRUE(conn->exec("INSERT INTO schema_migrations VALUES (999, 'future', 0)").ok());
  }
  auto newer = open_store(url());
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("newer"), std::string::npos);
}

TEST_P(StoreTest, MergingASqliteFileIsIdempotent) {
  TempDir dir;
  const std::string file = dir.file("job.db");
  {
    auto lite = open_or_die(file);
    ASSERT_TRUE(lite);
    store_run(*lite, "e1000000-0000-4000-8000-000000000001", 10, {"a", "b"}, 3);
    store_run(*lite, "e2000000-0000-4000-8000-000000000002", 20, {"a"}, 2);
    ASSERT_TRUE(lite->declare_metrics({{"zz_custom", "B", Direction::kHigherIsBetter}}).ok());
  }
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  store_run(*store, "e2000000-0000-4000-8000-000000000002", 20, {"a"}, 2);  // already here
  auto merged = store->merge_from(file);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->runs_added, 1);
  EXPECT_EQ(merged->runs_skipped, 1);
  EXPECT_EQ(merged->instances_added, 6);
  auto again = store->merge_from(file);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->runs_added, 0);
  EXPECT_EQ(again->runs_skipped, 2);
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), 2);
  EXPECT_EQ(count("SELECT COUNT(*) FROM instances"), 8);

  auto lite = open_or_die(file, {.read_only = true});
  auto a = lite->load_run("e1000000");
  auto b = store->load_run("e1000000");
  ASSERT_TRUE(a.ok() && b.ok());
  expect_same(a->run, b->run);
  ASSERT_EQ(a->variants.size(), b->variants.size());
  for (size_t v = 0; v < a->variants.size(); ++v) {
    expect_same(a->variants[v].variant, b->variants[v].variant);
    ASSERT_EQ(a->variants[v].instances.size(), b->variants[v].instances.size());
    for (size_t i = 0; i < a->variants[v].instances.size(); ++i)
      expect_same(a->variants[v].instances[i], b->variants[v].instances[i]);
  }
  EXPECT_EQ(count("SELECT COUNT(*) FROM metrics WHERE name = 'zz_custom'"), 1);

  auto missing = store->merge_from(dir.file("absent.db"));
  EXPECT_FALSE(missing.ok());
}

TEST_P(StoreTest, PruneRemovesOneBenchmarkAndEmptiedRuns) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  store_run(*store, "f1000000-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
  store_run(*store, "f2000000-0000-4000-8000-000000000002", 200, {"a"}, 3);
  store_run(*store, "f3000000-0000-4000-8000-000000000003", 300, {"a"}, 1);
  auto pruned = store->prune({"a", 250});
  ASSERT_TRUE(pruned.ok()) << pruned.error().message;
  EXPECT_EQ(pruned->variants, 2);
  EXPECT_EQ(pruned->instances, 5);
  EXPECT_EQ(pruned->iterations, 10);
  EXPECT_EQ(pruned->runs_emptied, 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), 2);
  EXPECT_EQ(count("SELECT COUNT(*) FROM instances"), 3);
  EXPECT_EQ(count("SELECT COUNT(*) FROM iteration_blocks"), 3);
  EXPECT_FALSE(store->prune({"nope", 0}).ok());
}

// run_counts (0013): kept for ended runs by finish, add_runs and prune, removed by an instance
// added later (the run is then counted from its rows), the same on both backends.
TEST_P(StoreTest, RunCountsAreKeptForEndedRunsAndMatchTheirRows) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  const int64_t finished =
      store_run(*store, "c0000000-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
  RunData imported;
  imported.run = sample_run("c0000000-0000-4000-8000-000000000002", 200);
  imported.run.status = "imported";
  imported.variants.push_back({sample_variant("a", "default"), {}, {}, {}});
  imported.variants[0].instances = {sample_instance(0)};
  imported.variants.push_back({sample_variant("s", "default"), {}, {}, {}});
  imported.variants[1].summaries.push_back({"wall_time", 3, 1.5, 0.1, std::nullopt, 1.0, 2.0});
  auto ids = store->add_runs({imported}, {});
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  auto running = store->begin_run(sample_run("c0000000-0000-4000-8000-000000000003", 300));
  ASSERT_TRUE(running.ok());
  auto variant = store->add_variant(*running, sample_variant("b", "default"));
  ASSERT_TRUE(variant.ok());
  ASSERT_TRUE(store->add_instance(*variant, sample_instance(0)).ok());
  const auto counts = [&] {
    std::map<int64_t, std::pair<int, int>> out;
    auto runs = store->list_runs();
    EXPECT_TRUE(runs.ok()) << runs.error().message;
    if (runs.ok())
      for (const auto& r : *runs) out[r.id] = {r.benchmarks, r.instances};
    return out;
  };
  const auto row = [&](int64_t run) {
    return std::to_string(
               count("SELECT COUNT(*) FROM run_counts WHERE run_id = " + std::to_string(run))) +
           ":" +
           std::to_string(count("SELECT COALESCE(MAX(benchmarks * 1000 + instances), -1) FROM "
                                "run_counts WHERE run_id = " +
                                std::to_string(run)));
  };
  using Counts = std::map<int64_t, std::pair<int, int>>;
  EXPECT_EQ(counts(), (Counts{{finished, {2, 4}}, {ids->front(), {2, 1}}, {*running, {1, 1}}}));
  EXPECT_EQ(row(finished), "1:2004");
  EXPECT_EQ(row(ids->front()), "1:2001");
  EXPECT_EQ(row(*running), "0:-1");
  // An instance given to an ended run takes its row; the run is counted from its rows.
  auto later = store->add_variant(ids->front(), sample_variant("late", "default"));
  ASSERT_TRUE(later.ok());
  ASSERT_TRUE(store->add_instance(*later, sample_instance(0)).ok());
  EXPECT_EQ(row(ids->front()), "0:-1");
  EXPECT_EQ(counts()[ids->front()], (std::pair<int, int>{3, 2}));
  // Prune counts again what is left of the runs it touches.
  ASSERT_TRUE(store->prune({"a", 0}).ok());
  EXPECT_EQ(row(finished), "1:1002");
  EXPECT_EQ(row(ids->front()), "1:2001");
  ASSERT_TRUE(store->finish_run(*running, 301, "complete").ok());
  EXPECT_EQ(counts(), (Counts{{finished, {1, 2}}, {ids->front(), {2, 1}}, {*running, {1, 1}}}));
  EXPECT_EQ(row(*running), "1:1001");
  store.reset();
  auto checked = check_store(url());
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  for (const auto& p : checked->problems) ADD_FAILURE() << p.source << ": " << p.text;
}

// A database from before run_counts (0013): migrated, every ended run gets the counts its rows
// give, the running one none.
TEST_F(PgStoreTest, TheRunCountsMigrationCountsEveryEndedRun) {
  {
    auto store = open_or_die(url());
    ASSERT_TRUE(store);
    store_run(*store, "d0000000-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
    store_run(*store, "d0000000-0000-4000-8000-000000000002", 200, {"a"}, 0);
    auto conn = raw();
    ASSERT_TRUE(conn);
    // As before 0013 (and so before the columns of 0014 and 0015).
    ASSERT_TRUE(conn->exec("DROP TABLE run_counts; ALTER TABLE instances DROP COLUMN mem_source, "
                           "DROP COLUMN prepare_s, DROP COLUMN conclude_s; DELETE FROM "
                           "schema_migrations WHERE version >= 13")
                    .ok());
  }
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  EXPECT_EQ(count("SELECT COUNT(*) FROM schema_migrations"), 7);
  {
    // 0014 added the column back empty: the fixture's sources again, which the rows'
    // checksums cover.
    auto conn = raw();
    ASSERT_TRUE(conn);
    ASSERT_TRUE(conn->exec("UPDATE instances SET mem_source = CASE idx % 3 WHEN 1 THEN 'cgroup1' "
                           "WHEN 2 THEN 'sampled' ELSE '' END")
                    .ok());
  }
  EXPECT_EQ(count("SELECT benchmarks * 1000 + instances FROM run_counts WHERE run_id = 1"), 2004);
  EXPECT_EQ(count("SELECT benchmarks * 1000 + instances FROM run_counts WHERE run_id = 2"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM run_counts"), 2);
  auto checked = check_store(url());
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  for (const auto& p : checked->problems) ADD_FAILURE() << p.source << ": " << p.text;
}

// serve's cue to read the store again: whatever adds or removes a measurement moves the stamp
// and reading does not; a running run's new instance moves it while the runs' rows stay as
// they were.
TEST_P(StoreTest, MeasurementsStampMovesWithEveryAddedOrRemovedMeasurement) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  const auto stamp = [&] {
    auto s = store->measurements_stamp();
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? *s : std::string();
  };
  const std::string empty = stamp();
  store_run(*store, "f4000000-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
  store_run(*store, "f5000000-0000-4000-8000-000000000002", 200, {"a"}, 3);
  const std::string stored = stamp();
  EXPECT_NE(stored, empty);
  ASSERT_TRUE(store->load_run("latest").ok());
  ASSERT_TRUE(store->list_runs().ok());
  EXPECT_EQ(stamp(), stored);

  auto run = store->begin_run(sample_run("f6000000-0000-4000-8000-000000000003", 300));
  ASSERT_TRUE(run.ok());
  auto v = store->add_variant(*run, sample_variant("a", "default"));
  ASSERT_TRUE(v.ok());
  const std::string declared = stamp();
  EXPECT_NE(declared, stored);
  ASSERT_TRUE(store->add_instance(*v, sample_instance(0, 3)).ok());
  const std::string measured = stamp();
  EXPECT_NE(measured, declared);
  ASSERT_TRUE(store->finish_run(*run, 400, "complete").ok());
  EXPECT_EQ(stamp(), measured);  // a status is list_runs' to tell

  ASSERT_TRUE(store->prune({"b", 0}).ok());
  EXPECT_NE(stamp(), measured);
}

TEST_P(StoreTest, SeriesCacheEntriesAreKeptBesideTheirRunsAndChecked) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  const int64_t a = store_run(*store, "c1000000-0000-4000-8000-000000000001", 100, {"a", "b"}, 2);
  const int64_t b = store_run(*store, "c2000000-0000-4000-8000-000000000002", 200, {"a"}, 1);
  // Without an entry: the run in full, and no bytes.
  auto plain = store->load_cached_run(a, "k1", {.columns = true});
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_FALSE(plain->cache.has_value());
  EXPECT_EQ(plain->data.variants.size(), 2u);
  EXPECT_EQ(plain->data.variants[0].instances.size(), 2u);
  // Bytes of every value come back as they went; a second save under a key replaces the first.
  std::string bytes;
  for (int i = 0; i < 600; ++i) bytes += static_cast<char>(i % 256);
  ASSERT_TRUE(store->save_series_cache({{a, "k1", "first"}, {b, "k1", "other"}}).ok());
  ASSERT_TRUE(store->save_series_cache({{a, "k1", bytes}, {a, "k2", ""}}).ok());
  auto cached = store->load_cached_run(a, "k1", {.columns = true});
  ASSERT_TRUE(cached.ok()) << cached.error().message;
  ASSERT_TRUE(cached->cache.has_value());
  EXPECT_EQ(*cached->cache, bytes);
  EXPECT_TRUE(cached->data.variants.empty());  // the entry stands for them
  EXPECT_EQ(cached->data.id, a);
  expect_same(cached->data.run, plain->data.run);
  auto empty = store->load_cached_run(a, "k2", {});
  ASSERT_TRUE(empty.ok() && empty->cache.has_value());
  EXPECT_EQ(*empty->cache, "");
  EXPECT_EQ(count("SELECT COUNT(*) FROM series_cache"), 3);
  auto checked = check_store(url());
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_TRUE(checked->problems.empty()) << checked->problems.front().text;
  EXPECT_EQ(checked->series_cache_entries, 3);
  // A run still running has none; an unknown run neither.
  const auto running = store->begin_run(sample_run("c3000000-0000-4000-8000-000000000003", 300));
  ASSERT_TRUE(running.ok());
  const auto refused = store->save_series_cache({{*running, "k1", "x"}});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("still running"), std::string::npos);
  EXPECT_FALSE(store->save_series_cache({{9999, "k1", "x"}}).ok());
  ASSERT_TRUE(store->finish_run(*running, 301, "complete").ok());
  // A changed byte is a checksum mismatch.
  const std::string tamper = "UPDATE series_cache SET data = " +
                             std::string(database_ ? "'\\x66697273'::bytea" : "x'66697273'") +
                             " WHERE run_id = " + std::to_string(b);
  if (database_) {
    auto conn = postgres::Conn::connect(url());
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE((*conn)->exec(tamper).ok());
  } else {
    auto db = raw_db(url());
    ASSERT_TRUE(db->exec(tamper).ok());
  }
  checked = check_store(url());
  ASSERT_TRUE(checked.ok());
  ASSERT_EQ(checked->problems.size(), 1u);
  EXPECT_NE(checked->problems[0].text.find("series_cache row"), std::string::npos);
  EXPECT_EQ(checked->problems[0].source, "checksum");
  // Entries go with what prune removes: run b loses its only benchmark (and is removed), run
  // a keeps b but its entries no longer describe it.
  auto pruned = store->prune({"a", 250});
  ASSERT_TRUE(pruned.ok()) << pruned.error().message;
  EXPECT_EQ(count("SELECT COUNT(*) FROM series_cache"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM runs"), 2);
}

TEST_P(StoreTest, HistoryStatesChangesAndAcks) {
  auto store = open_or_die(url());
  ASSERT_TRUE(store);
  ChangeRecord c;
  c.id = "chg1";
  c.series_key = "b|v|wall_time|m";
  c.benchmark = "b";
  c.variant = "v";
  c.metric = "wall_time";
  c.machine = "m";
  c.method = "e-divisive";
  c.last_good = "aaa";
  c.first_bad = "bbb";
  c.first_bad_time = 123;
  c.index = 4;
  c.segment_start = 0;
  c.segment_end = 9;
  c.before = 1.0;
  c.after = 1.25;
  c.change = 0.25;
  c.change_lower = std::numeric_limits<double>::quiet_NaN();
  c.change_upper = 0.5;
  c.p_value = 0.001;
  c.kind = "regression";
  c.status = "confirmed";
  c.detected_at = 77;
  SeriesState s{c.series_key, "method=e-divisive", 10, "digest", 55};
  ASSERT_TRUE(store->save_detection({s}, {c}).ok());
  // Saving a series again replaces its change points.
  ASSERT_TRUE(store->save_detection({s}, {c}).ok());
  auto states = store->load_series_states();
  ASSERT_TRUE(states.ok());
  ASSERT_EQ(states->size(), 1u);
  EXPECT_EQ((*states)[0].digest, "digest");
  EXPECT_EQ((*states)[0].points, 10);
  auto changes = store->load_changes();
  ASSERT_TRUE(changes.ok());
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ((*changes)[0].id, "chg1");
  EXPECT_EQ((*changes)[0].after, 1.25);
  EXPECT_TRUE(std::isnan((*changes)[0].change_lower));
  EXPECT_EQ((*changes)[0].index, 4);

  auto first = store->set_ack({"chg1", "known", 10});
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(*first);
  auto second = store->set_ack({"chg1", "", 20});
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  auto acks = store->load_acks();
  ASSERT_TRUE(acks.ok());
  ASSERT_EQ(acks->size(), 1u);
  EXPECT_EQ((*acks)[0].reason, "known");  // an empty reason keeps the old one
  EXPECT_EQ((*acks)[0].acked_at, 10);     // the first time stays
  ASSERT_TRUE(store->set_ack({"chg1", "new reason", 30}).ok());
  EXPECT_EQ((*store->load_acks())[0].reason, "new reason");
  auto removed = store->remove_ack("chg1");
  ASSERT_TRUE(removed.ok());
  EXPECT_TRUE(*removed);
  auto none = store->remove_ack("chg1");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
}

TEST_F(PgStoreTest, PasswordsNeverAppearInErrors) {
  const std::string secret = "s3cr3t-pw";
  // Refused connections (TCP on a closed port), unknown databases, a password parameter.
  const std::string server = pg_server_url();
  const std::string query = server.substr(server.find('?'));
  for (const std::string& location :
       {fmt::format("postgresql://bob:{}@127.0.0.1:1/db?connect_timeout=2", secret),
        fmt::format("postgres://bob:{}@127.0.0.1:1/db?sslmode=disable", secret),
        fmt::format("postgresql:///no_such_db{}&password={}", query, secret),
        fmt::format("postgresql://benchguard:{}@/no_such_db{}", secret, query)}) {
    auto store = open_store(location);
    ASSERT_FALSE(store.ok()) << location;
    EXPECT_EQ(store.error().message.find(secret), std::string::npos) << store.error().message;
    EXPECT_NE(store.error().message.find("***"), std::string::npos) << store.error().message;
    auto checked = check_store(location);
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.error().message.find(secret), std::string::npos);
  }
  // Errors of an open store name it redacted too.
  auto store = open_store(pg_url(db_).replace(0, 14, "postgresql://benchguard:" + secret + "@/"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto missing = (*store)->load_run("nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message.find(secret), std::string::npos) << missing.error().message;

  EXPECT_EQ(store::redact_url("postgresql://u:p%40ss@h:5432/db?sslmode=require"),
            "postgresql://u:***@h:5432/db?sslmode=require");
  EXPECT_EQ(store::redact_url("postgresql://h/db?user=u&password=x&sslmode=verify-full"),
            "postgresql://h/db?user=u&password=***&sslmode=verify-full");
  EXPECT_EQ(store::redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
  EXPECT_EQ(store::scrub("failed for p@ss", store::url_secrets("postgresql://u:p%40ss@h/d")),
            "failed for ***");
}

// Credentials as libpq finds them: in the URL, in PGPASSWORD, in a password file. The
// fixture's server makes role bg_pw log in with a password.
TEST_F(PgStoreTest, CredentialsFromUrlEnvironmentAndPasswordFile) {
  if (count("SELECT COUNT(*) FROM pg_roles WHERE rolname = 'bg_pw'") != 1)
    GTEST_SKIP() << "no role bg_pw: the server was not started by tests/postgres/pg_server.sh";
  ASSERT_TRUE(raw()->exec("ALTER DATABASE " + db_ + " OWNER TO bg_pw").ok());
  const std::string secret = "bg-pw-s3cret";
  const std::string server = pg_server_url();
  const std::string host =
      server.substr(server.find("host="), server.find('&') - server.find("host="));
  const std::string bare = "postgresql://bg_pw@/" + db_ + "?" + host;
  const std::string with_password = "postgresql://bg_pw:" + secret + "@/" + db_ + "?" + host;

  {
    auto store = open_store(with_password);
    ASSERT_TRUE(store.ok()) << store.error().message;
    store_run(**store, "cred0000-0000-4000-8000-000000000001", 1, {"a"}, 1);
  }
  for (const std::string& wrong :
       {"postgresql://bg_pw:wr0ng-pw@/" + db_ + "?" + host, bare + "&password=wr0ng-pw"}) {
    auto refused = open_store(wrong);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("password authentication failed"), std::string::npos)
        << refused.error().message;
    EXPECT_EQ(refused.error().message.find("wr0ng-pw"), std::string::npos)
        << refused.error().message;
  }
  TempDir dir;
  const std::string passfile = dir.file("pgpass");
  benchguard::testing::write_file(passfile, "*:*:*:bg_pw:" + secret + "\n");
  ASSERT_EQ(chmod(passfile.c_str(), 0600), 0);
  setenv("PGPASSFILE", dir.file("none").c_str(), 1);  // no ~/.pgpass of the machine's
  EXPECT_FALSE(open_store(bare).ok());
  setenv("PGPASSWORD", secret.c_str(), 1);
  {
    auto by_env = open_store(bare, {.read_only = true});
    EXPECT_TRUE(by_env.ok()) << by_env.error().message;
  }
  unsetenv("PGPASSWORD");
  setenv("PGPASSFILE", passfile.c_str(), 1);
  {
    auto by_file = open_store(bare, {.read_only = true});
    ASSERT_TRUE(by_file.ok()) << by_file.error().message;
    auto runs = (*by_file)->list_runs();
    ASSERT_TRUE(runs.ok());
    EXPECT_EQ(runs->size(), 1u);
  }
  unsetenv("PGPASSFILE");
}

TEST_F(PgStoreTest, CheckVerifiesChecksumsAndFindsTamperedRows) {
  {
    auto store = open_or_die(url());
    ASSERT_TRUE(store);
    store_run(*store, "c4ec0000-0000-4000-8000-000000000001", 10, {"a", "b"}, 3);
    RunData imported;
    imported.run = sample_run("c4ec0000-0000-4000-8000-000000000002", 20);
    imported.run.status = "imported";
    VariantData vd;
    vd.variant = sample_variant("s", "default");
    vd.summaries.push_back({"wall_time", 3, 1.5, 0.1, std::nullopt, 1.0, 2.0});
    vd.instances = {outside_instance(0), awkward_instance(1)};
    imported.variants.push_back(vd);
    ASSERT_TRUE(store->add_runs({imported}, {}).ok());
  }
  auto clean = check_store(url());
  ASSERT_TRUE(clean.ok()) << clean.error().message;
  for (const auto& p : clean->problems) ADD_FAILURE() << p.source << ": " << p.text;
  EXPECT_EQ(clean->runs, 2);
  EXPECT_EQ(clean->variants, 3);
  EXPECT_EQ(clean->instances, 8);
  EXPECT_EQ(clean->checksums_absent, 0);
  EXPECT_GT(clean->checksums_verified, 10);
  EXPECT_EQ(clean->schema_version, sqlite::latest_schema_version());

  // A value changed behind the store's back is found, and nothing is written by checking.
  auto conn = raw();
  ASSERT_TRUE(conn);
  ASSERT_TRUE(
      conn->exec("UPDATE instances SET max_rss_bytes = max_rss_bytes + 1 WHERE id = 2").ok());
  ASSERT_TRUE(conn->exec("UPDATE run_labels SET value = 'x' WHERE id = 1").ok());
  ASSERT_TRUE(conn->exec("UPDATE run_counts SET instances = instances + 1 WHERE run_id = 2").ok());
  auto tampered = check_store(url());
  ASSERT_TRUE(tampered.ok()) << tampered.error().message;
  ASSERT_EQ(tampered->problems.size(), 3u);
  EXPECT_EQ(tampered->problems[0].text,
            "runs row 1: checksum mismatch: what it holds changed after it was stored");
  EXPECT_EQ(tampered->problems[1].text,
            "instances row 2: checksum mismatch: what it holds changed after it was stored");
  EXPECT_EQ(tampered->problems[2].text,
            "run_counts row 2: holds 1 benchmarks and 3 instances where its rows give 1 and 2");
}

}  // namespace
}  // namespace benchguard::store::testing
