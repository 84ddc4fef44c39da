// The second half of the duet CSV importer: from instances read row by row to a run whose
// instances carry their schedule, their position in it and their times.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "ingest/duet_csv.hpp"
#include "ingest/importer.hpp"

namespace benchguard::ingest {

namespace {

bool runs_together(const std::string& schedule) {
  return schedule == "duet" || schedule == "sync-duet";
}

// Without iteration times the duet scripts' own rule applies: an instance's iterations
// run back to back from its start (epoch_start_ms). False when the times do not fit in
// int64 nanoseconds (past the year 2262).
bool derive_times(DuetInstance& d, bool iteration_times) {
  auto& its = d.inst.iterations;
  std::sort(its.begin(), its.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  int64_t start = 0;
  if (d.epoch_start_ms >= 0 && __builtin_mul_overflow(d.epoch_start_ms, int64_t{1000000}, &start))
    return false;
  if (!iteration_times && d.epoch_start_ms >= 0) {
    int64_t t = start;
    for (auto& it : its) {
      it.start_ns = t;
      const double ns = *it.metric("wall_time") * 1e9 + 0.5;
      if (!(std::abs(ns) < 0x1p62) || __builtin_add_overflow(t, static_cast<int64_t>(ns), &t))
        return false;
      it.end_ns = t;
    }
  }
  if (!its.empty()) {
    d.inst.start_ns = its.front().start_ns;
    d.inst.end_ns = its.back().end_ns;
  }
  if (d.epoch_start_ms >= 0) d.inst.started_at = start;
  d.inst.exit_code = 0;
  // Every iteration failed: the instance did.
  if (!its.empty() &&
      std::all_of(its.begin(), its.end(), [](const auto& it) { return !it.failure.empty(); }))
    d.inst.failure = its.back().failure;
  return true;
}

// The first format has no `type`: members of one runid whose times overlap ran as a duet.
void infer_schedules(std::vector<DuetInstance>& all) {
  for (auto& a : all) {
    for (const auto& b : all) {
      if (&a == &b || a.run != b.run || a.benchmark != b.benchmark || a.runid != b.runid ||
          a.pair == b.pair)
        continue;
      const bool timed = a.inst.end_ns > a.inst.start_ns && b.inst.end_ns > b.inst.start_ns;
      if (timed && a.inst.start_ns < b.inst.end_ns && b.inst.start_ns < a.inst.end_ns)
        a.type = "duet";
    }
  }
}

// Position in the schedule: by start time (file order where there is none); both members
// of a duet pair share theirs.
void assign_order(std::vector<DuetInstance>& all) {
  using Slot = std::tuple<std::string, std::string, std::string, std::string, std::string>;
  auto slot_of = [](const DuetInstance& d) {
    return Slot{d.run, d.benchmark, d.type, d.runid, runs_together(d.type) ? "" : d.pair};
  };
  std::map<Slot, std::pair<int64_t, int>> first;  // earliest start, first line
  for (const auto& d : all) {
    const int64_t start = d.inst.started_at > 0 ? d.inst.started_at : d.inst.start_ns;
    auto [it, fresh] = first.try_emplace(slot_of(d), start, d.first_line);
    if (!fresh) it->second = std::min(it->second, std::make_pair(start, d.first_line));
  }
  std::vector<std::pair<std::pair<int64_t, int>, Slot>> sorted;
  for (const auto& [slot, when] : first) sorted.emplace_back(when, slot);
  std::sort(sorted.begin(), sorted.end());
  std::map<Slot, int64_t> position;
  for (size_t i = 0; i < sorted.size(); ++i) position[sorted[i].second] = static_cast<int64_t>(i);
  for (auto& d : all) d.inst.order = position[slot_of(d)];
}

}  // namespace

Result<RunData> assemble_duet_run(const Source& src, std::vector<DuetInstance> instances,
                                  const DuetColumns& columns, RunRecord run) {
  for (auto& d : instances)
    if (!derive_times(d, columns.iteration_times))
      return src.error(d.first_line,
                       "epoch_start_ms and iteration_time_ns give times beyond what 64-bit "
                       "nanoseconds hold (the year 2262)");
  if (!columns.type) infer_schedules(instances);
  assign_order(instances);

  RunData data;
  std::vector<std::string> benchmarks;  // first-seen order
  for (const auto& d : instances)
    if (std::find(benchmarks.begin(), benchmarks.end(), d.benchmark) == benchmarks.end())
      benchmarks.push_back(d.benchmark);
  std::sort(instances.begin(), instances.end(), [&](const auto& a, const auto& b) {
    const auto ia = std::find(benchmarks.begin(), benchmarks.end(), a.benchmark);
    const auto ib = std::find(benchmarks.begin(), benchmarks.end(), b.benchmark);
    return std::tie(ia, a.pair, a.inst.order, a.first_line) <
           std::tie(ib, b.pair, b.inst.order, b.first_line);
  });
  for (auto& d : instances) {
    if (data.variants.empty() || data.variants.back().variant.benchmark != d.benchmark ||
        data.variants.back().variant.name != d.pair) {
      data.variants.emplace_back();
      data.variants.back().variant.benchmark = d.benchmark;
      data.variants.back().variant.name = d.pair;
    }
    auto& v = data.variants.back();
    d.inst.index = static_cast<int>(v.instances.size());
    d.inst.schedule = d.type;
    d.inst.schedule_tag = d.tag;
    if (d.epoch_start_ms >= 0)  // iteration times on the epoch clock
      run.finished_at = std::max(run.finished_at, d.inst.end_ns);
    v.instances.push_back(std::move(d.inst));
  }
  data.run = std::move(run);
  return data;
}

}  // namespace benchguard::ingest
