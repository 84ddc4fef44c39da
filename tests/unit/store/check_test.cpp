// `db check` (check_store): a sound database passes; broken invariants, references and
// changed values are each reported as one line naming the row; single flipped bits in a real
// database file are mostly found.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;
using benchguard::testing::read_file;
using benchguard::testing::run_cli;
using benchguard::testing::TempDir;
using benchguard::testing::write_file;
using namespace benchguard::store::testing;

constexpr OpenOptions kReadOnly{.create = false, .migrate = true, .read_only = true};

std::string problems_text(const CheckReport& r) {
  std::string out;
  for (const auto& p : r.problems) out += p.text + "\n";
  return out;
}

bool reported(const CheckReport& r, const std::string& line) {
  for (const auto& p : r.problems)
    if (p.text == line) return true;
  return false;
}

// A database as `benchguard run` and `import` leave it.
void make_real_database(const TempDir& dir, const std::string& path) {
  ASSERT_EQ(run_cli({"run", "-q", "--instances", "4", "--db", path, "--", "/bin/true"}).exit_code,
            0);
  std::vector<std::string> import = {"import", "--db", path};
  for (const char* f : {"gbench-repetitions.json", "hyperfine-two.json", "pytest-benchmark.json"})
    import.push_back(std::string(BG_SOURCE_DIR) + "/tests/data/ingest/" + f);
  const auto imported = run_cli(import);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  (void)dir;
}

TEST(DbCheck, ASoundDatabasePasses) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "40000000-0000-4000-8000-000000000001", 1000, {"x", "y"}, 3);
    InstanceRecord outside = sample_instance(0, 0);
    outside.timed_outside = true;
    RunData imported{0, sample_run("40000000-0000-4000-8000-000000000002", 2000), {}};
    imported.run.status = "imported";
    imported.variants.push_back({sample_variant("z", "default"), {outside}, {}, {}, {}});
    ASSERT_TRUE(store->add_runs({imported}, {}).ok());
  }
  ASSERT_NO_FATAL_FAILURE(make_real_database(dir, path));
  const std::string before = read_file(path);
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->problems.empty()) << problems_text(*r);
  EXPECT_EQ(r->runs, 6);  // two here, one run, three imported
  EXPECT_GT(r->instances, 10);
  EXPECT_EQ(r->checksums_absent, 0);
  // Runs, variants, instances, metrics, the writers of the runs `run` measured, and the series
  // cache entries `run` and `import` saved (one per run they stored).
  auto raw = raw_db(path);
  ASSERT_TRUE(raw);
  EXPECT_EQ(r->series_cache_entries, 4);
  EXPECT_EQ(count_rows(*raw, "series_cache"), 4);
  EXPECT_EQ(r->checksums_verified,
            r->runs + r->variants + r->instances + count_rows(*raw, "metrics") +
                count_rows(*raw, "run_writers") + count_rows(*raw, "series_cache"));
  EXPECT_EQ(read_file(path), before);
}

TEST(DbCheck, DerivesTheSeriesCacheAgainAndNamesAnEntryItsRunNoLongerGives) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(make_real_database(dir, path));
  const auto clean = run_cli({"db", "check", "--db", path});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("; 4 series cache entries derived again"), std::string::npos)
      << clean.out;
  // Run 1's entry replaced by run 2's, through the store: its checksum holds, its bytes do not
  // describe run 1.
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    const std::string key = "history/3 burn-in=auto";
    auto two = store->load_cached_run(2, key, {});
    ASSERT_TRUE(two.ok() && two->cache.has_value());
    ASSERT_TRUE(store->save_series_cache({{1, key, *two->cache}}).ok());
  }
  const auto wrong = run_cli({"db", "check", "--db", path});
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
  EXPECT_NE(wrong.out.find("run 1 ("), std::string::npos) << wrong.out;
  EXPECT_NE(wrong.out.find("its series cache entry differs from what its instances give"),
            std::string::npos)
      << wrong.out;
  EXPECT_NE(wrong.out.find(": 1 problem(s) found"), std::string::npos) << wrong.out;
  // The remedy it names.
  const auto again = run_cli({"db", "cache", "--db", path});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("series cache of 4 run(s) derived and saved"), std::string::npos)
      << again.out;
  EXPECT_EQ(run_cli({"db", "check", "--db", path}).exit_code, 0);
}

