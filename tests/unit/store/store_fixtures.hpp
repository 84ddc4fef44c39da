// Shared by the store tests: records with every field set to a distinctive value, field by
// field comparison, and raw access to a database file.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "core/model.hpp"
#include "store/sqlite/db.hpp"
#include "store/sqlite/migrate.hpp"
#include "store/store.hpp"

namespace benchguard::store::testing {

inline RunRecord sample_run(const std::string& uuid, int64_t started_at) {
  RunRecord r;
  r.uuid = uuid;
  r.started_at = started_at;
  r.status = "running";
  r.suite = "quick \"suite\"";
  r.suite_path = "/suites/quick.yml";
  r.hostname = "host-\xc3\xa9";  // UTF-8
  r.git_commit = "0123456789abcdef0123456789abcdef01234567";
  r.git_branch = "feature/x";
  r.git_dirty = true;
  r.command_line = "benchguard run quick.yml --label 'a b'";
  r.labels = {{"zeta", "1"}, {"alpha", ""}, {"zeta", "2"}};  // order and repeats kept
  r.artifacts = {{"cpu", "Intel\nXeon"}, {"kernel", "6.1"}};
  return r;
}

inline VariantRecord sample_variant(const std::string& benchmark, const std::string& name) {
  VariantRecord v;
  v.benchmark = benchmark;
  v.name = name;
  v.command = {"/bin/sh", "-c", "echo \"$X\" && sleep 0", ""};
  v.params = {{"size", "10"}, {"algo", "quick"}};  // not in key order
  v.env = {{"X", "1"}, {"LANG", "C"}};
  v.config_json = R"({"instances":5,"iterations":3})";
  return v;
}

// An instance whose iterations carry three metrics each; odd indices fail.
inline InstanceRecord sample_instance(int index, int iterations = 2) {
  InstanceRecord in;
  in.index = index;
  in.order = 100 + index;
  in.start_ns = 1'000'000'000LL * index + 17;
  in.end_ns = in.start_ns + 123'456'789;
  in.started_at = 1'700'000'000'000'000'000LL + index;
  in.exit_code = index % 2 ? -1 : 0;
  in.signal = index % 2 ? 9 : 0;
  in.timed_out = index % 2 == 1;
  in.failure = index % 2 ? "killed by signal 9 (SIGKILL)" : "";
  in.user_s = 0.1 + 0.2;
  in.sys_s = 5e-324;  // smallest subnormal
  in.max_rss_bytes = 123456789012LL;
  in.mem_peak_bytes = 42;
  in.mem_avg_bytes = 41.75;
  in.mem_samples = 7;
  in.rss_floor_bytes = index % 2 ? 0 : 17'000'000;                               // 0: not recorded
  in.mem_source = index % 3 == 0 ? "" : index % 3 == 1 ? "cgroup1" : "sampled";  // "": not recorded
  in.prepare_s = index % 2 ? 0 : 0.05 + 1e-9;                                    // 0: no hook
  in.conclude_s = index % 2 ? 0 : 1.0 / 3;
  if (index % 2 == 0) {
    in.instructions = std::numeric_limits<int64_t>::max();
    in.cycles = 0;  // set, but zero: must not come back unset
    // In the order measured, which is not the metrics table's.
    in.counts = {{"ll_misses", 0}, {"l1_misses", 7605}, {"estimated_cycles", 1LL << 62}};
  }
  in.cpus = "0,2-3";
  in.schedule_tag = index % 2 ? "BA" : "AB";
  in.schedule = index % 2 ? "sync-duet" : "duet";
  for (int i = 0; i < iterations; ++i) {
    IterationRecord it;
    it.index = i;
    it.start_ns = in.start_ns + i * 1000;
    it.end_ns = it.start_ns + 999;
    it.burn_in = i == 0;
    it.timed_out = i == 2;
    it.failure = i == 2 ? "iteration timed out" : "";
    it.metrics = {{"wall_time", 1.0 / 3.0 + i}, {"zz_custom", -2.5e300}, {"cycles", 1e6}};
    in.iterations.push_back(std::move(it));
  }
  return in;
}

inline void expect_same_double(double a, double b, const std::string& what) {
  if (std::isnan(a) || std::isnan(b))
    EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << what;
  else
    EXPECT_EQ(a, b) << what;  // exact: the store must not lose bits
}

inline void expect_same(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(a.uuid, b.uuid);
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.finished_at, b.finished_at);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.suite, b.suite);
  EXPECT_EQ(a.suite_path, b.suite_path);
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.git_commit, b.git_commit);
  EXPECT_EQ(a.git_branch, b.git_branch);
  EXPECT_EQ(a.git_dirty, b.git_dirty);
  EXPECT_EQ(a.command_line, b.command_line);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.artifacts, b.artifacts);
}

inline void expect_same(const VariantRecord& a, const VariantRecord& b) {
  EXPECT_EQ(a.benchmark, b.benchmark);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.command, b.command);
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.config_json, b.config_json);
}

inline void expect_same(const IterationRecord& a, const IterationRecord& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.burn_in, b.burn_in);
  EXPECT_EQ(a.timed_out, b.timed_out);
  EXPECT_EQ(a.failure, b.failure);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].first, b.metrics[i].first);
    expect_same_double(a.metrics[i].second, b.metrics[i].second, a.metrics[i].first);
  }
}

