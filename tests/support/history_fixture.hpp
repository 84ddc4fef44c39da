// A history for the dashboard's tests and benchmark: BENCHMARKS benchmarks measured at each
// of COMMITS commits (one run per commit, an hour apart, machine class "ci"), with a 10%
// slowdown of benchmark 0 from commit 3/5 on. `hostile` names benchmarks 1 and 2 with markup,
// and gives every run a label `note` of markup.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace benchguard::testing {

inline const char* const kHostileNames[] = {"<img src=x onerror=alert(1)>",
                                            "\"><script>alert(1)</script>"};

// A deterministic value in [0, 1) from a counter.
inline double fixture_uniform(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / 9007199254740992.0;
}

inline std::string fixture_commit(int k) {
  std::string h;
  for (int part = 0; part < 5; ++part)
    h += fmt::format("{:08x}",
                     static_cast<uint32_t>(fixture_uniform(k * 7919 + part) * 4294967296.0));
  return h;
}

// Run k of the history (0-based).
inline RunData history_run(int k, int commits, int benchmarks, int instances, int iterations,
                           bool hostile) {
  const int64_t start = 1767225600;  // 2026-01-01T00:00:00Z
  const int slow_from = commits * 3 / 5;
  RunData run;
  run.run.uuid = fmt::format("00000000-0000-4000-8000-{:012x}", k + 1);
  run.run.started_at = (start + 3600LL * k) * 1'000'000'000LL;
  run.run.finished_at = run.run.started_at + 60'000'000'000LL;
  run.run.status = "complete";
  run.run.suite = "nightly";
  run.run.hostname = "ci-1";
  run.run.git_commit = fixture_commit(k);
  run.run.git_branch = "main";
  run.run.labels = {{"machine", "ci"}};
  if (hostile) run.run.labels.emplace_back("note", kHostileNames[k % 2]);
  run.run.artifacts = {{"git_commit_time", std::to_string(start + 3600LL * k - 600)}};
  for (int b = 0; b < benchmarks; ++b) {
    VariantData v;
    v.variant.benchmark = fmt::format("bench/{:04d}", b);
    if (hostile && (b == 1 || b == 2)) v.variant.benchmark = kHostileNames[b - 1];
    v.variant.name = "default";
    const double base = 0.001 * (1 + b % 17);
    const double level = (b == 0 && k >= slow_from) ? 1.10 : 1.0;
    for (int i = 0; i < instances; ++i) {
      InstanceRecord inst;
      inst.index = i;
      inst.order = b * instances + i;
      inst.exit_code = 0;
      inst.started_at = run.run.started_at + i;
      for (int t = 0; t < iterations; ++t) {
        IterationRecord it;
        it.index = t;
        const uint64_t seed = (static_cast<uint64_t>(k) * 100003 + b) * 1009 + i * 31 + t;
        const double noise = 1 + 0.02 * (fixture_uniform(seed) - 0.5);
        it.start_ns = t * 1000;
        it.end_ns = it.start_ns + 1000;
        // In the wide run, one iteration of benchmark 3 is twenty times slower: an outlier.
        const double spike = (instances >= 20 && b == 3 && i == 0 && t == 7) ? 20.0 : 1.0;
        it.metrics = {{"wall_time", base * level * noise * spike},
                      {"cpu_time", 0.9 * base * noise}};
        inst.iterations.push_back(std::move(it));
      }
      v.instances.push_back(std::move(inst));
    }
    run.variants.push_back(std::move(v));
  }
  return run;
}

}  // namespace benchguard::testing