TEST(DbCheck, EachBrokenInvariantIsOneLineNamingTheRow) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "40000000-0000-4000-8000-000000000003", 1000, {"x"}, 3);
    store_run(*store, "40000000-0000-4000-8000-000000000004", 5000, {"y"}, 2);
  }
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("UPDATE runs SET finished_at = 10 WHERE id = 1;"
                         "UPDATE runs SET status = 'runnin' WHERE id = 2;"
                         "UPDATE instances SET end_ns = start_ns - 5 WHERE id = 1;"
                         "UPDATE instances SET idx = 7 WHERE id = 3;"
                         "UPDATE instances SET user_s = -1.5 WHERE id = 4;"
                         // -2.0, little-endian, as the first wall time of instance 2
                         "UPDATE iteration_values SET data = X'00000000000000C0' || "
                         "substr(data, 9) WHERE instance_id = 2 AND "
                         "metric_id = (SELECT id FROM metrics WHERE name = 'wall_time');"
                         "UPDATE instances SET max_rss_bytes = 'lots' WHERE id = 5;"
                         "PRAGMA foreign_keys = OFF;"
                         "INSERT INTO iteration_blocks(instance_id, count, start_ns, end_ns) "
                         "VALUES(999, 1, zeroblob(8), zeroblob(8));")
                    .ok());
  }
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string all = problems_text(*r);
  EXPECT_TRUE(reported(*r, "runs row 1: finished before it started (-990 ns)")) << all;
  EXPECT_TRUE(reported(*r,
                       "runs row 2: status 'runnin' is not one of running, complete, failed, "
                       "interrupted, imported"))
      << all;
  EXPECT_TRUE(reported(*r, "instances row 1: ends before it starts (-5 ns)")) << all;
  EXPECT_TRUE(reported(*r,
                       "variants row 1: instance indexes have gaps (3 instances, highest "
                       "index 7)"))
      << all;
  EXPECT_TRUE(reported(*r,
                       "instances row 4: CPU time is negative (-1.5 s user, 5.0e-324 s "
                       "system)") ||
              all.find("instances row 4: CPU time is negative") != std::string::npos)
      << all;
  EXPECT_TRUE(reported(*r,
                       "iteration_blocks row 2: iteration 0: a built-in metric is negative or "
                       "infinite (wall_time = -2)"))
      << all;
  EXPECT_TRUE(reported(*r,
                       "instances row 5: max_rss_bytes holds a value of type text, not "
                       "integer"))
      << all;
  EXPECT_TRUE(
      reported(*r, "iteration_blocks row 999: refers to a instances row that does not exist"))
      << all;
  // Changed values no longer match their checksums.
  EXPECT_TRUE(reported(*r,
                       "runs row 1: checksum mismatch: what it holds changed after it was "
                       "stored"))
      << all;
  EXPECT_TRUE(reported(*r,
                       "instances row 4: checksum mismatch: what it holds changed after it "
                       "was stored"))
      << all;
  for (const auto& p : r->problems) EXPECT_EQ(p.text.find('\n'), std::string::npos);
}

// Arrays whose length disagrees with their count: found by the invariants, and the run that
// holds them is named as unreadable rather than read wrong.
TEST(DbCheck, ArraysOfTheWrongLengthAreNamed) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    store_run(*store, "40000000-0000-4000-8000-000000000005", 1000, {"x"}, 2);
  }
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("UPDATE iteration_blocks SET end_ns = substr(end_ns, 1, 8) WHERE "
                         "instance_id = 1;")
                    .ok());
  }
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string all = problems_text(*r);
  EXPECT_TRUE(reported(*r,
                       "iteration_blocks row 1: arrays do not match its count (2 iterations; "
                       "start_ns 16, end_ns 8, idx -, flags 2 bytes)"))
      << all;
  EXPECT_NE(all.find("its measurements cannot be read: iteration_blocks row 1: end_ns holds 8 "
                     "bytes for 2 iterations"),
            std::string::npos)
      << all;
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  auto run = store->load_run("1");
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("iteration_blocks row 1: end_ns holds 8 bytes"),
            std::string::npos)
      << run.error().message;
}

