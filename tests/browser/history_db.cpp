// Writes a database with history for the dashboard's tests and benchmark
// (support/history_fixture.hpp).
//   history_db OUT.db [--benchmarks N] [--commits N] [--instances N] [--iterations N] [--hostile]
//              [--wide-last]   the newest run measured with 20 instances of 10 iterations (for
//              plan)
//              [--no-cache]    without the runs' series cache entries (`run` and `import` save
//              them as they store a run: analysis/series_cache.hpp)
//              [--from K]      only the runs of commits K .. COMMITS-1 (to add commits to a
//              database written before)
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/series_cache.hpp"
#include "store/store.hpp"
#include "support/history_fixture.hpp"

using namespace benchguard;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: history_db OUT.db [--benchmarks N] [--commits N] [--instances N] "
                 "[--iterations N] [--hostile] [--wide-last] [--no-cache] [--from K]\n";
    return 2;
  }
  const std::string out = argv[1];
  int benchmarks = 6, commits = 40, instances = 4, iterations = 5;
  int from = 0;
  bool hostile = false, wide_last = false, cache = true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--benchmarks")
      benchmarks = next();
    else if (a == "--commits")
      commits = next();
    else if (a == "--instances")
      instances = next();
    else if (a == "--iterations")
      iterations = next();
    else if (a == "--hostile")
      hostile = true;
    else if (a == "--wide-last")
      wide_last = true;
    else if (a == "--no-cache")
      cache = false;
    else if (a == "--from")
      from = next();
    else {
      std::cerr << "history_db: unknown option " << a << "\n";
      return 2;
    }
  }
  auto store = store::open_store(out);
  if (!store) {
    std::cerr << "history_db: " << store.error().message << "\n";
    return 1;
  }
  std::vector<RunData> batch;
  for (int k = from; k < commits; ++k) {
    const bool wide = wide_last && k + 1 == commits;
    batch.push_back(testing::history_run(k, commits, benchmarks, wide ? 20 : instances,
                                         wide ? 10 : iterations, hostile));
    if (batch.size() == 20 || k + 1 == commits) {
      auto r = (*store)->add_runs(batch, {});
      if (!r) {
        std::cerr << "history_db: " << r.error().message << "\n";
        return 1;
      }
      if (cache) {
        if (auto c = analysis::cache_run_series(**store, *r); !c) {
          std::cerr << "history_db: " << c.error().message << "\n";
          return 1;
        }
      }
      batch.clear();
    }
  }
  return 0;
}
