// Cost of storing: add_instance() for N instances of one reported iteration with 3 and with 9
// metrics, and of one iteration timed from outside (what `run -- CMD` records), next to a bare
// posix_spawn + wait4 of /bin/true, the cheapest thing benchguard measures. Prints figures; asserts
// nothing.
//   store_bench [N]
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using benchguard::InstanceRecord;

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

// CPU time of this process: on a shared machine it varies less than wall time.
double cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

InstanceRecord make_instance(int index, size_t metrics) {
  static const char* const kNames[] = {"wall_time",  "cpu_time",     "max_rss",
                                       "user_time",  "sys_time",     "peak_memory",
                                       "avg_memory", "instructions", "cycles"};
  InstanceRecord in;
  in.index = index;
  in.order = index;
  in.start_ns = index * 1000;
  in.end_ns = in.start_ns + 900;
  in.exit_code = 0;
  in.instructions = 123456;
  benchguard::IterationRecord it;
  it.start_ns = in.start_ns;
  it.end_ns = in.end_ns;
  for (size_t m = 0; m < metrics && m < std::size(kNames); ++m)
    it.metrics.emplace_back(kNames[m], 1e-3 * static_cast<double>(m + 1));
  if (metrics == 0) {  // timed from outside
    it.metrics = benchguard::outside_metrics(in);
    in.timed_outside = true;
  }
  in.iterations.push_back(it);
  return in;
}

struct Timing {
  double mean_us = 0, median_us = 0, max_us = 0, cpu_us = 0;
};

std::nullopt_t report(const benchguard::Error& e) {
  std::fprintf(stderr, "%s\n", e.message.c_str());
  return std::nullopt;
}

// Stores n instances into a fresh database at path; nullopt (after saying why) on error.
std::optional<Timing> time_add_instance(const std::string& path, int n, size_t metrics) {
  auto store = benchguard::store::open_store(path);
  if (!store.ok()) return report(store.error());
  benchguard::RunRecord run;
  run.uuid = "store-bench";
  auto run_id = (*store)->begin_run(run);
  if (!run_id.ok()) return report(run_id.error());
  benchguard::VariantRecord variant;
  variant.benchmark = "true";
  variant.command = {"/bin/true"};
  auto variant_id = (*store)->add_variant(*run_id, variant);
  if (!variant_id.ok()) return report(variant_id.error());

  std::vector<InstanceRecord> instances;
  for (int i = 0; i < n; ++i) instances.push_back(make_instance(i, metrics));
  std::vector<double> each;
  const auto wall0 = Clock::now();
  const double cpu0 = cpu_us();
  for (const auto& in : instances) {
    const auto t0 = Clock::now();
    if (auto s = (*store)->add_instance(*variant_id, in); !s.ok()) return report(s.error());
    each.push_back(us_since(t0));
  }
  Timing t;
  t.mean_us = us_since(wall0) / n;
  t.cpu_us = (cpu_us() - cpu0) / n;
  t.median_us = median(each);
  t.max_us = *std::max_element(each.begin(), each.end());
  return t;
}

double spawn_true_us() {
  char arg0[] = "/bin/true";
  char* argv[] = {arg0, nullptr};
  const auto t0 = Clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv, environ) != 0) return 0;
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  return us_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: store_bench [N]\n");
    return 2;
  }
  char dir_template[] = "/tmp/store_bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return 1;
  const std::string dir = dir_template;

  std::vector<double> spawns;
  for (int i = 0; i < std::min(n, 200); ++i) spawns.push_back(spawn_true_us());
  const double spawn = median(spawns);
  std::printf("spawn + wait4 of /bin/true, median of %zu: %.1f us\n", spawns.size(), spawn);

  int rc = 0;
  for (size_t metrics : {3u, 9u, 0u}) {
    const std::string path = dir + "/m" + std::to_string(metrics) + ".db";
    const auto t = time_add_instance(path, n, metrics);
    if (!t) {
      rc = 1;
      break;
    }
    const std::string what = metrics == 0 ? "1 iteration timed from outside"
                                          : "1 iteration x " + std::to_string(metrics) + " metrics";
    std::printf(
        "add_instance, %s, %d instances: mean %.1f us, median %.1f us, max %.1f us, cpu %.1f "
        "us; mean = %.1f%% of a spawn\n",
        what.c_str(), n, t->mean_us, t->median_us, t->max_us, t->cpu_us,
        100.0 * t->mean_us / spawn);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return rc;
}