TEST(DbCheck, RowsStoredBeforeChecksumsAreNotedNotFlagged) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(path));
  { ASSERT_TRUE(open_or_die(path)); }  // migrated: the old rows have no checksum
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->problems.empty()) << problems_text(*r);
  EXPECT_EQ(r->checksums_absent, 4);  // its run, variant, instance and metric
  ASSERT_FALSE(r->notes.empty());
}

// A file at an older schema (as a failed `db migrate` leaves it, or one never opened to
// write): its structure and schema as they are, its rows as migrated, in a copy; the file
// itself is not changed.
TEST(DbCheck, AnOlderSchemaIsCheckedAsMigratedWithoutChangingTheFile) {
  TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(make_version1_database(path));
  auto r = check_store(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->problems.empty()) << problems_text(*r);
  EXPECT_EQ(r->schema_version, 1);
  EXPECT_EQ(r->runs, 1);
  EXPECT_EQ(r->instances, 1);
  bool noted = false;
  for (const auto& n : r->notes) noted |= n.find("schema version 1 is older") != std::string::npos;
  EXPECT_TRUE(noted);
  {
    auto db = raw_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->query_int("PRAGMA user_version"), 1);
    // A broken row of the old file is still found: an instance that ends before it starts.
    ASSERT_TRUE(db->exec("UPDATE instances SET end_ns = 5 WHERE id = 1").ok());
  }
  auto broken = check_store(path);
  ASSERT_TRUE(broken.ok()) << broken.error().message;
  EXPECT_NE(problems_text(*broken).find("ends before it starts"), std::string::npos)
      << problems_text(*broken);
}

TEST(DbCheck, UnreadableFilesAreErrors) {
  TempDir dir;
  write_file(dir.file("notes.db"), "not a database at all\n");
  auto a = check_store(dir.file("notes.db"));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ExitCode::kInput);
  auto b = check_store(dir.file("absent.db"));
  ASSERT_FALSE(b.ok());
  EXPECT_FALSE(fs::exists(dir.file("absent.db")));
}

// How a flipped bit shows: refused or failing on open, found by the check, or unnoticed; and
// whether it changed what the database holds at all (a bit in unused space changes nothing).
struct FlipOutcome {
  bool noticed_by_reading = false;  // opening read-only and reading every run fails
  bool found_by_check = false;      // check_store fails or reports a problem
  bool found_by_sqlite = false;     // ... by SQLite's integrity or foreign key check alone
  bool changes_content = false;     // some table reads back different (or cannot be read)
};

// Every row of every table, values exact (a REAL by its bits), or "" when the file cannot
// be read.
std::string dump(const std::string& path) {
  auto db = sqlite::Db::open(path, SQLITE_OPEN_READONLY,
                             "file://" + fs::absolute(path).string() + "?immutable=1");
  if (!db.ok()) return "";
  sqlite3* h = (*db)->handle();
  auto rows = [&](const std::string& sql, std::string& out) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      sqlite3_finalize(st);
      return false;
    }
    int rc = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const int type = sqlite3_column_type(st, c);
        out += std::to_string(type) + ":";
        if (type == SQLITE_INTEGER) {
          out += std::to_string(sqlite3_column_int64(st, c));
        } else if (type == SQLITE_FLOAT) {
          const double v = sqlite3_column_double(st, c);
          uint64_t bits = 0;
          std::memcpy(&bits, &v, sizeof bits);
          out += std::to_string(bits);
        } else if (type != SQLITE_NULL) {
          const auto* p = static_cast<const char*>(sqlite3_column_blob(st, c));
          out.append(p == nullptr ? "" : p, static_cast<size_t>(sqlite3_column_bytes(st, c)));
        }
        out += '\x1f';
      }
      out += '\n';
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
  };
  std::string tables;
  if (!rows("SELECT name, type, sql FROM sqlite_master ORDER BY name", tables)) return "";
  std::string out = tables;
  sqlite3_stmt* st = nullptr;
  std::vector<std::string> names;
  if (sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1,
                         &st, nullptr) != SQLITE_OK)
    return "";
  while (sqlite3_step(st) == SQLITE_ROW)
    names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  for (const auto& name : names)
    if (!rows("SELECT * FROM \"" + name + "\"", out)) return "";
  return out;
}

