// Storing and reading a million iterations: benchguard's store against a bare SQLite loop in
// the same run (the machine is shared; the ratio is the figure to read).
//   bare     one prepared INSERT per value into (instance, idx, value), one transaction
//   store    add_runs() of 10 instances x N/10 iterations of one metric, start and end times
//   import   the same as Hail JSONL text: import_text() (parse) + add_runs()
//   read     load_run() of the stored run, as records and by column (LoadOptions::columns),
//            beside a bare SELECT of the bare table
// and the bytes per stored iteration of each file. Best of 3 for each figure. Prints figures;
// asserts nothing.
//   iteration_store_bench [N]   (default 1000000)
#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include "ingest/ingest.hpp"
#include "stats/rng.hpp"
#include "store/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "iteration_store_bench: %s\n", what.c_str());
  std::exit(1);
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// `work` returns the seconds of the part it times.
double best_of_3(const std::function<double()>& work) {
  double best = 1e300;
  for (int r = 0; r < 3; ++r) best = std::min(best, work());
  return best;
}

// Times all of `work`.
double whole(const std::function<void()>& work) {
  const auto t0 = Clock::now();
  work();
  return seconds_since(t0);
}

void remove_db(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix);
}

void exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) die(err ? err : sql);
}

// The floor: what SQLite itself costs for one row per value.
void bare_insert(const fs::path& path, const std::vector<std::vector<double>>& values) {
  remove_db(path);
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) die("cannot open " + path.string());
  exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  exec(db, "CREATE TABLE v(instance INTEGER, idx INTEGER, value REAL)");
  exec(db, "BEGIN");
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO v VALUES(?,?,?)", -1, &stmt, nullptr);
  for (size_t k = 0; k < values.size(); ++k)
    for (size_t i = 0; i < values[k].size(); ++i) {
      sqlite3_bind_int64(stmt, 1, static_cast<int64_t>(k));
      sqlite3_bind_int64(stmt, 2, static_cast<int64_t>(i));
      sqlite3_bind_double(stmt, 3, values[k][i]);
      if (sqlite3_step(stmt) != SQLITE_DONE) die(sqlite3_errmsg(db));
      sqlite3_reset(stmt);
    }
  sqlite3_finalize(stmt);
  exec(db, "COMMIT");
  sqlite3_close(db);
}

double bare_read(const fs::path& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) die("cannot open " + path.string());
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "SELECT instance, idx, value FROM v", -1, &stmt, nullptr);
  double sum = 0;
  while (sqlite3_step(stmt) == SQLITE_ROW) sum += sqlite3_column_double(stmt, 2);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return sum;
}

benchguard::RunData run_of(const std::vector<std::vector<double>>& values) {
  benchguard::RunData data;
  data.run.uuid = "iteration-store-bench";
  data.run.status = "imported";
  data.run.suite = "bench";
  benchguard::VariantData v;
  v.variant.benchmark = "scaling";
  v.variant.name = "default";
  for (size_t k = 0; k < values.size(); ++k) {
    benchguard::InstanceRecord in;
    in.index = static_cast<int>(k);
    int64_t t = 0;
    for (size_t i = 0; i < values[k].size(); ++i) {
      benchguard::IterationRecord it;
      it.index = static_cast<int>(i);
      it.start_ns = t;
      t += static_cast<int64_t>(values[k][i] * 1e9);
      it.end_ns = t;
      it.metrics.emplace_back("wall_time", values[k][i]);
      in.iterations.push_back(std::move(it));
    }
    in.end_ns = t;
    v.instances.push_back(std::move(in));
  }
  data.variants.push_back(std::move(v));
  return data;
}

std::string hail_text(const std::vector<std::vector<double>>& values) {
  std::string s;
  for (const auto& instance : values) {
    s += R"({"name": "scaling", "iterations": [)";
    for (size_t i = 0; i < instance.size(); ++i)
      s += fmt::format(R"({}{{"time": {}, "is_burn_in": false, "timed_out": false}})",
                       i ? ", " : "", instance[i]);
    s += "]}\n";
  }
  return s;
}

