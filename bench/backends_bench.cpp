// The two stores side by side: instances per second stored into a SQLite file and into a
// PostgreSQL database, by one writer and by W concurrent writers (threads, each with a store
// of its own), and the time to read a run back. Same records, same machine, same run. Prints
// figures; asserts nothing but that every instance written is there once.
//   backends_bench POSTGRES_URL [N [W]]
// POSTGRES_URL names a database the bench may fill (bench/run.sh's `postgres` section starts a
// server of its own and gives a fresh database); N instances per writer (default 2000), W
// concurrent writers (default 8).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "store/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using benchguard::InstanceRecord;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One instance as the runner stores it for a program that reports its iterations: `iterations`
// iterations of three metrics each.
InstanceRecord make_instance(int index, int iterations) {
  InstanceRecord in;
  in.index = index;
  in.order = index;
  in.start_ns = int64_t{index} * 1'000'000;
  in.end_ns = in.start_ns + 900'000;
  in.exit_code = 0;
  for (int k = 0; k < iterations; ++k) {
    benchguard::IterationRecord it;
    it.index = k;
    it.start_ns = in.start_ns + int64_t{k} * 1000;
    it.end_ns = it.start_ns + 900;
    it.metrics = {{"wall_time", 9e-7}, {"cpu_time", 8e-7}, {"items", 1000.0 + k}};
    in.iterations.push_back(std::move(it));
  }
  return in;
}

std::string run_uuid(const std::string& tag, int writer) {
  char uuid[64];
  std::snprintf(uuid, sizeof uuid, "ba%06x-0000-4000-8000-%012d",
                static_cast<unsigned>(std::hash<std::string>{}(tag)&0xffffff), writer);
  return uuid;
}

// One writer: a run of `n` instances, each stored (committed) as it comes. The run's uuid is
// made of `tag` and `writer`. Returns the seconds taken, or a negative number after saying why.
double write_run(const std::string& location, const std::string& tag, int writer, int n,
                 int iterations) {
  auto store = benchguard::store::open_store(location);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    return -1;
  }
  benchguard::RunRecord run;
  run.uuid = run_uuid(tag, writer);
  run.suite = "backends-bench";
  run.started_at = 1;
  auto run_id = (*store)->begin_run(run);
  if (!run_id.ok()) return std::fprintf(stderr, "%s\n", run_id.error().message.c_str()), -1;
  benchguard::VariantRecord variant;
  variant.benchmark = "store";
  variant.name = "default";
  variant.command = {"/bin/true"};
  auto variant_id = (*store)->add_variant(*run_id, variant);
  if (!variant_id.ok()) return std::fprintf(stderr, "%s\n", variant_id.error().message.c_str()), -1;
  std::vector<InstanceRecord> instances;
  instances.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) instances.push_back(make_instance(i, iterations));
  const auto t0 = Clock::now();
  for (const auto& in : instances)
    if (auto s = (*store)->add_instance(*variant_id, in); !s.ok())
      return std::fprintf(stderr, "%s\n", s.error().message.c_str()), -1;
  const double seconds = seconds_since(t0);
  if (auto f = (*store)->finish_run(*run_id, 2, "complete"); !f.ok())
    return std::fprintf(stderr, "%s\n", f.error().message.c_str()), -1;
  return seconds;
}

struct Figures {
  double one_writer = 0;  // instances per second, one writer
  double concurrent = 0;  // instances per second, all writers together
  double load_s = 0;      // load_run of the single writer's run
  bool complete = false;  // every instance of every writer read back once
};

bool figures(const std::string& location, const std::string& tag, int n, int writers, Figures& f) {
  const double one = write_run(location, tag + "-one", 0, n, 3);
  if (one < 0) return false;
  f.one_writer = n / one;

  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(writers));
  const auto t0 = Clock::now();
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([&, w] {
      if (write_run(location, tag + "-many", w + 1, n, 3) < 0) ++failed;
    });
  for (auto& t : threads) t.join();
  const double many = seconds_since(t0);
  if (failed > 0) return false;
  f.concurrent = static_cast<double>(n) * writers / many;

  auto store = benchguard::store::open_store(location, {.read_only = true});
  if (!store.ok()) return std::fprintf(stderr, "%s\n", store.error().message.c_str()), false;
  auto runs = (*store)->list_runs();
  if (!runs.ok()) return std::fprintf(stderr, "%s\n", runs.error().message.c_str()), false;
  f.complete = runs->size() == static_cast<size_t>(writers) + 1;
  for (int w = 0; w <= writers; ++w) {
    const auto t1 = Clock::now();
    auto loaded = (*store)->load_run(run_uuid(tag + (w == 0 ? "-one" : "-many"), w));
    if (!loaded.ok()) return std::fprintf(stderr, "%s\n", loaded.error().message.c_str()), false;
    if (w == 0) f.load_s = seconds_since(t1);
    const auto& ins =
        loaded->variants.empty() ? std::vector<InstanceRecord>{} : loaded->variants[0].instances;
    bool whole = loaded->variants.size() == 1 && static_cast<int>(ins.size()) == n;
    for (size_t k = 0; whole && k < ins.size(); ++k)
      whole = ins[k].index == static_cast<int>(k) && ins[k].iterations.size() == 3;
    f.complete = f.complete && whole;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: backends_bench POSTGRES_URL [N [WRITERS]]\n");
    return 2;
  }
  const std::string url = argv[1];
  const int n = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int writers = argc > 3 ? std::atoi(argv[3]) : 8;
  if (n <= 0 || writers <= 0) {
    std::fprintf(stderr, "usage: backends_bench POSTGRES_URL [N [WRITERS]]\n");
    return 2;
  }
  char dir_template[] = "/tmp/backends_bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return 1;
  const std::string dir = dir_template;

  Figures lite, pg;
  const bool ok = figures(dir + "/bench.db", "sqlite", n, writers, lite) &&
                  figures(url, "postgres", n, writers, pg);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (!ok) return 1;

  std::printf("instances of 3 iterations x 3 metrics, %d per writer, each committed as stored\n",
              n);
  std::printf("%-36s %12s %12s %8s\n", "", "SQLite", "PostgreSQL", "PG/SQLite");
  std::printf("%-36s %12.0f %12.0f %8.2f\n", "one writer, instances/s", lite.one_writer,
              pg.one_writer, pg.one_writer / lite.one_writer);
  char label[64];
  std::snprintf(label, sizeof label, "%d concurrent writers, instances/s", writers);
  std::printf("%-36s %12.0f %12.0f %8.2f\n", label, lite.concurrent, pg.concurrent,
              pg.concurrent / lite.concurrent);
  std::printf("%-36s %12.4f %12.4f %8.2f\n", "load_run of one run, s", lite.load_s, pg.load_s,
              pg.load_s / lite.load_s);
  std::printf("every instance read back once: SQLite %s, PostgreSQL %s\n",
              lite.complete ? "yes" : "NO", pg.complete ? "yes" : "NO");
  return lite.complete && pg.complete ? 0 : 1;
}
