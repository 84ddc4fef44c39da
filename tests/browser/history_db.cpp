// Writes a database with history for the dashboard's tests and benchmark
// (support/history_fixture.hpp).
//   history_db OUT.db [--benchmarks N] [--commits N] [--instances N] [--iterations N] [--hostile]
//              [--wide-last]   the newest run measured with 20 instances of 10 iterations (for
//              plan)
//              [--no-cache]    without the runs' series cache entries (`run` and `import` save
//              them as they store a run: analysis/series_cache.hpp)
//              [--from K]      only the runs of commits K .. COMMITS-1 (to add commits to a
//              database written before)
//              [--two-variants] each benchmark in variants A and B (B 20% faster than A, and
//              in the newest run B of bench/0000 10% slower than before), the runs' settings
//              differing in warm-up (the first run cold, the others warm)
#include <fmt/format.h>

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
    std::cerr
        << "usage: history_db OUT.db [--benchmarks N] [--commits N] [--instances N] "
           "[--iterations N] [--hostile] [--wide-last] [--no-cache] [--from K] [--two-variants]\n";
    return 2;
  }
  const std::string out = argv[1];
  int benchmarks = 6, commits = 40, instances = 4, iterations = 5;
  int from = 0;
  bool hostile = false, wide_last = false, cache = true, two_variants = false;
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
    else if (a == "--two-variants")
      two_variants = true;
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
    if (two_variants) {
      RunData& run = batch.back();
      std::vector<VariantData> both;
      for (auto& v : run.variants) {
        v.variant.config_json = fmt::format(R"({{"instances":{},"iterations":{},"warmup":{}}})",
                                            instances, iterations, k == 0 ? 0 : 1);
        VariantData b = v;
        v.variant.name = "A";
        b.variant.name = "B";
        const bool slower = v.variant.benchmark == "bench/0000" && k + 1 == commits;
        for (auto& in : b.instances)
          for (auto& it : in.iterations)
            for (auto& [name, value] : it.metrics) value *= slower ? 0.88 : 0.8;
        both.push_back(std::move(v));
        both.push_back(std::move(b));
      }
      run.variants = std::move(both);
    }
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