std::unique_ptr<benchguard::store::Store> fresh_store(const fs::path& path) {
  remove_db(path);
  auto store = benchguard::store::open_store(path.string());
  if (!store.ok()) die(store.error().message);
  return std::move(store).value();
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::max<int64_t>(10, std::atoll(argv[1])) : 1'000'000;
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("bg-iteration-store-{}", static_cast<long>(getpid()));
  fs::create_directories(dir);

  benchguard::stats::Rng rng(7, 0);
  std::vector<std::vector<double>> values(10);
  for (auto& instance : values)
    for (int64_t i = 0; i < n / 10; ++i) instance.push_back(1e-3 * (1.0 + 0.05 * rng.normal()));
  const double count = static_cast<double>(10 * (n / 10));
  const benchguard::RunData data = run_of(values);
  const std::string text = hail_text(values);
  const std::vector<benchguard::MetricInfo> metrics;

  const fs::path bare_db = dir / "bare.db", store_db = dir / "store.db", import_db = dir / "i.db";
  const double bare = best_of_3([&] { return whole([&] { bare_insert(bare_db, values); }); });
  const double store = best_of_3([&] {
    std::vector<benchguard::RunData> batch{data};  // copied outside the timed part
    auto s = fresh_store(store_db);
    const auto t0 = Clock::now();
    auto ids = s->add_runs(batch, metrics);
    const double t = seconds_since(t0);
    if (!ids.ok()) die(ids.error().message);
    return t;
  });
  const double import = best_of_3([&] {
    remove_db(import_db);
    return whole([&] {
      auto imported = benchguard::ingest::import_text("bench.jsonl", text, "hail-jsonl", 1);
      if (!imported.ok()) die(imported.error().message);
      imported->data.run.uuid = "iteration-store-bench-import";
      std::vector<benchguard::RunData> batch;
      batch.push_back(std::move(imported->data));
      auto s = fresh_store(import_db);
      auto ids = s->add_runs(batch, imported->metrics);
      if (!ids.ok()) die(ids.error().message);
    });
  });
  double sink = 0;
  const double bare_read_s = best_of_3([&] { return whole([&] { sink += bare_read(bare_db); }); });
  const auto read_with = [&](const benchguard::store::LoadOptions& options) {
    return best_of_3([&] {
      return whole([&] {
        auto s = benchguard::store::open_store(store_db.string());
        if (!s.ok()) die(s.error().message);
        auto run = (*s)->load_run("iteration-store-bench", options);
        if (!run.ok()) die(run.error().message);
        sink += static_cast<double>(run->variants.at(0).instances.size());
      });
    });
  };
  const double read_s = read_with({});
  const double columns_s = read_with({.columns = true});

  const auto bytes = [&](const fs::path& p) {
    auto b = static_cast<double>(fs::file_size(p));
    if (fs::exists(p.string() + "-wal"))
      b += static_cast<double>(fs::file_size(p.string() + "-wal"));
    return b / count;
  };
  std::printf("%.0f iterations (10 instances), best of 3\n", count);
  std::printf("%-34s %9s %16s %10s\n", "", "seconds", "iterations/s", "B/iter");
  std::printf("%-34s %9.3f %16.0f %10.1f\n", "bare SQLite INSERT loop (floor)", bare, count / bare,
              bytes(bare_db));
  std::printf("%-34s %9.3f %16.0f %10.1f   %.2fx the floor's rate\n", "store: add_runs", store,
              count / store, bytes(store_db), bare / store);
  std::printf("%-34s %9.3f %16.0f %10s   %.2fx\n", "import: Hail JSONL parse + store", import,
              count / import, "", bare / import);
  std::printf("%-34s %9.3f %16.0f\n", "bare SQLite SELECT (floor)", bare_read_s,
              count / bare_read_s);
  std::printf("%-34s %9.3f %16.0f %10s   %.2fx the floor's rate\n", "read: load_run (records)",
              read_s, count / read_s, "", bare_read_s / read_s);
  std::printf("%-34s %9.3f %16.0f %10s   %.2fx the floor's rate\n", "read: load_run (columns)",
              columns_s, count / columns_s, "", bare_read_s / columns_s);
  fs::remove_all(dir);
  return sink < 0 ? 1 : 0;
}
