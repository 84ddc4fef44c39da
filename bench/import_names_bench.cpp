// Import cost against the number of distinct benchmark names: a go test -bench file and a
// hyperfine JSON with N names, parsed (import_text) and stored (add_runs into a new SQLite
// file). Linear means the cost per name stays flat as N grows: the figure to read is the
// per-name cost at the largest N over that at the smallest, measured in the same run.
// Prints figures; asserts nothing.
//   import_names_bench [MAX_N]   (default 100000)
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingest.hpp"
#include "store/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string go_bench_text(int n) {
  std::string s = "goos: linux\ngoarch: amd64\npkg: example.com/p\n";
  for (int i = 0; i < n; ++i)
    s += fmt::format("BenchmarkName{}-8   \t 1000\t {} ns/op\n", i, 100 + i % 17);
  s += "PASS\nok  \texample.com/p\t1.0s\n";
  return s;
}

std::string hyperfine_text(int n) {
  std::string s = "{\"results\": [";
  for (int i = 0; i < n; ++i)
    s += fmt::format("{}{{\"command\": \"cmd {}\", \"times\": [0.01, 0.011, 0.012]}}",
                     i == 0 ? "" : ",", i);
  return s + "]}";
}

struct Figure {
  double parse_s = 0;
  double store_s = 0;
};

Figure measure(const std::string& format, const std::string& text,
               const std::filesystem::path& dir) {
  Figure f;
  const auto t0 = Clock::now();
  auto imp = benchguard::ingest::import_text("bench." + format, text, format, 1);
  f.parse_s = seconds_since(t0);
  if (!imp.ok()) {
    std::fprintf(stderr, "import failed: %s\n", imp.error().message.c_str());
    std::exit(1);
  }
  const auto db = dir / fmt::format("{}-{}.db", format, text.size());
  auto store = benchguard::store::open_store(db.string());
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    std::exit(1);
  }
  imp->data.run.uuid = fmt::format("bench-{}-{}", format, text.size());
  const auto t1 = Clock::now();
  auto ids = (*store)->add_runs({imp->data}, imp->metrics);
  f.store_s = seconds_since(t1);
  if (!ids.ok()) {
    std::fprintf(stderr, "store failed: %s\n", ids.error().message.c_str());
    std::exit(1);
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const int max_n = argc > 1 ? std::max(1000, std::atoi(argv[1])) : 100000;
  const auto dir = std::filesystem::temp_directory_path() /
                   fmt::format("bg-import-names-{}", static_cast<long>(getpid()));
  std::filesystem::create_directories(dir);
  std::vector<int> sizes;
  for (int n = 1000; n <= max_n; n *= 10) sizes.push_back(n);

  std::printf("%-10s %8s %10s %10s %14s %14s\n", "format", "names", "parse s", "store s",
              "parse us/name", "store us/name");
  for (const std::string format : {"go", "hyperfine"}) {
    std::vector<Figure> figures;
    for (int n : sizes) {
      const std::string text = format == "go" ? go_bench_text(n) : hyperfine_text(n);
      const Figure f = measure(format, text, dir);
      figures.push_back(f);
      std::printf("%-10s %8d %10.3f %10.3f %14.2f %14.2f\n", format.c_str(), n, f.parse_s,
                  f.store_s, f.parse_s / n * 1e6, f.store_s / n * 1e6);
    }
    const double small = sizes.front(), large = sizes.back();
    std::printf(
        "%-10s per-name cost at %d names over that at %d: parse %.2fx, store %.2fx "
        "(linear: about 1)\n",
        format.c_str(), sizes.back(), sizes.front(),
        (figures.back().parse_s / large) / (figures.front().parse_s / small),
        (figures.back().store_s / large) / (figures.front().store_s / small));
  }
  std::filesystem::remove_all(dir);
  return 0;
}