// The instance's own fields, its iterations left out.
inline void expect_same_fields(const InstanceRecord& a, const InstanceRecord& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.exit_code, b.exit_code);
  EXPECT_EQ(a.signal, b.signal);
  EXPECT_EQ(a.timed_out, b.timed_out);
  EXPECT_EQ(a.failure, b.failure);
  expect_same_double(a.user_s, b.user_s, "user_s");
  expect_same_double(a.sys_s, b.sys_s, "sys_s");
  EXPECT_EQ(a.max_rss_bytes, b.max_rss_bytes);
  EXPECT_EQ(a.mem_peak_bytes, b.mem_peak_bytes);
  expect_same_double(a.mem_avg_bytes, b.mem_avg_bytes, "mem_avg_bytes");
  EXPECT_EQ(a.mem_samples, b.mem_samples);
  EXPECT_EQ(a.rss_floor_bytes, b.rss_floor_bytes);
  EXPECT_EQ(a.mem_source, b.mem_source);
  expect_same_double(a.prepare_s, b.prepare_s, "prepare_s");
  expect_same_double(a.conclude_s, b.conclude_s, "conclude_s");
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.counts, b.counts);
  EXPECT_EQ(a.cpus, b.cpus);
  EXPECT_EQ(a.schedule_tag, b.schedule_tag);
  EXPECT_EQ(a.schedule, b.schedule);
  EXPECT_EQ(a.timed_outside, b.timed_outside);
}

inline void expect_same(const InstanceRecord& a, const InstanceRecord& b) {
  expect_same_fields(a, b);
  ASSERT_EQ(a.iterations.size(), b.iterations.size());
  for (size_t i = 0; i < a.iterations.size(); ++i) expect_same(a.iterations[i], b.iterations[i]);
}

// Opens a store, failing the test with the store's message if it cannot.
inline std::unique_ptr<Store> open_or_die(const std::string& path, const OpenOptions& o = {}) {
  auto store = open_store(path, o);
  EXPECT_TRUE(store.ok()) << store.error().message;
  return store.ok() ? std::move(store).value() : nullptr;
}

// A raw connection for poking at a file the way another program (or an older benchguard)
// would.
inline std::unique_ptr<sqlite::Db> raw_db(const std::string& path) {
  auto db = sqlite::Db::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  EXPECT_TRUE(db.ok()) << db.error().message;
  return db.ok() ? std::move(db).value() : nullptr;
}

inline int64_t count_rows(sqlite::Db& db, const std::string& table) {
  auto n = db.query_int("SELECT COUNT(*) FROM " + table);
  EXPECT_TRUE(n.ok()) << n.error().message;
  return n.ok() ? *n : -1;
}

// Rows as the version-1 schema holds them, written with plain SQL so the test does not
// depend on today's writer.
inline constexpr const char* kVersion1Data = R"sql(
INSERT INTO runs(uuid, started_at, finished_at, status, suite, suite_path, hostname,
                 git_commit, git_branch, git_dirty, command_line)
  VALUES('0ld00000-0000-4000-8000-000000000001', 1000, 2000, 'complete', 'old', 'old.yml',
         'oldhost', 'cafe', 'main', 1, 'benchguard run old.yml');
INSERT INTO run_labels(run_id, key, value) VALUES(1, 'ci', 'yes');
INSERT INTO artifacts(run_id, key, value) VALUES(1, 'cpu', 'x86');
INSERT INTO benchmarks(name) VALUES('sleep');
INSERT INTO metrics(name, unit, direction) VALUES('wall_time', 's', 'lower');
INSERT INTO variants(run_id, benchmark_id, name, command, params, env, config_json)
  VALUES(1, 1, 'default', '["sleep","0"]', '{"n":"1"}', '{}', '{}');
INSERT INTO instances(variant_id, idx, schedule_order, start_ns, end_ns, started_at, exit_code,
                      failure, instructions)
  VALUES(1, 0, 0, 10, 20, 1000, 0, NULL, 555);
INSERT INTO iterations(instance_id, idx, start_ns, end_ns, burn_in, failure)
  VALUES(1, 0, 10, 20, 1, 'slow');
INSERT INTO metric_values(iteration_id, metric_id, value) VALUES(1, 1, 1.5e-8);
)sql";

inline void make_version1_database(const std::string& path) {
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  auto migrated = sqlite::apply_migrations(*db, 1);
  ASSERT_TRUE(migrated.ok()) << migrated.error().message;
  ASSERT_TRUE(db->exec(kVersion1Data).ok());
  auto version = db->query_int("PRAGMA user_version");
  ASSERT_TRUE(version.ok());
  ASSERT_EQ(*version, 1);
}

// The instance store_run stores at `index`: sample_instance without hook times, so that a test
// may take the database back to before 0014.
inline InstanceRecord run_instance(int index) {
  InstanceRecord in = sample_instance(index);
  in.prepare_s = in.conclude_s = 0;
  return in;
}

// Stores a run with `variants` variants of `instances` instances each (run_instance); returns
// the run id.
inline int64_t store_run(Store& store, const std::string& uuid, int64_t started_at,
                         const std::vector<std::string>& benchmarks, int instances) {
  auto run = store.begin_run(sample_run(uuid, started_at));
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run.ok()) return 0;
  for (const auto& b : benchmarks) {
    auto v = store.add_variant(*run, sample_variant(b, "default"));
    EXPECT_TRUE(v.ok()) << v.error().message;
    if (!v.ok()) return 0;
    for (int i = 0; i < instances; ++i) {
      auto s = store.add_instance(*v, run_instance(i));
      EXPECT_TRUE(s.ok()) << s.error().message;
    }
  }
  auto f = store.finish_run(*run, started_at + 1, "complete");
  EXPECT_TRUE(f.ok()) << f.error().message;
  return *run;
}

}  // namespace benchguard::store::testing