FlipOutcome flip_outcome(const std::string& path, const std::string& original_dump) {
  FlipOutcome o;
  const std::string d = dump(path);
  o.changes_content = d.empty() || d != original_dump;
  auto store = open_store(path, kReadOnly);
  if (!store.ok()) {
    o.noticed_by_reading = true;
  } else {
    auto runs = (*store)->list_runs();
    if (!runs.ok()) o.noticed_by_reading = true;
    if (runs.ok())
      for (const auto& r : *runs)
        if (!(*store)->load_run(std::to_string(r.id)).ok()) o.noticed_by_reading = true;
  }
  auto r = check_store(path);
  o.found_by_check = !r.ok() || !r->problems.empty();
  if (!r.ok()) {
    o.found_by_sqlite = true;
  } else {
    for (const auto& p : r->problems)
      if (p.source == "integrity" || p.source == "foreign_key") o.found_by_sqlite = true;
  }
  return o;
}

TEST(DbCheck, FindsMostSingleBitFlipsInARealDatabase) {
  TempDir dir;
  const std::string original = dir.file("real.db");
  ASSERT_NO_FATAL_FAILURE(make_real_database(dir, original));
  ASSERT_FALSE(fs::exists(original + "-wal"));
  const std::string bytes = read_file(original);
  const std::string original_dump = dump(original);
  ASSERT_FALSE(original_dump.empty());
  {
    auto clean = check_store(original);
    ASSERT_TRUE(clean.ok());
    ASSERT_TRUE(clean->problems.empty()) << problems_text(*clean);
  }

  constexpr int kFlips = 1000;
  std::mt19937_64 rng(20240611);
  int by_reading = 0, by_sqlite = 0, by_check = 0, changing = 0, changing_found = 0;
  int changing_read = 0, silently_wrong = 0, harmless = 0;
  const std::string copy = dir.file("flipped.db");
  for (int i = 0; i < kFlips; ++i) {
    const uint64_t bit = rng() % (bytes.size() * 8);
    std::string flipped = bytes;
    flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
    write_file(copy, flipped);
    const FlipOutcome o = flip_outcome(copy, original_dump);
    by_reading += o.noticed_by_reading;
    by_sqlite += o.found_by_sqlite;
    by_check += o.found_by_check;
    changing += o.changes_content;
    changing_found += o.changes_content && o.found_by_check;
    changing_read += o.changes_content && o.noticed_by_reading;
    silently_wrong += o.changes_content && !o.found_by_check;
    harmless += !o.changes_content && !o.found_by_check;
    if (o.changes_content && !o.found_by_check) {
      // Say what changed, around the first difference of the dumps.
      const std::string d = dump(copy);
      size_t k = 0;
      while (k < d.size() && k < original_dump.size() && d[k] == original_dump[k]) ++k;
      const size_t from = k > 60 ? k - 60 : 0;
      ADD_FAILURE() << "a flip of bit " << bit % 8 << " of byte " << bit / 8
                    << " changed what the database holds and db check found nothing: was ["
                    << original_dump.substr(from, 120) << "], now [" << d.substr(from, 120) << "]";
    }
    fs::remove(copy);
  }
  std::printf(
      "[ bit flips ] %d single-bit flips in a %zu-byte database, %d of which change what it "
      "holds. Noticed by opening and reading every run: %d (%d of the %d); by SQLite's "
      "integrity and foreign key checks: %d; by db check: %d (%d of the %d)\n",
      kFlips, bytes.size(), changing, by_reading, changing_read, changing, by_sqlite, by_check,
      changing_found, changing);
  std::printf(
      "[ bit flips ] tally: found by db check %d, harmless (nothing held changed) %d, "
      "silently wrong %d\n",
      by_check, harmless, silently_wrong);
  // Measured (docs/store.md): 1,000 flips, db check found every one that changed content.
  EXPECT_GE(by_check, by_sqlite);
  EXPECT_GE(by_check, by_reading);
  EXPECT_GE(by_check, 50);
  EXPECT_EQ(silently_wrong, 0);
}

}  // namespace
}  // namespace benchguard::store
